import { clock, dayMs } from '../clock';
import { openCursor, sealCursor } from '../crypto/cursor';
import { ValidationError } from '../errors';
import { dayCounterNames, queryUpcoming, readDayCounts, type EntryState, type UpcomingEntry } from './store';

/** The longest range a listing or a summary may span. */
export const maxRangeDays = 366;
/** Queries one page may send at most (a sparse state filter reads what it skips). */
const maxQueriesPerPage = 20;

/** from..to as given, or the next 30 days from now; from after to, or a span over maxRangeDays, is 400 naming the field. */
export const rangeOf = (query: { from?: string; to?: string }) => {
  const from = query.from ? new Date(query.from) : clock.now();
  const to = query.to ? new Date(query.to) : new Date(from.getTime() + 30 * dayMs);
  if (from.getTime() > to.getTime()) throw new ValidationError({ to: 'must not be before from' });
  if (to.getTime() - from.getTime() > maxRangeDays * dayMs) throw new ValidationError({ to: `at most ${maxRangeDays} days after from` });
  return { from: from.toISOString(), to: to.toISOString() };
};

/** The months (YYYY-MM) from..to touches: the upcoming list's partitions. */
export const monthsOf = (from: string, to: string): string[] => {
  const months: string[] = [];
  for (let month = new Date(`${from.slice(0, 7)}-01T00:00:00.000Z`); month.toISOString().slice(0, 7) <= to.slice(0, 7); month.setUTCMonth(month.getUTCMonth() + 1)) months.push(month.toISOString().slice(0, 7));
  return months;
};

interface Position {
  month: string;
  key?: Record<string, unknown>;
}

type UpcomingQuery = { from?: string; to?: string; state?: EntryState; cursor?: string; page?: number; limit: number };

/** One page from `start` on: month partition by month, each Query asking for no more than still wanted. */
const pageFrom = async (tenantId: string, range: { from: string; to: string }, state: EntryState | undefined, limit: number, start: Position | undefined) => {
  const months = monthsOf(range.from, range.to);
  let index = start ? months.indexOf(start.month) : 0;
  let key = start?.key;
  const items: UpcomingEntry[] = [];
  for (let queries = 0; index >= 0 && index < months.length && items.length < limit && queries < maxQueriesPerPage; queries += 1) {
    const page = await queryUpcoming(tenantId, months[index]!, range.from, range.to, state, limit - items.length, key);
    items.push(...page.entries);
    key = page.lastKey;
    if (!key) index += 1;
  }
  return { items, next: index >= 0 && index < months.length ? ({ month: months[index]!, ...(key ? { key } : {}) } as Position) : null };
};

/**
 * GET /retention/upcoming: the tenant's principals whose erasure is due from..to, by due time,
 * with what became of each (SCHEDULED, NOTICE_SENT, CANCELLED, EXPIRED). `cursor` (the previous
 * page's nextCursor) reads only the next page; `page` N walks N - 1 pages first.
 */
export const listUpcoming = async (tenantId: string, query: UpcomingQuery) => {
  if (query.cursor && query.page) throw new ValidationError({ cursor: 'send cursor or page, not both' });
  const range = rangeOf(query);
  const context = ['retention-upcoming', tenantId, range.from, range.to, query.state ?? ''];
  let start: Position | undefined;
  if (query.cursor) {
    const opened = openCursor(context, query.cursor) as Position;
    if (typeof opened?.month !== 'string' || !monthsOf(range.from, range.to).includes(opened.month)) throw new ValidationError({ cursor: 'not a cursor this listing returned' }, 'Invalid cursor');
    start = opened;
  }
  const page = query.page ?? 1;
  for (let skipped = 1; skipped < page; skipped += 1) {
    const skip = await pageFrom(tenantId, range, query.state, query.limit, start);
    if (!skip.next) return { items: [], page, limit: query.limit, nextCursor: null };
    start = skip.next;
  }
  const { items, next } = await pageFrom(tenantId, range, query.state, query.limit, start);
  return { items, page, limit: query.limit, nextCursor: next ? sealCursor(context, next) : null };
};

/** GET /retention/summary: per UTC day of from..to, the day counters the sweep keeps (zeros for a quiet day). */
export const retentionSummary = async (tenantId: string, query: { from?: string; to?: string }) => {
  const range = rangeOf(query);
  const counts = await readDayCounts(tenantId, range.from.slice(0, 10), range.to.slice(0, 10));
  const days = [];
  for (let day = new Date(`${range.from.slice(0, 10)}T00:00:00.000Z`); day.toISOString().slice(0, 10) <= range.to.slice(0, 10); day = new Date(day.getTime() + dayMs)) {
    const date = day.toISOString().slice(0, 10);
    const stored = counts.get(date);
    days.push({ date, ...Object.fromEntries(dayCounterNames.map((name) => [name, Math.max(0, stored?.[name] ?? 0)])) });
  }
  return { days };
};
