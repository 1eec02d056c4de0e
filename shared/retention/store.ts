import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '../db/commands';
import { db, tableName } from '../db/client';
import { queryAll } from '../db/query';
import { writtenUnlessRaced } from '../db/errors';
import { addCounters, named, tryTransaction, type NamedItem } from '../db/transact';
import { ConflictError } from '../errors';
import { outboxPut, type EventEnvelope } from '../events/outbox';
import { retentionKeys } from './keys';
import { entryKeptDays, sweepKeys, type TaskState } from './sweep-keys';

/**
 * The retention sweep's DynamoDB work: a principal's schedule (the activity item and her place in
 * the due index), the upcoming list's entries, the day counters and the erasure tasks. Request
 * builders are plain functions (tests/retention-store.unit.test.ts); a failed condition is named
 * after its item, so a cancelled transaction says which one moved.
 */

/** A principal's schedule as the activity item holds it (keys.ts). */
export interface Schedule {
  tenantId: string;
  identifierHash: string;
  lastActivityAt: string | null;
  nextAt: string | null;
  /** The state of her current upcoming entry: SCHEDULED, NOTICE_SENT, EXPIRING (claimed), EXPIRED. */
  state: string | null;
  /** The due time of her current upcoming entry. */
  dueAt: string | null;
  noticeSentAt: string | null;
  noticedDueAt: string | null;
  /** Its place in the due index as read: every step is conditional on it, so of two sweeps at once one acts. */
  indexKey: string | null;
  /** The run that let her consent lapse last (state EXPIRED). */
  runId?: string | null;
}

export const scheduleOf = (item: Record<string, unknown>): Schedule => {
  const text = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : null);
  return {
    tenantId: String(item.tenantId),
    identifierHash: String(item.identifierHash),
    lastActivityAt: text('lastActivityAt'),
    nextAt: text('nextAt'),
    state: text('state'),
    dueAt: text('dueAt'),
    noticeSentAt: text('noticeSentAt'),
    noticedDueAt: text('noticedDueAt'),
    indexKey: text('GSI2SK'),
    runId: text('runId'),
  };
};

/**
 * A step's writes: one conditional update alone (the common step: a principal with nothing due, or
 * waiting) as a plain UpdateItem, more as one transaction. Answers whether they landed (a failed
 * condition: she changed since the index was read, and is decided again next time).
 */
export const writeStep = async (items: readonly NamedItem[]): Promise<boolean> => {
  const [only] = items;
  if (items.length === 1 && only?.item.Update) {
    const update = only.item.Update;
    return writtenUnlessRaced(() => db().send(new UpdateCommand({ ...update, TableName: update.TableName ?? tableName() })));
  }
  return (await tryTransaction(items)) === 'ok';
};

export const scheduleChangedError = () => new ConflictError('The principal\'s retention schedule changed meanwhile; decided again at the next sweep');

