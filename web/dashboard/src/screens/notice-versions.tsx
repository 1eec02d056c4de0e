import { useState } from 'preact/hooks';
import { api } from '../session';
import type { DataOf } from '../api';
import { ErrorText, Heading, Loading, formatDateTime, useData } from '../ui';
import { DiffTable, MaterialWarning, purposeNamesOf } from './notice-diff';
import { NoticeTabs } from './notice-status';

type Version = DataOf<'listNoticeVersions'>[number];

const VersionSelect = ({ id, label, value, versions, onChange }: { id: string; label: string; value: number; versions: Version[]; onChange: (value: number) => void }) => (
  <div class="field">
    <label for={id}>{label}</label>
    <select id={id} value={value} onChange={(event) => onChange(Number(event.currentTarget.value))}>
      {versions.map((version) => (
        <option key={version.versionNumber} value={version.versionNumber}>
          Version {version.versionNumber}
        </option>
      ))}
    </select>
  </div>
);

/** Any two versions compared by the API (from must be the older one). */
const Compare = ({ id, versions }: { id: string; versions: Version[] }) => {
  const [from, setFrom] = useState(versions[1]!.versionNumber);
  const [to, setTo] = useState(versions[0]!.versionNumber);
  const [diff, setDiff] = useState<DataOf<'diffNoticeVersions'>>();
  const [error, setError] = useState<unknown>();
  const names = purposeNamesOf(...versions.map((version) => version.purposes));
  return (
    <section aria-labelledby="compare-heading" class="panel">
      <h2 id="compare-heading">Compare two versions</h2>
      <form
        class="inline-form"
        onSubmit={async (event) => {
          event.preventDefault();
          setError(undefined);
          setDiff(undefined);
          try {
            setDiff(await api.call('diffNoticeVersions', { params: { id }, query: { from, to } }));
          } catch (failure) {
            // "from must be lower than to" and the like: the API's words, the choice kept.
            setError(failure);
          }
        }}
      >
        <VersionSelect id="diff-from" label="From version" value={from} versions={versions} onChange={setFrom} />
        <VersionSelect id="diff-to" label="To version" value={to} versions={versions} onChange={setTo} />
        <button type="submit" class="secondary">
          Compare
        </button>
      </form>
      <ErrorText error={error} />
      {diff ? (
        <div role="status">
          {diff.hasMaterialChange ? <MaterialWarning /> : <p>No material change between version {diff.from} and version {diff.to}.</p>}
          <DiffTable changes={diff.changes} purposeNames={names} caption={`${diff.totalChanges} changes from version ${diff.from} to version ${diff.to}`} />
        </div>
      ) : null}
    </section>
  );
};

/** The lineage's published versions, newest first, and a diff of any two. */
export default function NoticeVersions({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const versions = useData(() => api.call('listNoticeVersions', { params: { id } }), [id]);
  const list = versions.data ?? [];
  return (
    <>
      <Heading title="Notice versions">Notice versions</Heading>
      <NoticeTabs id={id} />
      <ErrorText error={versions.error} />
      {versions.loading && !versions.data ? <Loading what="versions" /> : null}
      {versions.data && list.length === 0 ? <p>Not published yet: a version is made by each publish.</p> : null}
      {list.length > 0 ? (
        <table class="versions">
          <caption class="visually-hidden">Published versions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Title</th>
              <th scope="col">Published</th>
              <th scope="col">Purposes</th>
              <th scope="col">Change note</th>
            </tr>
          </thead>
          <tbody>
            {list.map((version) => (
              <tr key={version.versionNumber}>
                <td>{version.versionNumber}</td>
                <td>{version.title}</td>
                <td>{formatDateTime(version.publishedAt)}</td>
                <td>{version.purposes.map((purpose) => purpose.name).join(', ')}</td>
                <td>{version.changeNote ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {list.length > 1 ? <Compare id={id} versions={list} /> : null}
    </>
  );
}
