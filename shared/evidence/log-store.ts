import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type PutCommandInput, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { consentKeys } from '../consent/keys';
import { counterNames } from '../consent/store';
import { db, tableName } from '../db/client';
import { batchGetAll } from '../db/batch';
import { writtenUnlessRaced } from '../db/errors';
import { queryAll } from '../db/query';
import type { NamedItem } from '../db/transact';
import { decodeEntries, encodeEntries, type EntryKind, type LogEntry } from './entries';
import { logKeys, mapAttributeOf, mapBucketOf } from './log-keys';

export interface StoredCheckpoint {
  treeSize: number;
  rootHash: string;
  signedAt: string;
  keyId: string;
  note: string;
}

/** The tenant's log: how many entries have a position (sequenced), how many are in the tree (integrated). */
export interface LogHead {
  sequenced: number;
  integrated: number;
  /** Root of the integrated tree, hex (the empty tree's root when nothing is integrated). */
  rootHash: string | null;
  integratedAt: string | null;
  checkpoint: StoredCheckpoint | null;
  /** Hash-chain era records have been taken in as the first leaves (migration.ts). */
  migrated: boolean;
}

const hex = (value: unknown) => Buffer.from(value as Uint8Array).toString('hex');

export const readHead = async (tenantId: string): Promise<LogHead> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: logKeys.head(tenantId), ConsistentRead: true }));
  return {
    sequenced: Number(Item?.sequenced ?? 0),
    integrated: Number(Item?.integrated ?? 0),
    rootHash: Item?.root ? hex(Item.root) : null,
    integratedAt: (Item?.integratedAt as string | undefined) ?? null,
    checkpoint: (Item?.checkpoint as StoredCheckpoint | undefined) ?? null,
    migrated: Item?.migrated === true,
  };
};

/** The head moves from the size that was read, or not at all: two sequencers cannot both claim a position. */
const headFrom = (sequenced: number) =>
  sequenced === 0
    ? { ConditionExpression: 'attribute_not_exists(sequenced) OR sequenced = :old', ExpressionAttributeValues: { ':old': 0 } }
    : { ConditionExpression: 'sequenced = :old', ExpressionAttributeValues: { ':old': sequenced } };

export interface SequencedBatch {
  tenantId: string;
  /** The log size that was read; the batch takes positions start, start + 1, … */
  start: number;
  entries: LogEntry[];
  at: string;
  /** Set by the migration once the hash-chain era is fully in. */
  migrated?: boolean;
}

const counterDeltas = (entries: LogEntry[]) => {
  const deltas: Record<string, number> = Object.create(null) as Record<string, number>;
  const bump = (name: string) => (deltas[name] = (deltas[name] ?? 0) + 1);
  for (const { counts } of entries) {
    if (!counts) continue;
    bump('total');
    bump('active');
    bump(counterNames.noticeConsents(counts.noticeId));
    for (const purposeId of counts.grantedPurposes) bump(counterNames.purposeGiven(purposeId));
  }
  return deltas;
};

const addWithTime = (key: Record<string, string>, deltas: Record<string, number>, at: string) => {
  const entries = Object.entries(deltas);
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: `SET asOf = :at ADD ${entries.map((_, index) => `#c${index} :d${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#c${index}`, name])),
      ExpressionAttributeValues: { ':at': at, ...Object.fromEntries(entries.map(([, delta], index) => [`:d${index}`, delta])) },
    },
  };
};

/**
 * One batch as one transaction: the head moves from `start` to `start + n` (conditional on
 * `start`), the batch's entries are stored at their positions, each entry's id is mapped to its
 * position, and the counters and day buckets of new records are added. All or nothing, and only
 * once per position, so the counters count each record exactly once whatever the stream replays.
 */
export const sequenceItems = (batch: SequencedBatch): NamedItem[] => {
  const { tenantId, start, entries, at } = batch;
  const end = start + entries.length;
  const head = headFrom(start);
  const items: NamedItem[] = [
    {
      name: 'log head',
      item: {
        Update: {
          TableName: tableName(),
          Key: logKeys.head(tenantId),
          UpdateExpression: `SET sequenced = :end, sequencedAt = :at${batch.migrated ? ', migrated = :true' : ''}`,
          ConditionExpression: head.ConditionExpression,
          ExpressionAttributeValues: { ...head.ExpressionAttributeValues, ':end': end, ':at': at, ...(batch.migrated ? { ':true': true } : {}) },
        },
      },
    },
  ];
  if (entries.length > 0) {
    items.push({
      name: 'log batch',
      item: { Put: { TableName: tableName(), Item: { ...logKeys.batch(tenantId, start), type: 'LogBatch', start, entries: encodeEntries(entries) }, ConditionExpression: 'attribute_not_exists(PK)' } },
    });
  }
  const byBucket = new Map<string, { id: string; position: number }[]>();
  entries.forEach((entry, index) => {
    const bucket = mapBucketOf(entry.id);
    byBucket.set(bucket, [...(byBucket.get(bucket) ?? []), { id: entry.id, position: start + index }]);
  });
  for (const [bucket, mapped] of byBucket) {
    items.push({
      name: `log map ${bucket}`,
      item: {
        Update: {
          TableName: tableName(),
          Key: logKeys.map(tenantId, bucket),
          UpdateExpression: `SET ${mapped.map((_, index) => `#e${index} = :e${index}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(mapped.map(({ id }, index) => [`#e${index}`, mapAttributeOf(id)])),
          ExpressionAttributeValues: Object.fromEntries(mapped.map(({ position }, index) => [`:e${index}`, position])),
        },
      },
    });
  }
  const records = entries.filter((entry) => entry.counts);
  if (records.length > 0) {
    items.push({ name: 'consent counters', item: addWithTime(consentKeys.stats(tenantId), counterDeltas(records), at) });
    const days = new Map<string, number>();
    for (const { counts } of records) days.set(counts!.day, (days.get(counts!.day) ?? 0) + 1);
    for (const [day, given] of days) items.push({ name: `day ${day}`, item: addWithTime(consentKeys.daily(tenantId, day), { given }, at) });
  }
  return items;
};