/** The update of a principal's schedule, conditional on it being as the sweep read it (an activity or another sweep in between: decided again next time). */
export const scheduleUpdate = (schedule: Schedule, set: Record<string, unknown>, remove: readonly string[], nextAt: string | null): NamedItem => {
  const fields: Record<string, unknown> = { ...set, ...(nextAt ? { nextAt, ...retentionKeys.due(schedule.tenantId, schedule.identifierHash, nextAt) } : {}) };
  const removed = [...remove, ...(nextAt ? [] : ['nextAt', 'GSI2PK', 'GSI2SK'])];
  const names = Object.keys(fields);
  return {
    name: 'principal schedule',
    item: {
      Update: {
        TableName: tableName(),
        Key: retentionKeys.activity(schedule.tenantId, schedule.identifierHash),
        UpdateExpression: [names.length > 0 ? `SET ${names.map((_, index) => `#s${index} = :s${index}`).join(', ')}` : '', removed.length > 0 ? `REMOVE ${removed.map((_, index) => `#r${index}`).join(', ')}` : ''].join(' ').trim(),
        ConditionExpression: [schedule.lastActivityAt ? 'lastActivityAt = :readActivity' : 'attribute_not_exists(lastActivityAt)', schedule.indexKey ? '#indexKey = :readIndex' : 'attribute_not_exists(#indexKey)'].join(' AND '),
        ExpressionAttributeNames: { ...Object.fromEntries(names.map((name, index) => [`#s${index}`, name])), ...Object.fromEntries(removed.map((name, index) => [`#r${index}`, name])), '#indexKey': 'GSI2SK' },
        ExpressionAttributeValues: {
          ...Object.fromEntries(names.map((name, index) => [`:s${index}`, fields[name]])),
          ...(schedule.lastActivityAt ? { ':readActivity': schedule.lastActivityAt } : {}),
          ...(schedule.indexKey ? { ':readIndex': schedule.indexKey } : {}),
        },
      },
    },
    onConditionFailure: scheduleChangedError,
  };
};

export const entryStates = ['SCHEDULED', 'NOTICE_SENT', 'CANCELLED', 'EXPIRED'] as const;
export type EntryState = (typeof entryStates)[number];

/** One line of GET /retention/upcoming: a principal's erasure due at a time, and what became of it. */
export interface UpcomingEntry {
  identifierHash: string;
  purposeIds: string[];
  dueAt: string;
  noticeSentAt: string | null;
  state: EntryState;
}

const ttlOf = (at: string) => Math.floor(new Date(at).getTime() / 1000) + entryKeptDays * 86_400;

/**
 * An entry as it now stands (a Put: the same principal and due time is one entry). A CANCELLED
 * or EXPIRED one is removed by the table's TTL `entryKeptDays` after `at`.
 */
export const entryPut = (tenantId: string, entry: UpcomingEntry, at: string): NamedItem =>
  named(`upcoming entry ${entry.dueAt}`, {
    Put: {
      TableName: tableName(),
      Item: {
        ...sweepKeys.upcoming(tenantId, entry.dueAt, entry.identifierHash),
        type: 'RetentionEntry',
        tenantId,
        ...entry,
        updatedAt: at,
        ...(entry.state === 'CANCELLED' || entry.state === 'EXPIRED' ? { expiresAt: ttlOf(at) } : {}),
      },
    },
  });

/** A live entry whose due time moved (the principal is in the entry at her new time). */
export const entryDelete = (tenantId: string, dueAt: string, identifierHash: string): NamedItem =>
  named(`upcoming entry ${dueAt}`, { Delete: { TableName: tableName(), Key: sweepKeys.upcoming(tenantId, dueAt, identifierHash) } });

/** A live entry cancelled by her activity: kept, CANCELLED, for `entryKeptDays`. Conditional on it still being live. */
export const entryCancel = (tenantId: string, dueAt: string, identifierHash: string, at: string): NamedItem =>
  named(`upcoming entry ${dueAt}`, {
    Update: {
      TableName: tableName(),
      Key: sweepKeys.upcoming(tenantId, dueAt, identifierHash),
      UpdateExpression: 'SET #state = :cancelled, cancelledAt = :at, expiresAt = :ttl',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':cancelled': 'CANCELLED', ':at': at, ':ttl': ttlOf(at) },
    },
  });

export const entryOf = (item: Record<string, unknown>): UpcomingEntry => ({
  identifierHash: String(item.identifierHash),
  purposeIds: Array.isArray(item.purposeIds) ? (item.purposeIds as string[]) : [],
  dueAt: String(item.dueAt),
  noticeSentAt: typeof item.noticeSentAt === 'string' ? item.noticeSentAt : null,
  state: item.state as EntryState,
});

/** One month's entries of a tenant due between from and to, from `startKey` on, at most `limit`, optionally of one state (a filter: reads what it skips). */
export const upcomingQuery = (tenantId: string, month: string, from: string, to: string, state: EntryState | undefined, limit: number, startKey: Record<string, unknown> | undefined) => ({
  TableName: tableName(),
  KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
  ExpressionAttributeValues: { ':pk': sweepKeys.upcomingPartition(tenantId, month), ':from': from, ':to': `${to}~`, ...(state ? { ':state': state } : {}) },
  ...(state ? { FilterExpression: '#state = :state', ExpressionAttributeNames: { '#state': 'state' } } : {}),
  Limit: limit,
  ...(startKey ? { ExclusiveStartKey: startKey } : {}),
});

export const queryUpcoming = async (...args: Parameters<typeof upcomingQuery>) => {
  const page = await db().send(new QueryCommand(upcomingQuery(...args)));
  return { entries: (page.Items ?? []).map(entryOf), lastKey: page.LastEvaluatedKey };
};

export const dayCounterNames = ['due', 'noticesSent', 'cancelled', 'expired'] as const;
export type DayCounts = Record<(typeof dayCounterNames)[number], number>;

/** What a sweep pass adds to one day's counters of a tenant (one write per day touched per pass). */
export const dayCountsUpdate = (tenantId: string, day: string, deltas: Partial<DayCounts>) => addCounters(sweepKeys.day(tenantId, day), deltas);

