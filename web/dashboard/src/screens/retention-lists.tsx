import { useState } from 'preact/hooks';
import type { DataOf } from '../api';
import { api, canWrite } from '../session';
import { Dialog, DialogActions, ErrorText, Loading, formatDate, formatDateTime, formatNumber, useAction, useData } from '../ui';
import { usePager, useSaid } from './parts';

/**
 * The retention lists (issue 34): the days ahead with their erasures, notices and cancellations,
 * each principal due, and the erasure tasks with their data-map assets.
 */

type Upcoming = DataOf<'listRetentionUpcoming'>['items'][number];
type ErasureTask = DataOf<'listRetentionErasures'>['items'][number];
type ErasureAsset = ErasureTask['assets'][number];

const day = 86_400_000;
/** From now to `days` ahead, fixed while its pages are read: a cursor is only good for the range it came from. */
const windowOf = (days: number) => {
  const from = new Date();
  return { days, from: from.toISOString(), to: new Date(from.getTime() + days * day).toISOString() };
};

const stateLabels: Record<Upcoming['state'], string> = { SCHEDULED: 'Scheduled', NOTICE_SENT: 'Notice sent', CANCELLED: 'Cancelled by her activity', EXPIRED: 'Consent lapsed' };

/** Purposes by name where the screen knows them. */
export type PurposeNames = ReadonlyMap<string, string>;
const namesOf = (ids: readonly string[], names: PurposeNames) => ids.map((id) => names.get(id) ?? id).join(', ');

