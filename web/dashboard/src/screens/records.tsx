import { useState } from 'preact/hooks';
import { api } from '../session';
import type { DataOf } from '../api';
import { ErrorText, Heading, Link, Loading, fieldErrors, formatDateTime, formatNumber, useData } from '../ui';
import { EvidenceExport } from './evidence-export';
import { RecordsExport } from './records-export';
import { usePager } from './parts';

type Item = DataOf<'listConsentRecords'>['items'][number];
type Status = '' | 'active' | 'partial' | 'withdrawn';
type Sort = 'createdAt:desc' | 'createdAt:asc' | 'withdrawnAt:desc';

const statusOf = (item: Item) => (item.isWithdrawn ? 'Withdrawn' : item.isPartiallyWithdrawn ? 'Partially withdrawn' : 'Active');
/** A record given under an older version of its notice than the one now published. */
const isStale = (item: Item) => item.noticeVersionNumber < item.currentNoticeVersion;

export default function Records() {
  // The form's fields (kept as typed) and the filters in force (applied on submit).
  const [status, setStatus] = useState<Status>('');
  const [sort, setSort] = useState<Sort>('createdAt:desc');
  const [email, setEmail] = useState('');
  const [applied, setApplied] = useState({ status: '' as Status, sort: 'createdAt:desc' as Sort, email: '' });
  const { cursor, restart, pager } = usePager();
  const { data, error, loading } = useData(() => {
    const [sortBy, sortOrder] = applied.sort.split(':') as ['createdAt' | 'withdrawnAt', 'asc' | 'desc'];
    return api.call('listConsentRecords', {
      // The API takes the full email and matches its SHA-256 (the stored principal hash); it keeps no email.
      query: { limit: 20, sortBy, sortOrder, status: applied.status || undefined, search: applied.email || undefined, cursor },
    });
  }, [applied, cursor]);
  const problems = fieldErrors(error);

  return (
    <>
      <Heading title="Consent records">Consent records</Heading>
      <form
        class="filters"
        role="search"
        aria-label="Consent records"
        onSubmit={(event) => {
          event.preventDefault();
          restart();
          setApplied({ status, sort, email: email.trim() });
        }}
      >
        <div class="field">
          <label for="filter-status">Status</label>
          <select id="filter-status" value={status} onChange={(event) => setStatus(event.currentTarget.value as Status)}>
            <option value="">All</option>
            <option value="active">Active</option>
            <option value="partial">Partially withdrawn</option>
            <option value="withdrawn">Withdrawn</option>
          </select>
        </div>
        <div class="field">
          <label for="filter-sort">Sort</label>
          <select id="filter-sort" value={sort} onChange={(event) => setSort(event.currentTarget.value as Sort)}>
            <option value="createdAt:desc">Newest first</option>
            <option value="createdAt:asc">Oldest first</option>
            <option value="withdrawnAt:desc">Recently withdrawn</option>
          </select>
        </div>
        <div class="field">
          <label for="filter-email">Principal's email</label>
          <input
            id="filter-email"
            type="email"
            value={email}
            aria-describedby="filter-email-hint"
            aria-invalid={problems.search ? true : undefined}
            onInput={(event) => setEmail(event.currentTarget.value)}
          />
          <span id="filter-email-hint" class="hint">
            A full address; the service looks up its SHA-256 hash.
          </span>
        </div>
        <button type="submit">Search</button>
      </form>
      <ErrorText error={error} />
      {loading && !data ? <Loading what="records" /> : null}
      {data ? (
        <>
          <p role="status" class="muted">
            {applied.email ? `${formatNumber(data.total)} record(s) for that email.` : `${formatNumber(data.total)} record(s) in all.`}
          </p>
          {applied.email && data.total > 0 ? <EvidenceExport id="principal-pack" principal={{ dataPrincipalIdentifier: applied.email }} /> : null}
          {data.items.length === 0 ? (
            <p>No records match.</p>
          ) : (
            <table class="records">
              <caption class="visually-hidden">Consent records, {applied.sort === 'createdAt:asc' ? 'oldest' : 'newest'} first</caption>
              <thead>
                <tr>
                  <th scope="col">Record</th>
                  <th scope="col">Notice</th>
                  <th scope="col">Status</th>
                  <th scope="col">Given</th>
                  <th scope="col">Principal hash</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((item) => (
                  <tr key={item.id}>
                    <td>
                      <Link to={`/records/${item.id}`}>
                        <span class="visually-hidden">Record </span>
                        <code>{item.id.slice(0, 8)}</code>
                      </Link>
                    </td>
                    <td>
                      {item.noticeTitle} <span class="muted">v{item.noticeVersionNumber}</span>
                      {isStale(item) ? (
                        <span class="badge stale" title={`Given under version ${item.noticeVersionNumber}; version ${item.currentNoticeVersion} is now published`}>
                          Stale: older notice version
                        </span>
                      ) : null}
                    </td>
                    <td>
                      <span class={`badge ${item.isWithdrawn ? 'withdrawn' : item.isPartiallyWithdrawn ? 'partial' : 'active'}`}>{statusOf(item)}</span>
                      {item.guardianVerification ? <span class="badge"> Approved by the parent or guardian</span> : null}
                    </td>
                    <td>{formatDateTime(item.createdAt)}</td>
                    <td>
                      <code>{item.dataPrincipalHash.slice(0, 12)}…</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {pager(data.nextCursor)}
        </>
      ) : null}
      <RecordsExport />
    </>
  );
}
