import { useState } from 'preact/hooks';
import { navigate } from '../router';
import { api, canWrite } from '../session';
import { ErrorText, Heading, Link, Loading, formatDateTime, formatNumber, useData } from '../ui';
import { BreachForm } from './breach-form';
import { ClockBadge, clockText } from './breach-parts';

/**
 * The breach register: every breach with both of Rule 7's clocks (the Board intimation, due
 * without delay, and the detailed report, due 72 hours after awareness), filters, and the form
 * that records a new one.
 */
export default function Breaches() {
  const [status, setStatus] = useState<'' | 'OPEN' | 'CLOSED'>('');
  const [overdue, setOverdue] = useState(false);
  const breaches = useData(() => api.call('listBreaches', { query: { status: status || undefined, overdue: overdue ? 'true' : undefined } }), [status, overdue]);
  const [adding, setAdding] = useState(false);
  const rows = breaches.data ?? [];
  return (
    <>
      <Heading title="Breaches">Breaches</Heading>
      <p>
        Every personal data breach, with no harm threshold: intimate each affected principal and the Data Protection Board without delay, and file the detailed report within 72 hours of
        becoming aware (or by the Board's extension).
      </p>
      {canWrite.value ? (
        <button type="button" onClick={() => setAdding(true)}>
          Record a breach
        </button>
      ) : null}
      {adding ? <BreachForm onClose={() => setAdding(false)} onSaved={(saved) => navigate(`/breaches/${saved.breachId}`)} /> : null}
      <div class="filters">
        <div class="field">
          <label for="breach-status">Status</label>
          <select id="breach-status" value={status} onChange={(event) => setStatus(event.currentTarget.value as typeof status)}>
            <option value="">All</option>
            <option value="OPEN">Open</option>
            <option value="CLOSED">Closed</option>
          </select>
        </div>
        <label class="check">
          <input type="checkbox" checked={overdue} onChange={(event) => setOverdue(event.currentTarget.checked)} /> Only overdue
        </label>
      </div>
      <ErrorText error={breaches.error} />
      {breaches.loading && !breaches.data ? <Loading what="breaches" /> : null}
      {breaches.data && rows.length === 0 ? <p>No breaches recorded.</p> : null}
      {rows.length > 0 ? (
        <table>
          <caption>Breaches, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Breach</th>
              <th scope="col">Aware since</th>
              <th scope="col">Board intimation</th>
              <th scope="col">Detailed report</th>
              <th scope="col">Principals</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((breach) => (
              <tr key={breach.breachId}>
                <th scope="row">
                  <Link to={`/breaches/${breach.breachId}`}>{breach.title}</Link>
                  <span class={`badge ${breach.status === 'OPEN' ? 'partial' : 'active'}`}>{breach.status === 'OPEN' ? 'Open' : 'Closed'}</span>
                </th>
                <td>{formatDateTime(breach.awareAt)}</td>
                <td>
                  {clockText(breach.clocks.boardIntimation, 'INTIMATION')}
                  <ClockBadge clock={breach.clocks.boardIntimation} />
                </td>
                <td>
                  {clockText(breach.clocks.detailedReport, 'DETAILED_REPORT')}
                  <ClockBadge clock={breach.clocks.detailedReport} />
                </td>
                <td>
                  {breach.affectedCount === null ? 'Not resolved yet' : formatNumber(breach.affectedCount)}
                  {breach.intimation.status === 'RUNNING' ? <span class="badge partial">Intimating</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
