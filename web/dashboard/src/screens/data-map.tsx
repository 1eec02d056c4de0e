import { useState } from 'preact/hooks';
import { api, canWrite } from '../session';
import { ErrorText, Heading, Loading, useData } from '../ui';
import { AssetForm, ProcessorForm, type Asset, type Processor } from './data-map-forms';
import { ConfirmDialog, useSaid } from './parts';

type Open = { kind: 'asset' | 'processor'; item?: Asset | Processor; deleting?: boolean };

/**
 * The data map: where personal data is held, what for, and whom it is shared with. Access
 * summaries and the assets of rights requests are built from it. A delete the service refuses
 * (an asset serving the published notice, a processor an asset lists) shows why in its dialog.
 */
export default function DataMap() {
  const assets = useData(() => api.call('listDataAssets'));
  const processors = useData(() => api.call('listProcessors'));
  const purposes = useData(() => api.call('listPurposes'));
  const [open, setOpen] = useState<Open>();
  const { say, line } = useSaid();
  const done = (text: string) => {
    setOpen(undefined);
    say(text);
    assets.reload();
    processors.reload();
  };
  const purposeName = new Map((purposes.data ?? []).map((purpose) => [purpose.id, purpose.name]));
  const processorName = new Map((processors.data ?? []).map((processor) => [processor.processorId, processor.name]));
  const asset = open?.kind === 'asset' ? (open.item as Asset | undefined) : undefined;
  const processor = open?.kind === 'processor' ? (open.item as Processor | undefined) : undefined;
  const actions = (kind: Open['kind'], item: Asset | Processor, name: string) =>
    canWrite.value ? (
      <td class="row-actions">
        <button type="button" class="secondary" onClick={() => setOpen({ kind, item })}>
          Edit<span class="visually-hidden"> {name}</span>
        </button>{' '}
        <button type="button" class="danger" onClick={() => setOpen({ kind, item, deleting: true })}>
          Delete<span class="visually-hidden"> {name}</span>
        </button>
      </td>
    ) : null;
  return (
    <>
      <Heading title="Data map">Data map</Heading>
      <p>Where personal data is held, what it is used for and whom it is shared with. Access summaries and rights requests are answered from it.</p>
      {line}
      <section aria-labelledby="assets-heading">
        <h2 id="assets-heading">Data assets</h2>
        {canWrite.value ? (
          <button type="button" onClick={() => setOpen({ kind: 'asset' })}>
            Add asset
          </button>
        ) : null}
        <ErrorText error={assets.error ?? purposes.error} />
        {assets.loading && !assets.data ? <Loading what="assets" /> : null}
        {assets.data && assets.data.length === 0 ? <p>No assets yet.</p> : null}
        {assets.data && assets.data.length > 0 ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Asset</th>
                <th scope="col">Data</th>
                <th scope="col">Purposes</th>
                <th scope="col">Shared with</th>
                <th scope="col">Retention</th>
                {canWrite.value ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {assets.data.map((item) => (
                <tr key={item.assetId}>
                  <td>
                    {item.name} <span class="muted">{[item.system, item.location].filter(Boolean).join(', ')}</span>
                    {item.linkedToPublishedNotice ? <span class="badge active">In the published notice</span> : null}
                  </td>
                  <td>{item.dataCategories.join(', ')}</td>
                  <td>{item.purposeIds.map((id) => purposeName.get(id) ?? id).join(', ') || '—'}</td>
                  <td>{item.processorIds.map((id) => processorName.get(id) ?? id).join(', ') || '—'}</td>
                  <td>{item.retentionDays ? `${item.retentionDays} days` : '—'}</td>
                  {actions('asset', item, item.name)}
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
      <section aria-labelledby="processors-heading">
        <h2 id="processors-heading">Processors and other fiduciaries</h2>
        {canWrite.value ? (
          <button type="button" onClick={() => setOpen({ kind: 'processor' })}>
            Add processor
          </button>
        ) : null}
        <ErrorText error={processors.error} />
        {processors.loading && !processors.data ? <Loading what="processors" /> : null}
        {processors.data && processors.data.length === 0 ? <p>No processors yet.</p> : null}
        {processors.data && processors.data.length > 0 ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Country</th>
                <th scope="col">Contact</th>
                <th scope="col">Assets</th>
                {canWrite.value ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {processors.data.map((item) => (
                <tr key={item.processorId}>
                  <td>
                    {item.name}
                    {item.lawfulDisclosure ? <span class="badge partial">Lawful disclosure</span> : null}
                  </td>
                  <td>{item.role === 'PROCESSOR' ? 'Processor' : 'Fiduciary'}</td>
                  <td>{item.country}</td>
                  <td>{item.contactEmail ?? '—'}</td>
                  <td>{item.linkedAssets}</td>
                  {actions('processor', item, item.name)}
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
      {open?.kind === 'asset' && !open.deleting ? (
        <AssetForm asset={asset} purposes={purposes.data ?? []} processors={processors.data ?? []} onClose={() => setOpen(undefined)} onSaved={(saved) => done(`Asset "${saved.name}" saved.`)} />
      ) : null}
      {open?.kind === 'processor' && !open.deleting ? <ProcessorForm processor={processor} onClose={() => setOpen(undefined)} onSaved={(saved) => done(`Processor "${saved.name}" saved.`)} /> : null}
      {open?.deleting && (asset ?? processor) ? (
        <ConfirmDialog
          title={`Delete ${asset ? 'this asset' : 'this processor'}?`}
          confirm={asset ? 'Delete asset' : 'Delete processor'}
          act={() => (asset ? api.call('deleteDataAsset', { params: { assetId: asset.assetId } }) : api.call('deleteProcessor', { params: { processorId: processor!.processorId } }))}
          onClose={() => setOpen(undefined)}
          onDone={() => done(`"${(asset ?? processor)!.name}" deleted.`)}
        >
          <p>
            {asset
              ? `"${asset.name}" leaves the data map. An asset serving a purpose of the published notice cannot be deleted.`
              : `"${processor!.name}" leaves the data map. A processor that an asset lists cannot be deleted.`}
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