export const addDayCounts = async (tenantId: string, day: string, deltas: Partial<DayCounts>): Promise<void> => {
  if (!Object.values(deltas).some((delta) => delta !== 0)) return;
  await db().send(new UpdateCommand(dayCountsUpdate(tenantId, day, deltas).Update!));
};

export const dayCountsQuery = (tenantId: string, fromDay: string, toDay: string) => ({
  KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
  ExpressionAttributeValues: { ':pk': sweepKeys.dayPartition(tenantId), ':from': fromDay, ':to': toDay },
});

export const readDayCounts = async (tenantId: string, fromDay: string, toDay: string): Promise<Map<string, DayCounts>> =>
  new Map(
    (await queryAll(dayCountsQuery(tenantId, fromDay, toDay))).map((item) => [String(item.SK), Object.fromEntries(dayCounterNames.map((name) => [name, Number(item[name] ?? 0)])) as DayCounts]),
  );

/** An event of the sweep, put on the outbox on its own (the run's pages: a crash before one is a page sent again, never lost). */
export const putEvent = async (event: EventEnvelope): Promise<void> => {
  await db().send(new PutCommand(outboxPut(event).Put!));
};

/** An asset of an erasure task: a place of the data map holding the lapsed purposes' data. */
export interface TaskAsset {
  assetId: string;
  name: string;
  system?: string;
  resolved: boolean;
  resolvedAt?: string;
  resolvedBy?: string;
  note?: string;
}

export interface ErasureTask {
  tenantId: string;
  id: string;
  runId: string;
  createdAt: string;
  purposeIds: string[];
  principalCount: number;
  assets: TaskAsset[];
  state: TaskState;
  resolvedAt?: string;
  /** Bumped by every change; a change is conditional on the version read. */
  version: number;
}

const taskItem = (task: ErasureTask) => ({ ...sweepKeys.task(task.tenantId, task.id), ...sweepKeys.taskState(task.tenantId, task.state, task.id), type: 'RetentionErasureTask', ...task });

export const taskOf = (item: Record<string, unknown>): ErasureTask => {
  const { PK: _pk, SK: _sk, GSI1PK: _gsiPk, GSI1SK: _gsiSk, type: _type, ...task } = item;
  return task as unknown as ErasureTask;
};

export const taskChangedError = () => new ConflictError('The erasure task was changed by another request; reload and retry');

/** A run's task (its id is the run's: a run retried after a crash does not make a second one). */
export const taskInsert = (task: ErasureTask): NamedItem => ({
  name: 'erasure task',
  item: { Put: { TableName: tableName(), Item: taskItem(task), ConditionExpression: 'attribute_not_exists(PK)' } },
  onConditionFailure: taskChangedError,
});

/** The task's next state, over the version that was read: of two resolves at once one lands, the other is applied again. */
export const taskReplace = (next: ErasureTask, previousVersion: number): NamedItem => ({
  name: 'erasure task',
  item: { Put: { TableName: tableName(), Item: taskItem(next), ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': previousVersion } } },
  onConditionFailure: taskChangedError,
});

/** The counts of a tenant's tasks by state (the listing's totals), in the transaction of each change. */
export const taskCountsUpdate = (tenantId: string, deltas: Partial<Record<TaskState, number>>): NamedItem => named('erasure task counts', addCounters(sweepKeys.taskCounts(tenantId), deltas));

export const getTask = async (tenantId: string, taskId: string): Promise<ErasureTask | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: sweepKeys.task(tenantId, taskId), ConsistentRead: true }));
  return Item ? taskOf(Item) : undefined;
};

export const taskCounts = async (tenantId: string): Promise<Record<TaskState, number>> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: sweepKeys.taskCounts(tenantId) }));
  return { OPEN: Number(Item?.OPEN ?? 0), RESOLVED: Number(Item?.RESOLVED ?? 0) };
};

/** One state's tasks, newest first: the first `count` of them (a page N reads N × limit tasks). */
export const tasksQuery = (tenantId: string, state: TaskState) => ({
  IndexName: 'GSI1',
  KeyConditionExpression: 'GSI1PK = :pk',
  ExpressionAttributeValues: { ':pk': sweepKeys.taskStatePartition(tenantId, state) },
  ScanIndexForward: false,
});

export const firstTasks = async (tenantId: string, state: TaskState, count: number): Promise<ErasureTask[]> => (await queryAll(tasksQuery(tenantId, state), { limit: count })).map(taskOf);
