import { useEffect, useState } from 'preact/hooks';
import { api, canWrite } from '../session';
import type { DataOf } from '../api';
import { ErrorText, Heading, Loading, formatDateTime, useAction, useData } from '../ui';
import { useSaid } from './parts';
import { verificationMethodLabels } from './guardian-words';

type Settings = DataOf<'getChildrenSettings'>;
type Draft = Omit<Settings, 'childProhibitedPurposes' | 'updatedAt' | 'updatedBy'>;
type Status = 'PENDING' | 'VERIFIED' | 'REFUSED' | 'EXPIRED';

const statuses: { value: Status; label: string }[] = [
  { value: 'PENDING', label: 'Waiting for the guardian' },
  { value: 'VERIFIED', label: 'Approved' },
  { value: 'REFUSED', label: 'Refused' },
  { value: 'EXPIRED', label: 'Expired' },
];
const methods = (Object.keys(verificationMethodLabels) as Draft['methods']).map((value) => ({ value, label: verificationMethodLabels[value] }));
const audiences: { value: Draft['audience']; label: string }[] = [
  { value: 'ADULTS', label: 'Adults only: refuse a child’s decision' },
  { value: 'MIXED', label: 'Adults and children' },
  { value: 'CHILD_DIRECTED', label: 'Directed at children' },
];

/** Time left until a request lapses, or how long ago it did. */
const clockOf = (expiresAt: string) => {
  const hours = Math.round((Date.parse(expiresAt) - Date.now()) / 3_600_000);
  return hours >= 0 ? `${Math.floor(hours / 24)} d ${hours % 24} h left` : 'lapsed';
};

const Policy = () => {
  const loaded = useData(() => Promise.all([api.call('getChildrenSettings'), api.call('getFourthSchedule'), api.call('listPurposes')]));
  const [draft, setDraft] = useState<Draft>();
  const { busy, error, run } = useAction();
  const { say, line } = useSaid();
  const writer = canWrite.value;
  useEffect(() => {
    if (!loaded.data) return;
    const { childProhibitedPurposes: _p, updatedAt: _u, updatedBy: _b, ...policy } = loaded.data[0];
    setDraft(policy);
  }, [loaded.data]);
  if (!draft || !loaded.data) return <>{loaded.loading ? <Loading what="the policy" /> : null}<ErrorText error={loaded.error} /></>;
  const [settings, schedule, purposes] = loaded.data;
  const exemptionOf = (purposeId: string) => draft.purposeExemptions.find((entry) => entry.purposeId === purposeId)?.exemption ?? '';
  const save = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await api.call('saveChildrenSettings', { body: draft });
      loaded.reload();
      say('Policy saved. It applies to the next child’s decision.');
    });
  };
  return (
    <form onSubmit={save}>
      <h2>Policy</h2>
      <fieldset disabled={!writer}>
        <legend>Audience</legend>
        {audiences.map((option) => (
          <label class="check" key={option.value}>
            <input type="radio" name="audience" checked={draft.audience === option.value} onChange={() => setDraft({ ...draft, audience: option.value })} /> {option.label}
          </label>
        ))}
        <label class="check">
          <input type="checkbox" checked={draft.askAge} onChange={(event) => setDraft({ ...draft, askAge: event.currentTarget.checked })} /> The widget asks whether the visitor is under 18
        </label>
      </fieldset>
      <fieldset disabled={!writer}>
        <legend>How the parent proves to be an identifiable adult</legend>
        {methods.map((option) => (
          <label class="check" key={option.value}>
            <input
              type="checkbox"
              checked={draft.methods.includes(option.value)}
              onChange={(event) => setDraft({ ...draft, methods: event.currentTarget.checked ? [...draft.methods, option.value] : draft.methods.filter((method) => method !== option.value) })}
            />{' '}
            {option.label}
          </label>
        ))}
        {draft.tokenIssuers.map((issuer, index) => (
          <div key={index} class="row">
            {(['issuer', 'jwksUrl', 'ageClaim'] as const).map((field) => (
              <label key={field}>
                {field === 'issuer' ? 'Issuer' : field === 'jwksUrl' ? 'JWKS address' : 'Age claim'}
                <input value={issuer[field]} onInput={(event) => setDraft({ ...draft, tokenIssuers: draft.tokenIssuers.map((entry, at) => (at === index ? { ...entry, [field]: event.currentTarget.value } : entry)) })} />
              </label>
            ))}
            <button type="button" class="secondary" onClick={() => setDraft({ ...draft, tokenIssuers: draft.tokenIssuers.filter((_, at) => at !== index) })}>
              Remove issuer
            </button>
          </div>
        ))}
        <button type="button" class="secondary" onClick={() => setDraft({ ...draft, tokenIssuers: [...draft.tokenIssuers, { issuer: '', jwksUrl: '', ageClaim: 'age_over_18' }] })}>
          Add a token issuer
        </button>
      </fieldset>
      <fieldset disabled={!writer}>
        <legend>Fourth Schedule exemptions</legend>
        <label>
          Class of the organisation (Part A)
          <select value={draft.fourthScheduleClass ?? ''} onChange={(event) => setDraft({ ...draft, fourthScheduleClass: (event.currentTarget.value || null) as Draft['fourthScheduleClass'] })}>
            <option value="">None</option>
            {schedule.partA.map((entry) => (
              <option key={entry.id} value={entry.id}>{`${entry.serial}. ${entry.class}`}</option>
            ))}
          </select>
        </label>
        {purposes.map((purpose) => (
          <label key={purpose.id}>
            {purpose.name}
            {purpose.childProhibited ? ' (tracking or advertising: never for a child)' : ''}
            <select
              disabled={purpose.childProhibited}
              value={exemptionOf(purpose.id)}
              onChange={(event) => {
                const others = draft.purposeExemptions.filter((entry) => entry.purposeId !== purpose.id);
                const exemption = event.currentTarget.value as Draft['purposeExemptions'][number]['exemption'] | '';
                setDraft({ ...draft, purposeExemptions: exemption ? [...others, { purposeId: purpose.id, exemption }] : others });
              }}
            >
              <option value="">Not exempt: the parent decides</option>
              {schedule.partB.map((entry) => (
                <option key={entry.id} value={entry.id}>{`Part B ${entry.serial}. ${entry.purpose}`}</option>
              ))}
            </select>
          </label>
        ))}
        <p class="hint">Each exemption is recorded with its condition in the record’s evidence. Source: {schedule.sources.fourthSchedulePartA?.title}.</p>
      </fieldset>
      <ErrorText error={error} />
      {writer ? <button type="submit" disabled={busy}>Save policy</button> : <p class="muted">Your role can view this policy; a DPO changes it.</p>}
      {line}
      <p class="muted">Last changed: {settings.updatedAt ? formatDateTime(settings.updatedAt) : 'never (the defaults)'}</p>
    </form>
  );
};

