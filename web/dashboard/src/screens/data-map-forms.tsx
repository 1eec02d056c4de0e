import { useState } from 'preact/hooks';
import { api } from '../session';
import type { DataOf } from '../api';
import { Dialog, DialogActions, ErrorText, fieldErrors, useAction } from '../ui';
import { Field } from './parts';

export type Asset = DataOf<'listDataAssets'>[number];
export type Processor = DataOf<'listProcessors'>[number];
type Purpose = DataOf<'listPurposes'>[number];

const list = (text: string) => text.split(',').map((item) => item.trim()).filter(Boolean);

/** Checkboxes for a set of ids (purposes, processors), with the API's message for the field. */
const Choices = ({ legend, items, chosen, onChange, problem, id }: { legend: string; items: { id: string; label: string }[]; chosen: string[]; onChange: (ids: string[]) => void; problem?: string; id: string }) => (
  <fieldset aria-describedby={problem ? `${id}-problem` : undefined}>
    <legend>{legend}</legend>
    {items.length === 0 ? <p class="muted">None yet.</p> : null}
    {items.map((item) => (
      <label key={item.id} class="check">
        <input type="checkbox" checked={chosen.includes(item.id)} onChange={(event) => onChange(event.currentTarget.checked ? [...chosen, item.id] : chosen.filter((other) => other !== item.id))} /> {item.label}
      </label>
    ))}
    {problem ? (
      <span class="hint error" id={`${id}-problem`}>
        {problem}
      </span>
    ) : null}
  </fieldset>
);