/** Transaction items a batch needs beyond its entries' map buckets and days (head, batch, counters). */
export const fixedItemsPerBatch = 3;

/** Leaf positions of entries already in the log (a replayed stream record must not become a second leaf). */
export const positionsOf = async (tenantId: string, ids: readonly string[]): Promise<Map<string, number>> => {
  const buckets = [...new Set(ids.map(mapBucketOf))];
  const found = new Map<string, number>();
  for (const item of await batchGetAll(buckets.map((bucket) => logKeys.map(tenantId, bucket)), { consistent: true })) {
    for (const id of ids) {
      const position = item[mapAttributeOf(id)];
      if (typeof position === 'number') found.set(id, position);
    }
  }
  return found;
};

export interface StoredBatch {
  start: number;
  entries: { kind: EntryKind; id: string; hash: string }[];
}

/** The sequenced batches holding positions [from, to), in order. */
export const readBatches = async (tenantId: string, from: number, to: number): Promise<StoredBatch[]> => {
  // A batch starting before `from` may hold it: start from the batch at or before it.
  const first = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK <= :from',
      ExpressionAttributeValues: { ':pk': logKeys.partition(tenantId), ':from': logKeys.batchPosition(from) },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const firstStart = first.Items?.[0]?.SK?.toString().startsWith('SEQ#') ? Number(first.Items[0]!.start) : from;
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': logKeys.partition(tenantId), ':from': logKeys.batchPosition(firstStart), ':to': logKeys.batchPosition(Math.max(firstStart, to - 1)) },
    ConsistentRead: true,
  });
  return items.map((item) => ({ start: Number(item.start), entries: decodeEntries(item.entries as Uint8Array) }));
};

/** Stored tiles by name; missing ones are absent from the map. */
export const readTiles = async (tenantId: string, names: readonly string[]): Promise<Map<string, Uint8Array>> => {
  const items = await batchGetAll([...new Set(names)].map((name) => logKeys.tile(tenantId, name)), { consistent: true });
  return new Map(items.map((item) => [String(item.SK).slice('TILE#'.length), new Uint8Array(item.hashes as Uint8Array)]));
};

/**
 * A tile only ever grows: two integrators racing write identical bytes for a size, and one that
 * read an older size must not shrink what a faster one wrote.
 */
export const tilePut = (tenantId: string, name: string, hashes: Uint8Array): PutCommandInput => ({
  TableName: tableName(),
  Item: { ...logKeys.tile(tenantId, name), type: 'LogTile', width: hashes.length / 32, hashes },
  ConditionExpression: 'attribute_not_exists(PK) OR width < :width',
  ExpressionAttributeValues: { ':width': hashes.length / 32 },
});

export const putTile = async (tenantId: string, name: string, hashes: Uint8Array): Promise<void> => {
  await writtenUnlessRaced(() => db().send(new PutCommand(tilePut(tenantId, name, hashes))));
};

/** The integrated size moves forward from the size read, and the tenant is marked as having an unsigned tree. */
export const integratedUpdate = (tenantId: string, from: number, size: number, root: string, at: string): UpdateCommandInput => ({
  TableName: tableName(),
  Key: logKeys.head(tenantId),
  // unsignedSince: when the tree first grew past its latest checkpoint (the checkpoint lag's start).
  UpdateExpression: 'SET integrated = :size, root = :root, integratedAt = :at, unsignedSince = if_not_exists(unsignedSince, :at), GSI1PK = :unsignedPk, GSI1SK = :unsignedSk',
  ConditionExpression: from === 0 ? 'attribute_not_exists(integrated) OR integrated = :from' : 'integrated = :from',
  ExpressionAttributeValues: {
    ':size': size,
    ':root': Buffer.from(root, 'hex'),
    ':at': at,
    ':from': from,
    ':unsignedPk': logKeys.unsigned(tenantId).GSI1PK,
    ':unsignedSk': logKeys.unsigned(tenantId).GSI1SK,
  },
});

/** False when another integrator moved the head first (it integrated the same batches). */
export const commitIntegration = (input: UpdateCommandInput): Promise<boolean> => writtenUnlessRaced(() => db().send(new UpdateCommand(input)));
