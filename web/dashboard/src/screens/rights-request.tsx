import { useState } from 'preact/hooks';
import { api, canWrite } from '../session';
import { Dialog, DialogActions, ErrorText, Heading, Link, Loading, fieldErrors, formatDateTime, formatEvidenceTime, useAction, useData } from '../ui';
import { Field, useSaid } from './parts';
import { Actor } from './actor';
import { DocumentDownloads, DocumentPreview } from './document';
import { Due, StatusBadge, channelNames, outcomeNames, statusNames, typeNames, type RightsRequest } from './rights-parts';

/** The request's logged documents, as the evidence list names them. */
const documentNames: Record<string, string> = { 'rights.submitted': 'Submitted', 'rights.resolved': 'Resolved' };

type Asset = RightsRequest['assets'][number];
type Outcome = keyof typeof outcomeNames;

const isOpen = (request: RightsRequest) => request.status === 'SUBMITTED' || request.status === 'IN_PROGRESS';

/** Keeping an asset's data needs the law or purpose that requires it (s.12(3)). */
const RetainDialog = ({ asset, onRetain, onClose }: { asset: Asset; onRetain: (note: string) => Promise<void>; onClose: () => void }) => {
  const [note, setNote] = useState('');
  const { busy, error, run } = useAction({ staysBusy: true });
  return (
    <Dialog title={`Retain the data in ${asset.name}`} onClose={onClose}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void run(() => onRetain(note.trim()));
        }}
      >
        <Field id="retain-note" label="Why it must be kept" hint="The law or purpose that requires keeping it, e.g. invoices: 8 years under the Companies Act, 2013." problem={fieldErrors(error).note}>
          {(control) => <textarea {...control} class="prose" rows={3} value={note} onInput={(event) => setNote(event.currentTarget.value)} />}
        </Field>
        <ErrorText error={error} />
        <DialogActions submit="Retain" busy={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
};

