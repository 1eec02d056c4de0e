import { useState } from 'preact/hooks';
import { navigate } from '../router';
import { api, canWrite } from '../session';
import { Dialog, DialogActions, ErrorText, Heading, Link, Loading, fieldErrors, formatDate, useAction, useData } from '../ui';
import { Field, usePager, useSaid } from './parts';
import { Due, StatusBadge, channelNames, statusNames, typeNames, type RequestStatus, type RequestType } from './rights-parts';

const types = Object.keys(typeNames) as RequestType[];
const loggedChannels = ['EMAIL', 'PHONE', 'LETTER', 'IN_PERSON', 'OTHER'] as const;

/** A request taken by email, phone, letter or in person: SUBMITTED at once, the logging user recorded. */
const LogRequest = ({ onClose }: { onClose: () => void }) => {
  const [type, setType] = useState<RequestType>('ACCESS');
  const [identifier, setIdentifier] = useState('');
  const [channel, setChannel] = useState<(typeof loggedChannels)[number]>('EMAIL');
  const [details, setDetails] = useState('');
  const [teamNote, setTeamNote] = useState('');
  const [nominee, setNominee] = useState({ name: '', email: '', relationship: '' });
  const { busy, error, run } = useAction({ staysBusy: true });
  const problems = fieldErrors(error);
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const logged = await api.call('logRightsRequest', {
        body: { type, dataPrincipalIdentifier: identifier.trim(), channel, details: details.trim(), ...(teamNote.trim() ? { teamNote: teamNote.trim() } : {}), ...(type === 'NOMINATION' ? { nominee: { name: nominee.name.trim(), email: nominee.email.trim(), relationship: nominee.relationship.trim() } } : {}) },
      });
      navigate(`/rights/${logged.requestId}`);
    });
  };
  return (
    <Dialog title="Log a request" onClose={onClose}>
      <form onSubmit={submit} noValidate aria-describedby="log-sees">
        <p id="log-sees">
          A principal known by email gets a mail with a link to the request’s page. That page shows them the type of request, <strong>what they asked</strong> as you write it here,
          its status and due date, and later your answer. Your team note is never shown to them.
        </p>
        <Field id="log-type" label="Type" problem={problems.type}>
          {(control) => (
            <select {...control} value={type} onChange={(event) => setType(event.currentTarget.value as RequestType)}>
              {types.map((item) => (
                <option key={item} value={item}>
                  {typeNames[item]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="log-identifier" label="Principal's email or identifier" hint="Only its SHA-256 hash is shown. An email also gets a link to follow the request and, later, the answer." problem={problems.dataPrincipalIdentifier}>
          {(control) => <input {...control} value={identifier} onInput={(event) => setIdentifier(event.currentTarget.value)} />}
        </Field>
        <Field id="log-channel" label="Received by" problem={problems.channel}>
          {(control) => (
            <select {...control} value={channel} onChange={(event) => setChannel(event.currentTarget.value as typeof channel)}>
              {loggedChannels.map((item) => (
                <option key={item} value={item}>
                  {channelNames[item]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="log-details" label="What the principal asks, in their words" hint="The principal reads this on their request’s page." problem={problems.details}>
          {(control) => <textarea {...control} class="prose" rows={4} value={details} onInput={(event) => setDetails(event.currentTarget.value)} />}
        </Field>
        <Field id="log-note" label="Team note (optional)" hint="Only your team sees it: who took the request, how you checked who they are." problem={problems.teamNote}>
          {(control) => <textarea {...control} class="prose" rows={3} value={teamNote} onInput={(event) => setTeamNote(event.currentTarget.value)} />}
        </Field>
        {type === 'NOMINATION' ? (
          <fieldset>
            <legend>Nominee</legend>
            {(['name', 'email', 'relationship'] as const).map((part) => (
              <Field key={part} id={`log-nominee-${part}`} label={{ name: 'Name', email: 'Email', relationship: 'Relationship to the principal' }[part]} problem={problems[`nominee.${part}`] ?? problems.nominee}>
                {(control) => <input {...control} value={nominee[part]} onInput={(event) => setNominee({ ...nominee, [part]: event.currentTarget.value })} />}
              </Field>
            ))}
          </fieldset>
        ) : null}
        <ErrorText error={error} />
        <DialogActions submit="Log request" busy={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
};

/** The response periods and identifiers required (Rule 14), published on the tenant's request page. */
const Settings = () => {
  const settings = useData(() => api.call('getRightsSettings'));
  const [draft, setDraft] = useState<{ requestResponseDays: string; grievanceResponseDays: string; identifiersRequired: string }>();
  const { busy, error, run } = useAction();
  const { say, line } = useSaid();
  const problems = fieldErrors(error);
  const current = settings.data;
  const form = draft ?? (current ? { requestResponseDays: String(current.requestResponseDays), grievanceResponseDays: String(current.grievanceResponseDays), identifiersRequired: current.identifiersRequired.join(', ') } : undefined);
  return (
    <section class="panel" aria-labelledby="settings-heading">
      <h2 id="settings-heading">Response periods</h2>
      <ErrorText error={settings.error} />
      {form ? (
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            void run(async () => {
              await api.call('updateRightsSettings', {
                body: {
                  requestResponseDays: Number(form.requestResponseDays),
                  grievanceResponseDays: Number(form.grievanceResponseDays),
                  identifiersRequired: form.identifiersRequired.split(',').map((item) => item.trim()).filter(Boolean),
                },
              });
              say('Response periods saved.');
              settings.reload();
            });
          }}
        >
          {(['requestResponseDays', 'grievanceResponseDays'] as const).map((name) => (
            <Field key={name} id={`settings-${name}`} label={name === 'requestResponseDays' ? 'Days to answer a request' : 'Days to answer a grievance'} problem={problems[name]}>
              {(control) => <input {...control} type="number" min={1} max={90} readOnly={!canWrite.value} value={form[name]} onInput={(event) => setDraft({ ...form, [name]: event.currentTarget.value })} />}
            </Field>
          ))}
          <Field id="settings-identifiers" label="Identifiers required" hint="Comma-separated, e.g. email, order number" problem={problems.identifiersRequired}>
            {(control) => <input {...control} readOnly={!canWrite.value} value={form.identifiersRequired} onInput={(event) => setDraft({ ...form, identifiersRequired: event.currentTarget.value })} />}
          </Field>
          {canWrite.value ? (
            <button type="submit" disabled={busy}>
              Save periods
            </button>
          ) : null}
        </form>
      ) : settings.loading ? (
        <Loading what="settings" />
      ) : null}
      <ErrorText error={error} />
      {line}
    </section>
  );
};

export default function RightsRequests() {
  const [status, setStatus] = useState<'' | RequestStatus>('');
  const [type, setType] = useState<'' | RequestType>('');
  const [overdue, setOverdue] = useState(false);
  const [applied, setApplied] = useState({ status: '' as '' | RequestStatus, type: '' as '' | RequestType, overdue: false });
  const { cursor, restart, pager } = usePager();
  const [logging, setLogging] = useState(false);
  const { data, error, loading } = useData(
    () => api.call('listRightsRequests', { query: { limit: 20, status: applied.status || undefined, type: applied.type || undefined, overdue: applied.overdue ? 'true' : undefined, cursor } }),
    [applied, cursor],
  );
  return (
    <>
      <Heading title="Rights requests">Rights requests</Heading>
      <p>Requests of data principals to access, correct, complete, update or erase their data, grievances and nominations, each with the date it must be answered by.</p>
      {canWrite.value ? (
        <p>
          <button type="button" onClick={() => setLogging(true)}>
            Log a request
          </button>
        </p>
      ) : null}
      {logging ? <LogRequest onClose={() => setLogging(false)} /> : null}
      <form
        class="filters"
        role="search"
        aria-label="Rights requests"
        onSubmit={(event) => {
          event.preventDefault();
          restart();
          setApplied({ status, type, overdue });
        }}
      >
        <div class="field">
          <label for="filter-status">Status</label>
          <select id="filter-status" value={status} onChange={(event) => setStatus(event.currentTarget.value as typeof status)}>
            <option value="">All</option>
            {(Object.keys(statusNames) as RequestStatus[]).map((item) => (
              <option key={item} value={item}>
                {statusNames[item]}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-type">Type</label>
          <select id="filter-type" value={type} onChange={(event) => setType(event.currentTarget.value as typeof type)}>
            <option value="">All</option>
            {types.map((item) => (
              <option key={item} value={item}>
                {typeNames[item]}
              </option>
            ))}
          </select>
        </div>
        <label class="check">
          <input type="checkbox" checked={overdue} onChange={(event) => setOverdue(event.currentTarget.checked)} /> Overdue only
        </label>
        <button type="submit">Show</button>
      </form>
      <ErrorText error={error} />
      {loading && !data ? <Loading what="requests" /> : null}
      {data && data.items.length === 0 ? <p>No requests match.</p> : null}
      {data && data.items.length > 0 ? (
        <table>
          <caption class="visually-hidden">Rights requests, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Request</th>
              <th scope="col">Status</th>
              <th scope="col">Received</th>
              <th scope="col">Due</th>
              <th scope="col">Channel</th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((item) => (
              <tr key={item.requestId}>
                <td>
                  <Link to={`/rights/${item.requestId}`}>
                    {typeNames[item.type]} <code>{item.requestId.slice(-8)}</code>
                  </Link>
                </td>
                <td>
                  <StatusBadge status={item.status} />
                </td>
                <td>{formatDate(item.submittedAt ?? item.createdAt)}</td>
                <td>
                  <Due request={item} />
                </td>
                <td>{channelNames[item.channel]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {data ? pager(data.nextCursor) : null}
      <Settings />
    </>
  );
}