/** Adds an asset, or edits one: a failed save names each field and keeps what was typed. */
export const AssetForm = ({ asset, purposes, processors, onSaved, onClose }: { asset?: Asset; purposes: Purpose[]; processors: Processor[]; onSaved: (saved: Asset) => void; onClose: () => void }) => {
  const [name, setName] = useState(asset?.name ?? '');
  const [system, setSystem] = useState(asset?.system ?? '');
  const [location, setLocation] = useState(asset?.location ?? '');
  const [description, setDescription] = useState(asset?.description ?? '');
  const [categories, setCategories] = useState(asset?.dataCategories.join(', ') ?? '');
  const [purposeIds, setPurposeIds] = useState(asset?.purposeIds ?? []);
  const [processorIds, setProcessorIds] = useState(asset?.processorIds ?? []);
  const [retention, setRetention] = useState(asset?.retentionDays ? String(asset.retentionDays) : '');
  const { busy, error, run } = useAction({ staysBusy: true });
  const problems = fieldErrors(error);
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const body = { name: name.trim(), system: system.trim(), location: location.trim(), description: description.trim(), dataCategories: list(categories), purposeIds, processorIds, retentionDays: retention.trim() ? Number(retention) : null };
      onSaved(asset ? await api.call('updateDataAsset', { params: { assetId: asset.assetId }, body }) : await api.call('createDataAsset', { body }));
    });
  };
  return (
    <Dialog title={asset ? 'Edit asset' : 'Add asset'} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <Field id="asset-name" label="Name" problem={problems.name}>
          {(control) => <input {...control} value={name} onInput={(event) => setName(event.currentTarget.value)} />}
        </Field>
        <Field id="asset-system" label="System" hint='Where the data lives, e.g. "orders database".' problem={problems.system}>
          {(control) => <input {...control} value={system} onInput={(event) => setSystem(event.currentTarget.value)} />}
        </Field>
        <Field id="asset-location" label="Location" hint="Country or region, e.g. IN." problem={problems.location}>
          {(control) => <input {...control} value={location} onInput={(event) => setLocation(event.currentTarget.value)} />}
        </Field>
        <Field id="asset-categories" label="Data categories" hint="Comma-separated, e.g. email, address." problem={problems.dataCategories}>
          {(control) => <input {...control} value={categories} onInput={(event) => setCategories(event.currentTarget.value)} />}
        </Field>
        <Choices id="asset-purposes" legend="Purposes" items={purposes.map((purpose) => ({ id: purpose.id, label: purpose.name }))} chosen={purposeIds} onChange={setPurposeIds} problem={problems.purposeIds} />
        <Choices id="asset-processors" legend="Shared with" items={processors.map((processor) => ({ id: processor.processorId, label: processor.name }))} chosen={processorIds} onChange={setProcessorIds} problem={problems.processorIds} />
        <Field id="asset-retention" label="Retention (days)" hint="Optional." problem={problems.retentionDays}>
          {(control) => <input {...control} type="number" min={1} value={retention} onInput={(event) => setRetention(event.currentTarget.value)} />}
        </Field>
        <Field id="asset-description" label="Description" problem={problems.description}>
          {(control) => <textarea {...control} class="prose" rows={3} value={description} onInput={(event) => setDescription(event.currentTarget.value)} />}
        </Field>
        <ErrorText error={error} />
        <DialogActions submit={asset ? 'Save asset' : 'Add asset'} busy={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
};

/** Adds a processor or other fiduciary, or edits one. */
export const ProcessorForm = ({ processor, onSaved, onClose }: { processor?: Processor; onSaved: (saved: Processor) => void; onClose: () => void }) => {
  const [name, setName] = useState(processor?.name ?? '');
  const [role, setRole] = useState<Processor['role']>(processor?.role ?? 'PROCESSOR');
  const [contactEmail, setContactEmail] = useState(processor?.contactEmail ?? '');
  const [country, setCountry] = useState(processor?.country ?? '');
  const [description, setDescription] = useState(processor?.description ?? '');
  const [lawfulDisclosure, setLawfulDisclosure] = useState(processor?.lawfulDisclosure ?? false);
  const { busy, error, run } = useAction({ staysBusy: true });
  const problems = fieldErrors(error);
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const body = { name: name.trim(), role, contactEmail: contactEmail.trim() || null, country: country.trim(), description: description.trim(), lawfulDisclosure };
      onSaved(processor ? await api.call('updateProcessor', { params: { processorId: processor.processorId }, body }) : await api.call('createProcessor', { body }));
    });
  };
  return (
    <Dialog title={processor ? 'Edit processor' : 'Add processor'} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <Field id="processor-name" label="Name" problem={problems.name}>
          {(control) => <input {...control} value={name} onInput={(event) => setName(event.currentTarget.value)} />}
        </Field>
        <Field id="processor-role" label="Role" problem={problems.role}>
          {(control) => (
            <select {...control} value={role} onChange={(event) => setRole(event.currentTarget.value as Processor['role'])}>
              <option value="PROCESSOR">Processor (processes for you)</option>
              <option value="FIDUCIARY">Fiduciary (another organisation responsible for the data)</option>
            </select>
          )}
        </Field>
        <Field id="processor-email" label="Contact email" hint="Optional." problem={problems.contactEmail}>
          {(control) => <input {...control} type="email" value={contactEmail} onInput={(event) => setContactEmail(event.currentTarget.value)} />}
        </Field>
        <Field id="processor-country" label="Country" problem={problems.country}>
          {(control) => <input {...control} value={country} onInput={(event) => setCountry(event.currentTarget.value)} />}
        </Field>
        <Field id="processor-description" label="Description" problem={problems.description}>
          {(control) => <textarea {...control} class="prose" rows={3} value={description} onInput={(event) => setDescription(event.currentTarget.value)} />}
        </Field>
        <label class="check">
          <input type="checkbox" checked={lawfulDisclosure} onChange={(event) => setLawfulDisclosure(event.currentTarget.checked)} /> Lawful disclosure to an authority (s.11(2)): left out of access summaries
        </label>
        <ErrorText error={error} />
        <DialogActions submit={processor ? 'Save processor' : 'Add processor'} busy={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
};
