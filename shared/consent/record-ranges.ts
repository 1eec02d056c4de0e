import { QueryCommand } from '../db/commands';
import { db, tableName } from '../db/client';
import { timeOrderedIdPrefix } from '../ids';
import { consentKeys } from './keys';
import type { ConsentRecord } from './record';
import { recordOf } from './record-item';

/**
 * Reading a tenant's records across its record partitions (keys.ts: sixteen shards, plus the
 * tenant's own partition for records from before the shards). Every partition holds its records
 * under the same sort key, `RECORD#<UUIDv7>`, so the merge of the partitions by sort key is the
 * tenant's records in creation order: `readMerged` queries them in parallel and merges, fetching
 * more from a partition only when its next record may be the next one out. Cost: one Query per
 * partition (at least ½ read unit each, eventually consistent) plus what is read; a page of 20 is
 * about 17 queries of ~3 records, where one partition would be one query of 20.
 */

const prefix = consentKeys.recordPrefix;
const sortKeyOf = (recordId: string) => `${prefix}${recordId}`;
/** The greatest sort key below `key` that a record id can have (ids are fixed-length): an inclusive bound for "before". */
const justBefore = (key: string) => `${key.slice(0, -1)}${String.fromCharCode(key.charCodeAt(key.length - 1) - 1)}~`;
/** '~' sorts after every hex digit and '-': the last id of a millisecond is below `RECORD#<prefix>~`. */
const lastKey = `${prefix}~`;

export interface MergedRead {
  ascending: boolean;
  /** Only records created in [from, to] (by their UUIDv7 ids, which begin with the creation time). */
  from?: Date;
  to?: Date;
  /** Only records after this one, in the read's order (a cursor's position). */
  after?: string;
  /** A filter on the items (e.g. records without a withdrawal): read, then left out. */
  filter?: { expression: string; values: Record<string, unknown> };
  limit: number;
}

interface Source {
  partitionKey: string;
  buffer: ConsentRecord[];
  startKey?: Record<string, unknown>;
  done: boolean;
}

/** The sort-key range a read covers, inclusive at both ends; undefined when it is empty. */
const rangeOf = (read: MergedRead): { low: string; high: string } | undefined => {
  let low = read.from ? `${prefix}${timeOrderedIdPrefix(read.from)}` : prefix;
  let high = read.to ? `${prefix}${timeOrderedIdPrefix(read.to)}~` : lastKey;
  if (read.after !== undefined && read.ascending) low = [low, `${sortKeyOf(read.after)}#`].sort().at(-1)!;
  if (read.after !== undefined && !read.ascending) high = [high, justBefore(sortKeyOf(read.after))].sort()[0]!;
  return low <= high ? { low, high } : undefined;
};

const fetchInto = async (source: Source, range: { low: string; high: string }, read: MergedRead, limit: number) => {
  const { Items = [], LastEvaluatedKey } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
      ...(read.filter ? { FilterExpression: read.filter.expression } : {}),
      ExpressionAttributeValues: { ':pk': source.partitionKey, ':low': range.low, ':high': range.high, ...read.filter?.values },
      ScanIndexForward: read.ascending,
      Limit: limit,
      ExclusiveStartKey: source.startKey,
    }),
  );
  source.buffer.push(...Items.map(recordOf));
  source.startKey = LastEvaluatedKey;
  source.done = !LastEvaluatedKey;
};

/**
 * Up to `limit` of a tenant's records in creation order (ascending or descending), across every
 * record partition, and whether any may follow. A partition whose buffer runs dry is read again
 * before the merge goes on (its next record could come first), for as many as are still wanted.
 */
export const readMerged = async (tenantId: string, read: MergedRead): Promise<{ records: ConsentRecord[]; more: boolean }> => {
  const range = rangeOf(read);
  if (!range || read.limit <= 0) return { records: [], more: false };
  const sources: Source[] = consentKeys.recordPartitions(tenantId).map((partitionKey) => ({ partitionKey, buffer: [], done: false }));
  const records: ConsentRecord[] = [];
  let fetchSize = Math.ceil(read.limit / sources.length) + 2;
  for (;;) {
    const wanted = read.limit - records.length;
    if (wanted === 0) break;
    const dry = sources.filter((source) => source.buffer.length === 0 && !source.done);
    if (dry.length > 0) {
      await Promise.all(dry.map((source) => fetchInto(source, range, read, Math.max(fetchSize, 1))));
      // Only a partition that keeps running dry is read again, and then for all that is still wanted.
      fetchSize = wanted + 1;
      continue;
    }
    const candidates = sources.filter((source) => source.buffer.length > 0);
    if (candidates.length === 0) break;
    const next = candidates.reduce((best, source) => {
      const before = source.buffer[0]!.recordId < best.buffer[0]!.recordId;
      return before === read.ascending ? source : best;
    });
    records.push(next.buffer.shift()!);
  }
  return { records, more: sources.some((source) => source.buffer.length > 0 || !source.done) };
};

/**
 * A position in a tenant's records read partition by partition, in no particular order: for work
 * that must reach every record once and does not care in which order (a breach's intimation).
 * Opaque to callers. A bare `{ PK, SK }` key (what the unsharded store returned) continues in the
 * tenant's own partition, where every record was then, so a run started before the shards goes on.
 */
export interface PartitionCursor {
  partition: number;
  key?: Record<string, unknown>;
}

const cursorOf = (tenantId: string, start: Record<string, unknown> | undefined): PartitionCursor => {
  if (!start) return { partition: 0 };
  if (typeof start.PK === 'string' && typeof start.SK === 'string') {
    return { partition: consentKeys.recordPartitions(tenantId).indexOf(start.PK), key: start };
  }
  return { partition: Number(start.partition), ...(start.key ? { key: start.key as Record<string, unknown> } : {}) };
};

/** One page of at most `limit` records, partition after partition; `next` is null after the last. */
export const readPartitionPage = async (tenantId: string, limit: number, start: Record<string, unknown> | undefined): Promise<{ records: ConsentRecord[]; next: PartitionCursor | null }> => {
  const partitions = consentKeys.recordPartitions(tenantId);
  let cursor = cursorOf(tenantId, start);
  if (!Number.isInteger(cursor.partition) || cursor.partition < 0) throw new Error(`not a record page position: ${JSON.stringify(start)}`);
  const records: ConsentRecord[] = [];
  while (cursor.partition < partitions.length && records.length < limit) {
    const { Items = [], LastEvaluatedKey } = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': partitions[cursor.partition], ':prefix': prefix },
        Limit: limit - records.length,
        ExclusiveStartKey: cursor.key,
      }),
    );
    records.push(...Items.map(recordOf));
    cursor = LastEvaluatedKey ? { partition: cursor.partition, key: LastEvaluatedKey } : { partition: cursor.partition + 1 };
  }
  return { records, next: cursor.partition < partitions.length ? cursor : null };
};
