import { useState } from 'preact/hooks';
import { api, canWrite } from '../session';
import { navigate } from '../router';
import { ErrorText, Heading, Link, Loading, formatDate, formatNumber, useData } from '../ui';
import { StatusBadge } from './notice-status';

/** Every notice with its status, version and consent count; ARCHIVED ones on request. */
export default function Notices() {
  const [archived, setArchived] = useState(false);
  const notices = useData(() => api.call('listNotices', { query: { includeArchived: archived ? 'true' : 'false' } }), [archived]);
  return (
    <>
      <Heading title="Notices">Notices</Heading>
      <p>The notice tells people what you collect and why before they consent. Draft it, translate it, then publish it: the widget shows the published one.</p>
      {canWrite.value ? (
        <p>
          <button type="button" onClick={() => navigate('/notices/new')}>
            New notice
          </button>
        </p>
      ) : null}
      <div class="field inline">
        <input type="checkbox" id="show-archived" checked={archived} onChange={(event) => setArchived(event.currentTarget.checked)} />
        <label for="show-archived">Show archived notices</label>
      </div>
      <ErrorText error={notices.error} />
      {notices.loading && !notices.data ? <Loading what="notices" /> : null}
      {notices.data && notices.data.length === 0 ? <p>No notices yet.</p> : null}
      {notices.data && notices.data.length > 0 ? (
        <table class="notices">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Status</th>
              <th scope="col">Version</th>
              <th scope="col">Consents</th>
              <th scope="col">Last changed</th>
            </tr>
          </thead>
          <tbody>
            {notices.data.map((notice) => (
              <tr key={notice.id}>
                <td>
                  <Link to={`/notices/${notice.id}`}>{notice.title}</Link>
                </td>
                <td>
                  <StatusBadge status={notice.status} />
                </td>
                <td>{notice.versionNumber ?? '—'}</td>
                <td>{formatNumber(notice.consentCount)}</td>
                <td>{formatDate(notice.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
