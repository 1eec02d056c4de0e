import { useEffect, useState } from 'preact/hooks';
import { api, canWrite } from '../session';
import { ErrorText, Link, Loading, formatDateTime, useData } from '../ui';
import type { ScanRun } from './cookie-data';

export const unfinished = (run: { status: ScanRun['status'] }) => run.status === 'QUEUED' || run.status === 'RUNNING';
const statusClass: Record<ScanRun['status'], string> = { QUEUED: 'partial', RUNNING: 'partial', COMPLETED: 'active', FAILED: 'withdrawn' };
export const StatusBadge = ({ status }: { status: ScanRun['status'] }) => <span class={`badge ${statusClass[status]}`}>{status.charAt(0) + status.slice(1).toLowerCase()}</span>;

/** While a run is queued or running, `reload` every two seconds. */
export const usePolling = (active: boolean, reload: () => void) => {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(reload, 2000);
    return () => clearInterval(timer);
  }, [active]);
};

/** "Scan now" and the runs, newest first; when a run ends the registry is read again (the scanner adds what it found). */
export const ScanRuns = ({ onFinished }: { onFinished: () => void }) => {
  const runs = useData(() => api.call('listCmpScanRuns'));
  const [error, setError] = useState<unknown>();
  const [started, setStarted] = useState(false);
  const [busy, setBusy] = useState(false);
  const running = (runs.data ?? []).some(unfinished);
  usePolling(running, runs.reload);
  useEffect(() => {
    if (!running && started) onFinished();
  }, [running]);
  return (
    <section aria-labelledby="scans-heading">
      <h2 id="scans-heading">Tracker scans</h2>
      <p>A scan visits your scan URLs in a headless browser twice: without consent (anything but Necessary found then is a violation), then with every category granted.</p>
      {canWrite.value ? (
        <p>
          <button
            type="button"
            disabled={busy || running}
            onClick={async () => {
              setBusy(true);
              setError(undefined);
              try {
                await api.call('startCmpScan');
                setStarted(true);
                runs.reload();
              } catch (failure) {
                // 409 (a run is going), 429 (too soon) and 400 (nothing to scan) say why in the API's words.
                setError(failure);
              } finally {
                setBusy(false);
              }
            }}
          >
            Scan now
          </button>
        </p>
      ) : null}
      <ErrorText error={error ?? runs.error} />
      {running ? (
        <p role="status" class="muted">
          A scan is in progress; this list updates by itself.
        </p>
      ) : null}
      {runs.loading && !runs.data ? <Loading what="scan runs" /> : null}
      {runs.data && runs.data.length === 0 ? <p>No scans yet.</p> : null}
      {runs.data && runs.data.length ? (
        <table class="scan-runs">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Trigger</th>
              <th scope="col">Status</th>
              <th scope="col">Pages</th>
              <th scope="col">Trackers</th>
              <th scope="col">New undeclared</th>
              <th scope="col">Violations</th>
              <th scope="col">Report</th>
            </tr>
          </thead>
          <tbody>
            {runs.data.map((run) => (
              <tr key={run.scanRunId} class={run.violations > 0 ? 'violation' : undefined}>
                <td>{formatDateTime(run.createdAt)}</td>
                <td>{run.trigger === 'MANUAL' ? 'Manual' : 'Scheduled'}</td>
                <td>
                  <StatusBadge status={run.status} />
                  {run.error ? <span class="hint">{run.error}</span> : null}
                </td>
                <td>{run.pagesScanned}</td>
                <td>{run.trackersFound}</td>
                <td>{run.newUndeclared}</td>
                <td>{run.violations > 0 ? <strong class="error">{run.violations}</strong> : run.violations}</td>
                <td>
                  <Link to={`/cookie-consent/scans/${run.scanRunId}`}>
                    View report<span class="visually-hidden"> of the scan started {formatDateTime(run.createdAt)}</span>
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
};