const Checklist = ({ request, onChanged }: { request: RightsRequest; onChanged: (next: RightsRequest, said: string) => void }) => {
  const [retaining, setRetaining] = useState<Asset>();
  const { busy, error, run } = useAction();
  const editable = canWrite.value && isOpen(request);
  const mark = (asset: Asset, body: { state: 'DONE' | 'RETAINED'; note?: string }) =>
    api.call('markRightsRequestAsset', { params: { requestId: request.requestId, assetId: asset.assetId }, body }).then((next) => onChanged(next, `${asset.name}: ${body.state === 'DONE' ? 'done' : 'retained'}.`));
  return (
    <section aria-labelledby="assets-heading">
      <h2 id="assets-heading">Assets holding the principal's data</h2>
      {request.assets.length === 0 ? (
        <p>No asset of the data map processes this principal's data (none of the purposes they consented to).</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Asset</th>
              <th scope="col">State</th>
              <th scope="col">Note</th>
              {editable ? <th scope="col">Action</th> : null}
            </tr>
          </thead>
          <tbody>
            {request.assets.map((asset) => (
              <tr key={asset.assetId}>
                <td>
                  {asset.name} <span class="muted">{asset.system}</span>
                </td>
                <td>{asset.state ? <span class={`badge ${asset.state === 'PENDING' ? 'partial' : 'active'}`}>{asset.state === 'PENDING' ? 'Pending' : asset.state === 'DONE' ? 'Done' : 'Retained'}</span> : '—'}</td>
                <td class="wrap-text">{asset.note ?? ''}</td>
                {editable ? (
                  <td class="row-actions">
                    {asset.state ? (
                      <>
                        <button type="button" class="secondary" aria-label={`Done: ${asset.name}`} disabled={busy} onClick={() => run(() => mark(asset, { state: 'DONE' }))}>
                          Done
                        </button>{' '}
                        <button type="button" class="secondary" aria-label={`Retain: ${asset.name}`} disabled={busy} onClick={() => setRetaining(asset)}>
                          Retain
                        </button>
                      </>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ErrorText error={error} />
      {retaining ? (
        <RetainDialog
          asset={retaining}
          onClose={() => setRetaining(undefined)}
          onRetain={async (note) => {
            await mark(retaining, { state: 'RETAINED', note });
            setRetaining(undefined);
          }}
        />
      ) : null}
    </section>
  );
};

const Resolve = ({ request, onResolved }: { request: RightsRequest; onResolved: (next: RightsRequest) => void }) => {
  const [outcome, setOutcome] = useState<Outcome>('FULFILLED');
  const [response, setResponse] = useState('');
  const { busy, error, run } = useAction();
  const problems = fieldErrors(error);
  return (
    <section class="panel" aria-labelledby="resolve-heading">
      <h2 id="resolve-heading">Resolve</h2>
      <p>The principal is mailed the answer, with your response and the DPO contact. The resolution is kept in your evidence log, and your systems are told through your webhooks.</p>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void run(async () => onResolved(await api.call('resolveRightsRequest', { params: { requestId: request.requestId }, body: { outcome, response: response.trim() } })));
        }}
      >
        <Field id="resolve-outcome" label="Outcome" problem={problems.outcome}>
          {(control) => (
            <select {...control} value={outcome} onChange={(event) => setOutcome(event.currentTarget.value as Outcome)}>
              {(Object.keys(outcomeNames) as Outcome[]).map((item) => (
                <option key={item} value={item}>
                  {outcomeNames[item]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="resolve-response" label="Response to the principal" hint="Required, a rejection's reasons too." problem={problems.response}>
          {(control) => <textarea {...control} class="prose" rows={5} value={response} onInput={(event) => setResponse(event.currentTarget.value)} />}
        </Field>
        <ErrorText error={error} />
        <button type="submit" disabled={busy}>
          Resolve request
        </button>
      </form>
    </section>
  );
};

const Facts = ({ request }: { request: RightsRequest }) => (
  <dl class="pairs">
    <dt>Status</dt>
    <dd>
      <StatusBadge status={request.status} />
    </dd>
    <dt>Received by</dt>
    <dd>{channelNames[request.channel]}</dd>
    <dt>Principal hash</dt>
    <dd>
      <code class="wrap">{request.principalHash}</code>
    </dd>
    <dt>Submitted</dt>
    <dd>{formatDateTime(request.submittedAt)}</dd>
    <dt>Due</dt>
    <dd>
      <Due request={request} />
    </dd>
    {request.resolvedAt ? (
      <>
        <dt>Resolved</dt>
        <dd>
          {formatDateTime(request.resolvedAt)}: {request.outcome ? outcomeNames[request.outcome] : ''}
        </dd>
      </>
    ) : null}
    {request.withdrawalId ? (
      <>
        <dt>Consent withdrawn</dt>
        <dd>
          withdrawal <code>{request.withdrawalId}</code>
        </dd>
      </>
    ) : null}
    <dt>What the principal asked</dt>
    <dd class="wrap-text">{request.details}</dd>
    {request.teamNote ? (
      <>
        <dt>Team note (not shown to the principal)</dt>
        <dd class="wrap-text">{request.teamNote}</dd>
      </>
    ) : null}
    {request.nominee ? (
      <>
        <dt>Nominee</dt>
        <dd>
          {request.nominee.name} ({request.nominee.relationship}), {request.nominee.email}
        </dd>
      </>
    ) : null}
  </dl>
);

export default function RightsRequestScreen({ params }: { params: Record<string, string> }) {
  const requestId = params.requestId ?? '';
  const loaded = useData(() => api.call('getRightsRequest', { params: { requestId } }), [requestId]);
  const [changed, setChanged] = useState<RightsRequest>();
  const [previews, setPreviews] = useState(0);
  const start = useAction();
  const { say, line } = useSaid();
  const request = changed ?? loaded.data;
  const summaryAs = (format: 'html' | 'pdf') =>
    format === 'pdf' ? api.file('printRightsRequestSummary', { params: { requestId } }) : api.file('getRightsRequestSummary', { params: { requestId }, query: { format } });
  const title = request ? `${typeNames[request.type]} request` : 'Rights request';
  const update = (next: RightsRequest, said: string) => {
    setChanged(next);
    say(said);
  };
  return (
    <>
      <p class="crumbs">
        <Link to="/rights">Rights requests</Link>
      </p>
      <Heading title={title}>{title}</Heading>
      <ErrorText error={loaded.error} />
      {loaded.loading && !request ? <Loading what="the request" /> : null}
      {request ? (
        <>
          <Facts request={request} />
          {canWrite.value && request.status === 'SUBMITTED' ? (
            <p>
              <button type="button" disabled={start.busy} onClick={() => start.run(async () => update(await api.call('startRightsRequest', { params: { requestId } }), 'Work on the request started.'))}>
                Start
              </button>
            </p>
          ) : null}
          <ErrorText error={start.error} />
          {line}
          <Checklist request={request} onChanged={update} />
          <section aria-labelledby="summary-heading">
            <h2 id="summary-heading">Access summary</h2>
            <p>What the principal gets when an access request is fulfilled: assembled from their consent records and the data map, as it stands now.</p>
            <button type="button" class="secondary" onClick={() => setPreviews(previews + 1)}>
              {previews > 0 ? 'Refresh the preview' : 'Preview the access summary'}
            </button>
            {previews > 0 ? (
              <>
                <DocumentPreview key={previews} load={() => summaryAs('html')} label="The access summary, as the document reads" />
                <DocumentDownloads fetchAs={summaryAs} name={`access-summary-${requestId}`} id="summary-downloads" />
              </>
            ) : null}
          </section>
          {canWrite.value && isOpen(request) ? <Resolve request={request} onResolved={(next) => update(next, 'Request resolved; the principal is told.')} /> : null}
          {request.response ? (
            <section aria-labelledby="answer-heading">
              <h2 id="answer-heading">Answer</h2>
              <p class="wrap-text">{request.response}</p>
              {request.closure ? (
                <>
                  <p>Closure receipt (verify with <code>node scripts/verify-receipt.mjs --closure</code>):</p>
                  <pre class="wrap">{request.closure.receipt}</pre>
                </>
              ) : null}
            </section>
          ) : null}
          <section aria-labelledby="timeline-heading">
            <h2 id="timeline-heading">Timeline</h2>
            <ol>
              {request.timeline.map((entry) => (
                <li key={`${entry.at}${entry.status}`}>
                  {formatDateTime(entry.at)}: {statusNames[entry.status].toLowerCase()} by <Actor actor={entry.actor} by={entry.by} />
                </li>
              ))}
            </ol>
            <h3>Evidence log entries</h3>
            <ul>
              {request.documents.map((document) => (
                <li key={document.documentId}>
                  {documentNames[document.documentType] ?? 'Entry'}, {formatEvidenceTime(document.at)}: <code title={document.documentId}>{document.hash.slice(0, 16)}…</code>
                </li>
              ))}
            </ul>
          </section>
        </>
      ) : null}
    </>
  );
}
