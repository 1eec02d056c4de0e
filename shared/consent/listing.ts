import { openCursor, sealCursor } from '../crypto/cursor';
import { ValidationError } from '../errors';
import type { DerivedStatus } from './keys';
import { currentVersions, listItemView } from './lookups';
import { principalHash } from './principal';
import { derivedStatus, type ConsentRecord } from './record';
import { readMerged } from './record-ranges';
import { activeRecords, countedRecords, principalRecords, queryRecords, readStats, recordRanges, type ConsentStats, type RecordRange } from './store';

export interface ListQuery {
  page: number;
  limit: number;
  search?: string;
  status?: DerivedStatus;
  sortBy: 'createdAt' | 'withdrawnAt';
  sortOrder: 'asc' | 'desc';
  cursor?: string;
}

/**
 * One range of records with its exact size, from the counters: a range of an index (the sparse
 * status and withdrawal indexes), or the creation order across the record shards (record-ranges.ts),
 * optionally filtered.
 */
interface Segment {
  source: { index: RecordRange } | { shards: { filter?: { expression: string; values: Record<string, unknown> } } };
  count: number;
}

/**
 * The ranges a listing reads, in order. Sorting by withdrawnAt: only fully withdrawn records
 * have one (GSI4); the others follow them (descending) or precede them (ascending), partially
 * withdrawn before active, each by creation time.
 */
const segmentsOf = (tenantId: string, query: ListQuery, stats: ConsentStats): Segment[] => {
  const ascending = query.sortOrder === 'asc';
  const byStatus = (status: DerivedStatus): Segment =>
    status === 'active' ? { source: { shards: { filter: activeRecords(tenantId) } }, count: stats.active } : { source: { index: recordRanges.byStatus(tenantId, status, ascending) }, count: stats[status] };
  const withdrawnByTime: Segment = { source: { index: recordRanges.byWithdrawal(tenantId, ascending) }, count: stats.withdrawn };
  if (query.sortBy === 'withdrawnAt') {
    if (query.status === 'withdrawn') return [withdrawnByTime];
    if (query.status) return [byStatus(query.status)];
    const segments = [withdrawnByTime, byStatus('partial'), byStatus('active')];
    return ascending ? segments.reverse() : segments;
  }
  if (query.status) return [byStatus(query.status)];
  return [{ source: { shards: { filter: countedRecords() } }, count: stats.total }];
};

/**
 * Where a listing goes on: a segment, and in it an index's own key (`key`) or, across the shards,
 * the last record returned (`after`). Sealed, so a client can never steer either.
 */
interface Cursor {
  segment: number;
  key?: Record<string, unknown>;
  after?: string;
}

/** A cursor belongs to one tenant's listing in one order and filter: its segments and index keys differ otherwise. */
const cursorContext = (tenantId: string, query: ListQuery) => ['consent-records', tenantId, query.sortBy, query.sortOrder, query.status ?? ''];

const decodeCursor = (tenantId: string, query: ListQuery & { cursor: string }, segments: Segment[]): Cursor => {
  const cursor = openCursor(cursorContext(tenantId, query), query.cursor) as Cursor;
  // Sealed by this service, so only a segment count that changed under it can make this fail.
  if (!Number.isInteger(cursor.segment) || cursor.segment < 0 || cursor.segment > segments.length) {
    throw new ValidationError({ cursor: 'not a cursor this listing returned' }, 'Invalid cursor');
  }
  // A cursor sealed before the shards holds the base table's key of its last record: the same position.
  const legacySortKey = cursor.key?.SK;
  const segment = segments[cursor.segment];
  if (segment && 'shards' in segment.source && typeof legacySortKey === 'string' && legacySortKey.startsWith('RECORD#')) {
    return { segment: cursor.segment, after: legacySortKey.slice('RECORD#'.length) };
  }
  return cursor;
};