const Evidence = ({ requestId }: { requestId: string }) => {
  const loaded = useData(() => api.call('getGuardianRequest', { params: { requestId } }), [requestId]);
  if (!loaded.data) return <>{loaded.loading ? <Loading what="the evidence" /> : null}<ErrorText error={loaded.error} /></>;
  return loaded.data.documents.length === 0 ? (
    <p class="muted">No decision yet.</p>
  ) : (
    <ul>
      {loaded.data.documents.map((document) => (
        <li key={document.documentId}>
          {document.documentType} at {formatDateTime(document.at)}, log leaf hash <code>{document.hash}</code>
          <pre>{document.canonical}</pre>
        </li>
      ))}
    </ul>
  );
};

const Requests = () => {
  const [status, setStatus] = useState<Status>('PENDING');
  const [cursor, setCursor] = useState<string>();
  const [open, setOpen] = useState<string>();
  const loaded = useData(() => api.call('listGuardianRequests', { query: { status, ...(cursor ? { cursor } : {}) } }), [status, cursor]);
  const { busy, error, run } = useAction();
  const { say, line } = useSaid();
  const resend = (requestId: string) =>
    void run(async () => {
      const sent = await api.call('resendGuardianRequest', { params: { requestId } });
      loaded.reload();
      say(`A fresh link was mailed (link ${sent.linksSent}); the old one no longer works. Valid until ${formatDateTime(sent.expiresAt)}.`);
    });
  return (
    <section aria-labelledby="requests-heading">
      <h2 id="requests-heading">Guardian requests</h2>
      <label>
        Status{' '}
        <select value={status} onChange={(event) => (setStatus(event.currentTarget.value as Status), setCursor(undefined))}>
          {statuses.map((option) => (
            <option key={option.value} value={option.value}>{option.label}</option>
          ))}
        </select>
      </label>
      {loaded.loading ? <Loading what="the requests" /> : null}
      <ErrorText error={loaded.error ?? error} />
      {line}
      {loaded.data ? (
        <table>
          <caption>Newest first</caption>
          <thead>
            <tr>
              <th scope="col">Requested</th>
              <th scope="col">Who</th>
              <th scope="col">Link</th>
              <th scope="col">Method</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {loaded.data.items.map((request) => (
              <>
                <tr key={request.requestId}>
                  <td>{formatDateTime(request.createdAt)}</td>
                  <td>{request.principalStatus === 'CHILD' ? 'Child' : 'Person with a lawful guardian'}</td>
                  <td>{request.status === 'PENDING' ? clockOf(request.expiresAt) : `decided ${formatDateTime(request.decidedAt)}`}</td>
                  <td>{request.method ?? '—'}</td>
                  <td>
                    <button type="button" class="secondary" aria-expanded={open === request.requestId} onClick={() => setOpen(open === request.requestId ? undefined : request.requestId)}>
                      Evidence
                    </button>{' '}
                    {request.status === 'PENDING' && canWrite.value ? (
                      <button type="button" disabled={busy} onClick={() => resend(request.requestId)}>
                        Resend link
                      </button>
                    ) : null}
                  </td>
                </tr>
                {open === request.requestId ? (
                  <tr>
                    <td colSpan={5}>
                      <Evidence requestId={request.requestId} />
                    </td>
                  </tr>
                ) : null}
              </>
            ))}
          </tbody>
        </table>
      ) : null}
      {loaded.data?.nextCursor ? (
        <button type="button" class="secondary" onClick={() => setCursor(loaded.data!.nextCursor!)}>
          Older requests
        </button>
      ) : null}
    </section>
  );
};

/**
 * Children and lawful guardians (s.9, rules 10-12): the tenant's policy, and the guardian requests
 * by status with their clocks, resend, and each decision's logged evidence. docs/children.md.
 */
export default function Children() {
  return (
    <>
      <Heading title="Children">Children and lawful guardians</Heading>
      <p class="hint">A child’s decision is no consent until a parent approves it; tracking and targeted advertising are never offered to a child.</p>
      <Requests />
      <Policy />
    </>
  );
}
