import { GetCommand, UpdateCommand, type UpdateCommandInput } from '../db/commands';
import { consentKeys } from '../consent/keys';
import { counterNames } from '../consent/store';
import { db, tableName } from '../db/client';
import { isConditionFailure } from '../db/errors';
import { named, tryTransaction, type NamedItem } from '../db/transact';
import type { LogEntry } from './entries';

/**
 * The record counters (totals, per notice, per purpose) and consents per day, added as the log
 * takes the records in, each batch exactly once: the counters item (`CONSENTSTATS`) remembers the
 * log position it has counted to (`countedTo`), and a batch is added only from its own start, in
 * one conditional update. A batch already counted (a replay) fails the condition and adds nothing;
 * one whose predecessor was not counted (its sequencer died after appending it) first counts the
 * batches between, from their stored counts. The day's own count rides on the counters item too
 * (`day`, `dayGiven`), so a batch costs one write; the first batch of a new day moves the finished
 * day into its `DAILY#<day>` item in the same transaction, as does a batch holding records of a
 * day other than the current one (consent/store.ts dailyBuckets reads both).
 */

/** What a batch's records add: counter deltas by name, and records per UTC day. */
export interface BatchCounts {
  counters: Record<string, number>;
  days: Record<string, number>;
}

export const countsOf = (entries: readonly LogEntry[]): BatchCounts | undefined => {
  const records = entries.filter((entry) => entry.counts);
  if (records.length === 0) return undefined;
  const counters: Record<string, number> = Object.create(null) as Record<string, number>;
  const days: Record<string, number> = Object.create(null) as Record<string, number>;
  const bump = (into: Record<string, number>, name: string) => (into[name] = (into[name] ?? 0) + 1);
  for (const { counts } of records) {
    bump(counters, 'total');
    bump(counters, 'active');
    bump(counters, counterNames.noticeConsents(counts!.noticeId));
    for (const purposeId of counts!.grantedPurposes) bump(counters, counterNames.purposeGiven(purposeId));
    bump(days, counts!.day);
  }
  return { counters: { ...counters }, days: { ...days } };
};

export interface CountedBatch {
  start: number;
  end: number;
  counts?: BatchCounts;
}

/** The counters item's update for a batch: from its start (or, the first batch after the log's old counting, from `base`), moving the day's count if `day` is the current one. */
const statsUpdate = (tenantId: string, batch: CountedBatch, base: number, at: string, day: { current?: string; next?: string; given?: number; move?: boolean }): UpdateCommandInput & { UpdateExpression: string } => {
  const counters = Object.entries(batch.counts?.counters ?? {});
  const names: Record<string, string> = Object.fromEntries(counters.map(([name], index) => [`#c${index}`, name]));
  const values: Record<string, unknown> = { ':start': batch.start, ':end': batch.end, ...Object.fromEntries(counters.map(([, delta], index) => [`:c${index}`, delta])) };
  const sets = ['countedTo = :end'];
  const adds = counters.map((_, index) => `#c${index} :c${index}`);
  if (batch.counts) {
    sets.push('asOf = :at');
    values[':at'] = at;
  }
  let condition = batch.start === base ? '(countedTo = :start OR attribute_not_exists(countedTo))' : 'countedTo = :start';
  if (day.next !== undefined && day.given !== undefined) {
    names['#day'] = 'day';
    values[':next'] = day.next;
    values[':given'] = day.given;
    if (day.move) {
      // The day changes: the counters item starts the new day's count.
      sets.push('#day = :next', 'dayGiven = :given');
      if (day.current === undefined) condition += ' AND attribute_not_exists(#day)';
      else {
        condition += ' AND #day = :current';
        values[':current'] = day.current;
      }
    } else {
      sets.push('#day = :next');
      adds.push('dayGiven :given');
      condition += ' AND (#day = :next OR attribute_not_exists(#day))';
    }
  }
  return {
    TableName: tableName(),
    Key: consentKeys.stats(tenantId),
    UpdateExpression: `SET ${sets.join(', ')}${adds.length > 0 ? ` ADD ${adds.join(', ')}` : ''}`,
    ConditionExpression: condition,
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: values,
  };
};