/** Up to `want` records of one segment from `position`, and where the segment goes on (undefined: it is done). */
const readSegment = async (tenantId: string, ascending: boolean, segment: Segment, position: Cursor, want: number) => {
  if ('index' in segment.source) {
    const page = await queryRecords(segment.source.index, want, position.key);
    return { records: page.records, next: page.lastKey ? { key: page.lastKey } : undefined };
  }
  const { records, more } = await readMerged(tenantId, { ascending, after: position.after, filter: segment.source.shards.filter, limit: want });
  // readMerged stops short of `want` only at the end, so `more` comes with a last record.
  return { records, next: more && records.length > 0 ? { after: records.at(-1)!.recordId } : undefined };
};

/**
 * Reads `limit` records starting `skip` records into the segments. Whole segments before the
 * page are skipped by their counters at no cost; within a segment, skipping reads the skipped records (DynamoDB
 * has no offset), so page N costs about N × limit reads; the cursor avoids that.
 */
const readSegments = async (tenantId: string, ascending: boolean, segments: Segment[], start: Cursor, skip: number, limit: number) => {
  const records: ConsentRecord[] = [];
  let position: Cursor | undefined = { ...start };
  let toSkip = skip;
  while (position && position.segment < segments.length && records.length < limit) {
    const segment = segments[position.segment]!;
    const started = position.key !== undefined || position.after !== undefined;
    // Counters count a record seconds after it is written, so a segment is skipped by its count
    // only to reach a later page: page 1 and cursors read what is there, however new.
    if (!started && toSkip > 0 && toSkip >= segment.count) {
      toSkip -= segment.count;
      position = { segment: position.segment + 1 };
      continue;
    }
    const want = toSkip > 0 ? Math.min(toSkip, 500) : limit - records.length;
    const page = await readSegment(tenantId, ascending, segment, position, want);
    if (toSkip > 0) toSkip -= page.records.length;
    else records.push(...page.records);
    position = page.next ? { segment: position.segment, ...page.next } : { segment: position.segment + 1 };
    if (!page.next && page.records.length === 0 && toSkip > 0) toSkip = 0;
  }
  const more =
    position !== undefined &&
    position.segment < segments.length &&
    (position.key !== undefined || position.after !== undefined || segments.slice(position.segment).some((segment) => segment.count > 0));
  return { records, next: more ? position : undefined };
};

const sortKeyOf = (record: ConsentRecord, sortBy: ListQuery['sortBy']) =>
  sortBy === 'withdrawnAt' ? `${record.withdrawnAt ?? ''}#${record.createdAt}` : record.createdAt;

/** A search is one principal's records: few enough to filter and sort in memory. */
const searchPrincipal = async (tenantId: string, query: ListQuery & { search: string }) => {
  const matching = (await principalRecords(tenantId, principalHash(query.search)))
    .filter((record) => !query.status || derivedStatus(record) === query.status)
    .sort((a, b) => sortKeyOf(a, query.sortBy).localeCompare(sortKeyOf(b, query.sortBy)) * (query.sortOrder === 'asc' ? 1 : -1));
  const offset = (query.page - 1) * query.limit;
  return { records: matching.slice(offset, offset + query.limit), total: matching.length, nextCursor: null };
};

export const listRecords = async (tenantId: string, query: ListQuery) => {
  let found: { records: ConsentRecord[]; total: number; nextCursor: string | null; countsAsOf: string | null };
  if (query.search) {
    found = { ...(await searchPrincipal(tenantId, { ...query, search: query.search })), countsAsOf: null };
  } else {
    const stats = await readStats(tenantId);
    const segments = segmentsOf(tenantId, query, stats);
    const total = segments.reduce((sum, segment) => sum + segment.count, 0);
    const start = query.cursor ? decodeCursor(tenantId, { ...query, cursor: query.cursor }, segments) : { segment: 0 };
    const skip = query.cursor ? 0 : (query.page - 1) * query.limit;
    const { records, next } = await readSegments(tenantId, query.sortOrder === 'asc', segments, start, skip, query.limit);
    found = { records, total, nextCursor: next ? sealCursor(cursorContext(tenantId, query), next) : null, countsAsOf: stats.asOf };
  }
  const versions = await currentVersions(tenantId, found.records);
  return {
    items: found.records.map((record) => listItemView(record, versions)),
    total: found.total,
    page: query.page,
    limit: query.limit,
    nextCursor: found.nextCursor,
    countsAsOf: found.countsAsOf,
  };
};
