import type { DataOf } from '../api';
import { formatDate, formatDateTime } from '../ui';

type Summary = DataOf<'getRightsRequestSummary'>;

const names = (items: { name: string }[]) => items.map((item) => item.name).join(', ') || '—';

/** The s.11 summary as the principal will get it: consent records, uses of the data and where it is held, who it is shared with, nominees. */
export const SummaryView = ({ summary }: { summary: Summary }) => (
  <div class="summary">
    <p class="muted">As at {formatDateTime(summary.generatedAt)}; contact on the answer: {summary.dpoContact ?? 'none set'}.</p>
    <h3>Consent records</h3>
    {summary.records.length === 0 ? (
      <p>No consent records for this principal.</p>
    ) : (
      <table>
        <thead>
          <tr>
            <th scope="col">Notice</th>
            <th scope="col">Given</th>
            <th scope="col">Purposes granted</th>
            <th scope="col">Withdrawn</th>
          </tr>
        </thead>
        <tbody>
          {summary.records.map((record) => (
            <tr key={record.consentRecordId}>
              <td>
                {record.noticeTitle} <span class="muted">v{record.noticeVersion}, {record.language}</span>
              </td>
              <td>{formatDate(record.givenAt)}</td>
              <td>{names(record.purposesGranted)}</td>
              <td>{record.purposesWithdrawn.length > 0 ? `${names(record.purposesWithdrawn)}${record.withdrawnAt ? ` (${formatDate(record.withdrawnAt)})` : ''}` : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
    <h3>Uses and where the data is held</h3>
    {summary.purposes.length === 0 ? (
      <p>None.</p>
    ) : (
      <ul>
        {summary.purposes.map((purpose) => (
          <li key={purpose.purposeId}>
            <strong>{purpose.name}</strong>: {purpose.dataCategories.join(', ')}; held in {purpose.assets.map((asset) => `${asset.name} (${asset.system || asset.location})`).join(', ') || 'no asset of the data map'}
          </li>
        ))}
      </ul>
    )}
    <h3>Shared with</h3>
    {summary.sharedWith.length === 0 ? (
      <p>Nobody (disclosures to authorities under s.11(2) are never listed).</p>
    ) : (
      <ul>
        {summary.sharedWith.map((recipient) => (
          <li key={recipient.processorId}>
            <strong>{recipient.name}</strong> ({recipient.role === 'PROCESSOR' ? 'processor' : 'fiduciary'}, {recipient.country}): {recipient.dataCategories.join(', ')}
          </li>
        ))}
      </ul>
    )}
    <h3>Nominees</h3>
    {summary.nominees.length === 0 ? <p>None.</p> : <ul>{summary.nominees.map((nominee) => <li key={nominee.nominatedAt}>{`${nominee.name} (${nominee.relationship}), ${formatDate(nominee.nominatedAt)}`}</li>)}</ul>}
  </div>
);