const dailyAdd = (tenantId: string, day: string, given: number): NamedItem => ({
  name: `day ${day}`,
  item: { Update: { TableName: tableName(), Key: consentKeys.daily(tenantId, day), UpdateExpression: 'ADD given :given', ExpressionAttributeValues: { ':given': given } } },
});

interface StatsState {
  countedTo: number | undefined;
  day: string | undefined;
  dayGiven: number;
}

const readStatsState = async (tenantId: string): Promise<StatsState> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: consentKeys.stats(tenantId), ConsistentRead: true }));
  return {
    countedTo: typeof Item?.countedTo === 'number' ? Item.countedTo : undefined,
    day: typeof Item?.day === 'string' ? Item.day : undefined,
    dayGiven: Number(Item?.dayGiven ?? 0),
  };
};

/** The batch in one update, when its records are all of the current day (or it has none); false if the item says otherwise. */
const countFast = async (tenantId: string, batch: CountedBatch, base: number, at: string): Promise<boolean> => {
  const days = Object.entries(batch.counts?.days ?? {});
  if (days.length > 1) return false;
  const [only] = days;
  try {
    await db().send(new UpdateCommand(statsUpdate(tenantId, batch, base, at, only ? { next: only[0], given: only[1] } : {})));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/**
 * The batch, read against the counters item as it is: nothing if already counted; its day moved
 * into the counters item (the finished day into its day item) and other days into their items,
 * all in one transaction.
 */
const countSlow = async (tenantId: string, batch: CountedBatch, base: number, at: string, stats: StatsState): Promise<'counted' | 'raced'> => {
  const days = Object.entries(batch.counts?.days ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const newest = days.at(-1);
  const moves = newest !== undefined && (stats.day === undefined || newest[0] > stats.day);
  // What goes into day items, one update per day (a transaction may name an item once): the
  // finished day moved off the counters item, and the batch's records of days not counted there.
  const into = new Map<string, number>();
  const add = (day: string, given: number) => into.set(day, (into.get(day) ?? 0) + given);
  if (moves && stats.day !== undefined && stats.dayGiven > 0) add(stats.day, stats.dayGiven);
  for (const [day, given] of days) {
    if (moves && day === newest[0]) continue;
    if (!moves && day === stats.day) continue;
    add(day, given);
  }
  const items = [...into].map(([day, given]) => dailyAdd(tenantId, day, given));
  const onCurrent = !moves && stats.day !== undefined ? days.find(([day]) => day === stats.day) : undefined;
  const day = moves ? { current: stats.day, next: newest[0], given: newest[1], move: true } : onCurrent ? { next: onCurrent[0], given: onCurrent[1] } : {};
  const outcome = await tryTransaction([named('consent counters', { Update: statsUpdate(tenantId, batch, base, at, day) }), ...items]);
  return outcome === 'ok' ? 'counted' : 'raced';
};

/**
 * Adds `batch` to the counters exactly once, and any batch before it the counters have not seen
 * (read with `readBatches`, which knows where they are stored). `base`: where the counting by
 * position begins (0, or where the log's earlier batches, which counted themselves, ended).
 */
export const countBatch = async (
  tenantId: string,
  batch: CountedBatch,
  base: number,
  at: string,
  readBatches: (from: number, to: number) => Promise<CountedBatch[]>,
): Promise<void> => {
  if (await countFast(tenantId, batch, base, at)) return;
  for (let attempt = 1; attempt <= 10; attempt += 1) {
    const stats = await readStatsState(tenantId);
    const countedTo = stats.countedTo ?? base;
    if (countedTo >= batch.end) return;
    if (countedTo < batch.start) {
      // A batch before this one was appended but not counted: count those first, in order.
      for (const earlier of await readBatches(countedTo, batch.start)) await countBatch(tenantId, earlier, base, at, readBatches);
      continue;
    }
    if (countedTo !== batch.start) throw new Error(`log of tenant ${tenantId}: counted to ${countedTo}, inside the batch at ${batch.start}`);
    if ((await countSlow(tenantId, batch, base, at, stats)) === 'counted') return;
  }
  throw new Error(`log of tenant ${tenantId}: could not count the batch at ${batch.start}`);
};