export const Upcoming = ({ names }: { names: PurposeNames }) => {
  const [range, setRange] = useState(() => windowOf(30));
  const { cursor, restart, pager } = usePager();
  const summary = useData(() => api.call('getRetentionSummary', { query: { from: range.from, to: range.to } }), [range]);
  const upcoming = useData(() => api.call('listRetentionUpcoming', { query: { from: range.from, to: range.to, limit: 20, cursor } }), [range, cursor]);
  return (
    <section aria-labelledby="upcoming-heading">
      <h2 id="upcoming-heading">Upcoming erasures</h2>
      <label>
        Days ahead{' '}
        <select
          value={range.days}
          onChange={(event) => {
            setRange(windowOf(Number(event.currentTarget.value)));
            restart();
          }}
        >
          {[7, 30, 90, 365].map((value) => (
            <option key={value} value={value}>{`${value} days`}</option>
          ))}
        </select>
      </label>
      {summary.loading ? <Loading what="the days ahead" /> : null}
      <ErrorText error={summary.error} />
      {summary.data ? (
        summary.data.days.length === 0 ? (
          <p class="muted">Nothing falls due in these days.</p>
        ) : (
          <table>
            <caption>By day: erasures due, notices sent, erasures cancelled by the principal's activity, consent lapsed</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Due</th>
                <th scope="col">Notices sent</th>
                <th scope="col">Cancelled by activity</th>
                <th scope="col">Lapsed</th>
              </tr>
            </thead>
            <tbody>
              {summary.data.days.map((entry) => (
                <tr key={entry.date}>
                  <td>{formatDate(entry.date)}</td>
                  <td>{formatNumber(entry.due)}</td>
                  <td>{formatNumber(entry.noticesSent)}</td>
                  <td>{formatNumber(entry.cancelled)}</td>
                  <td>{formatNumber(entry.expired)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      {upcoming.loading ? <Loading what="the principals due" /> : null}
      <ErrorText error={upcoming.error} />
      {upcoming.data && upcoming.data.items.length === 0 && !cursor ? <p class="muted">No principal is due in these days.</p> : null}
      {upcoming.data && (upcoming.data.items.length > 0 || cursor) ? (
        <>
          <table>
            <caption>Principals due, soonest first</caption>
            <thead>
              <tr>
                <th scope="col">Principal (hash)</th>
                <th scope="col">Purposes</th>
                <th scope="col">Due</th>
                <th scope="col">Notice sent</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {upcoming.data.items.map((item) => (
                <tr key={`${item.identifierHash}-${item.dueAt}`}>
                  <td>
                    <code>{item.identifierHash.slice(0, 12)}…</code>
                  </td>
                  <td>{namesOf(item.purposeIds, names)}</td>
                  <td>{formatDateTime(item.dueAt)}</td>
                  <td>{item.noticeSentAt ? formatDateTime(item.noticeSentAt) : '—'}</td>
                  <td>{stateLabels[item.state]}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {pager(upcoming.data.nextCursor)}
        </>
      ) : null}
    </section>
  );
};

const ResolveForm = ({ task, asset, onDone, onCancel }: { task: ErasureTask; asset: ErasureAsset; onDone: () => void; onCancel: () => void }) => {
  const [note, setNote] = useState('');
  const { busy, error, run } = useAction({ staysBusy: true });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void run(async () => {
          await api.call('resolveRetentionErasureAsset', { params: { id: task.id, assetId: asset.assetId }, body: note.trim() ? { note: note.trim() } : {} });
          onDone();
        });
      }}
    >
      <div class="field">
        <label for="resolve-note">Note (optional): what was erased, and how</label>
        <textarea id="resolve-note" rows={3} value={note} onInput={(event) => setNote(event.currentTarget.value)} />
      </div>
      <ErrorText error={error} />
      <DialogActions submit="Mark erased" busy={busy} onCancel={onCancel} />
    </form>
  );
};

export const Erasures = ({ names }: { names: PurposeNames }) => {
  const [state, setState] = useState<ErasureTask['state']>('OPEN');
  const [page, setPage] = useState(1);
  const loaded = useData(() => api.call('listRetentionErasures', { query: { state, page } }), [state, page]);
  const pages = loaded.data ? Math.ceil(loaded.data.total / loaded.data.limit) : 1;
  const [resolving, setResolving] = useState<{ task: ErasureTask; asset: ErasureAsset }>();
  const { say, line } = useSaid();
  return (
    <section aria-labelledby="erasures-heading">
      <h2 id="erasures-heading">Erasure tasks</h2>
      <p class="hint">Each run of lapsed consent lists the data-map assets that hold those purposes' data: mark each one erased once its system has erased it.</p>
      <label>
        Tasks{' '}
        <select
          value={state}
          onChange={(event) => {
            setState(event.currentTarget.value as ErasureTask['state']);
            setPage(1);
          }}
        >
          <option value="OPEN">Open</option>
          <option value="RESOLVED">Resolved</option>
        </select>
      </label>
      {loaded.loading ? <Loading what="the erasure tasks" /> : null}
      <ErrorText error={loaded.error} />
      {line}
      {loaded.data?.items.length === 0 ? <p class="muted">{state === 'OPEN' ? 'No open erasure task.' : 'No resolved erasure task yet.'}</p> : null}
      {loaded.data?.items.map((task) => (
        <article key={task.id} aria-labelledby={`task-${task.id}`}>
          <h3 id={`task-${task.id}`}>{`${formatDateTime(task.createdAt)}: ${formatNumber(task.principalCount)} principals, ${namesOf(task.purposeIds, names)}`}</h3>
          <p class="muted">{`Run ${task.runId}${task.resolvedAt ? `, resolved ${formatDateTime(task.resolvedAt)}` : ''}`}</p>
          {task.assets.length === 0 ? (
            <p class="muted">No data-map asset holds these purposes' data.</p>
          ) : (
            <ul>
              {task.assets.map((asset) => (
                <li key={asset.assetId}>
                  {asset.name}
                  {asset.system ? ` (${asset.system})` : ''}:{' '}
                  {asset.resolved ? (
                    `erased${asset.resolvedAt ? ` ${formatDateTime(asset.resolvedAt)}` : ''}${asset.resolvedBy ? ` by ${asset.resolvedBy}` : ''}${asset.note ? `: ${asset.note}` : ''}`
                  ) : canWrite.value ? (
                    <button type="button" class="secondary" onClick={() => setResolving({ task, asset })}>
                      Mark erased<span class="visually-hidden">{` ${asset.name}`}</span>
                    </button>
                  ) : (
                    'not yet erased'
                  )}
                </li>
              ))}
            </ul>
          )}
        </article>
      ))}
      {pages > 1 ? (
        <div class="pager">
          <button type="button" class="secondary" disabled={page < 2} onClick={() => setPage(page - 1)}>
            Previous page
          </button>
          <span>{`Page ${page} of ${pages}`}</span>
          <button type="button" class="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next page
          </button>
        </div>
      ) : null}
      {resolving ? (
        <Dialog title={`Mark ${resolving.asset.name} erased`} onClose={() => setResolving(undefined)}>
          <ResolveForm
            task={resolving.task}
            asset={resolving.asset}
            onCancel={() => setResolving(undefined)}
            onDone={() => {
              setResolving(undefined);
              loaded.reload();
              say(`${resolving.asset.name} marked erased.`);
            }}
          />
        </Dialog>
      ) : null}
    </section>
  );
};
