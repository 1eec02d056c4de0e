import { useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { api, canAudit } from '../session';
import { ErrorText, formatNumber } from '../ui';
import { saveFile } from './files';

/** Records a page asks for: a page is one request, and a tenant makes at most 100 a minute. */
const pageSize = 2000;
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const wait = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

interface Progress {
  done: number;
  /** What the day counters hold for the range (0 while they have not counted yet). */
  total: number;
  waiting?: number;
}

/**
 * "Export records": the tenant's records created in a date range, as JSON lines or CSV. The API
 * answers one page at a time (the export never sits whole in a server's memory); this asks page
 * after page, shows how far it got, waits out the rate limit when it is reached, and saves the
 * pages as one file. Each page is kept as a Blob, which the browser may hold on disk.
 */
export const RecordsExport = () => {
  const [from, setFrom] = useState(daysAgo(30));
  const [to, setTo] = useState(today());
  const [format, setFormat] = useState<'jsonl' | 'csv'>('csv');
  const [progress, setProgress] = useState<Progress>();
  const [said, setSaid] = useState('');
  const [error, setError] = useState<unknown>();
  const cancelled = useRef(false);
  if (!canAudit.value) return null;
  const running = progress !== undefined;
  const fields = error instanceof ApiError ? error.fields : {};

  const exportRecords = async (event: Event) => {
    event.preventDefault();
    cancelled.current = false;
    setError(undefined);
    setSaid('');
    const parts: Blob[] = [];
    let state: Progress = { done: 0, total: 0 };
    setProgress(state);
    try {
      let cursor: string | undefined;
      do {
        let response: Response;
        try {
          response = await api.file('exportConsentRecords', { query: { from, to, format, limit: pageSize, cursor } });
        } catch (failure) {
          if (!(failure instanceof ApiError) || failure.status !== 429) throw failure;
          setProgress((state = { ...state, waiting: failure.retryAfter ?? 30 }));
          await wait(failure.retryAfter ?? 30);
          setProgress((state = { ...state, waiting: undefined }));
          continue;
        }
        parts.push(await response.blob());
        const total = response.headers.get('X-Export-Total');
        state = { done: state.done + Number(response.headers.get('X-Export-Records') ?? 0), total: total === null ? state.total : Number(total) };
        setProgress(state);
        cursor = response.headers.get('X-Next-Cursor') ?? undefined;
      } while (cursor && !cancelled.current);
      if (cancelled.current) {
        setSaid(`Stopped after ${formatNumber(state.done)} records; nothing was saved.`);
        return;
      }
      const file = `consent-records-${from}-to-${to}.${format}`;
      saveFile(file, new Blob(parts, { type: format === 'csv' ? 'text/csv' : 'application/x-ndjson' }));
      setSaid(`Saved ${file}: ${formatNumber(state.done)} records.`);
    } catch (failure) {
      setError(failure);
    } finally {
      setProgress(undefined);
    }
  };

  const described = (field: string) => (fields[field] ? { 'aria-invalid': true as const, 'aria-describedby': `export-${field}-problem` } : {});
  const problem = (field: string) =>
    fields[field] ? (
      <span class="hint error" id={`export-${field}-problem`}>
        {fields[field]}
      </span>
    ) : null;

  return (
    <section aria-labelledby="export-heading" class="panel">
      <h2 id="export-heading">Export records</h2>
      <p>Every consent record created on these days (UTC), with its proof hash, for your own archive. Large ranges take a while: the file is saved when the last page arrives.</p>
      <form class="filters" onSubmit={exportRecords} aria-describedby="export-said">
        <div class="field">
          <label for="export-from">From</label>
          <input id="export-from" type="date" required value={from} max={to} onInput={(event) => setFrom(event.currentTarget.value)} {...described('from')} />
          {problem('from')}
        </div>
        <div class="field">
          <label for="export-to">To</label>
          <input id="export-to" type="date" required value={to} min={from} onInput={(event) => setTo(event.currentTarget.value)} {...described('to')} />
          {problem('to')}
        </div>
        <div class="field">
          <label for="export-format">Format</label>
          <select id="export-format" value={format} onChange={(event) => setFormat(event.currentTarget.value as 'jsonl' | 'csv')}>
            <option value="csv">CSV (spreadsheets)</option>
            <option value="jsonl">JSON lines</option>
          </select>
        </div>
        <button type="submit" disabled={running}>
          Export records
        </button>
        {running ? (
          <button type="button" class="secondary" onClick={() => (cancelled.current = true)}>
            Stop
          </button>
        ) : null}
      </form>
      {running ? (
        <div class="export-progress">
          <label for="export-progress">Exported so far</label>
          <progress id="export-progress" max={progress.total > progress.done ? progress.total : undefined} value={progress.total > progress.done ? progress.done : undefined} />
        </div>
      ) : null}
      <p id="export-said" role="status" class="muted">
        {running
          ? progress.waiting
            ? `Waiting ${progress.waiting} s for the rate limit… (${formatNumber(progress.done)} records so far)`
            : `${formatNumber(progress.done)}${progress.total > progress.done ? ` of about ${formatNumber(progress.total)}` : ''} records exported…`
          : said}
      </p>
      <ErrorText error={error} />
    </section>
  );
};
