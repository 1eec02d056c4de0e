import { UpdateCommand, type UpdateCommandInput } from '../db/commands';
import { nowIso } from '../clock';
import { db, tableName } from '../db/client';
import { writtenUnlessRaced } from '../db/errors';
import type { NamedItem } from '../db/transact';
import { encodeEntries, type LogEntry } from './entries';
import { logKeys, mapAttributeOf, mapBucketOf } from './log-keys';
import { entryHashes, putTile, readTiles, type LogHead } from './log-store';
import { leafHash, toHex } from './merkle';
import { appendLeaves, rightEdgeTiles, tileName } from './tiles';

/**
 * How the log was kept before each batch carried the tree's state: the head's `sequenced`, moved
 * in one transaction with the batch, its map items and the counters; and `integrated`, moved by a
 * separate integration. Two uses are left: the hash-chain migration (migration.ts) takes the old
 * chain in this way, batch by batch, before any record; and a log left with batches sequenced but
 * not integrated is integrated this way before it goes on (sequencer.ts), so that its right edge
 * can be read from its tiles. Neither counts records (the chain's were counted when written).
 */

/** The head moves from the size that was read, or not at all: two sequencers cannot both claim a position. */
const headFrom = (sequenced: number) =>
  sequenced === 0
    ? { ConditionExpression: 'attribute_not_exists(sequenced) OR sequenced = :old', ExpressionAttributeValues: { ':old': 0 } }
    : { ConditionExpression: 'sequenced = :old', ExpressionAttributeValues: { ':old': sequenced } };

export interface LegacyBatch {
  tenantId: string;
  start: number;
  entries: LogEntry[];
  at: string;
  /** Set by the migration once the hash-chain era is fully in. */
  migrated?: boolean;
}

/** One batch as one transaction: the head from `start` to `start + n`, the batch at its positions, each id in its bucket's map item. */
export const legacySequenceItems = (batch: LegacyBatch): NamedItem[] => {
  const { tenantId, start, entries, at } = batch;
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
          ExpressionAttributeValues: { ...head.ExpressionAttributeValues, ':end': start + entries.length, ':at': at, ...(batch.migrated ? { ':true': true } : {}) },
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
          Key: logKeys.legacyMap(tenantId, bucket),
          UpdateExpression: `SET ${mapped.map((_, index) => `#e${index} = :e${index}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(mapped.map(({ id }, index) => [`#e${index}`, mapAttributeOf(id)])),
          ExpressionAttributeValues: Object.fromEntries(mapped.map(({ position }, index) => [`:e${index}`, position])),
        },
      },
    });
  }
  return items;
};

/** The integrated size moves forward from the size that was read. */
export const legacyIntegratedUpdate = (tenantId: string, from: number, size: number, root: string, at: string): UpdateCommandInput => ({
  TableName: tableName(),
  Key: logKeys.head(tenantId),
  UpdateExpression: 'SET integrated = :size, root = :root, integratedAt = :at, tiledTo = :size',
  ConditionExpression: from === 0 ? '(attribute_not_exists(integrated) OR integrated = :from)' : 'integrated = :from',
  ExpressionAttributeValues: { ':size': size, ':root': Buffer.from(root, 'hex'), ':at': at, ':from': from },
});

/**
 * Integrates what such a log sequenced and did not integrate: its entries past the integrated
 * size, appended to its tiles (written where tiles are now; old ones are still read where they
 * were), and the head's integrated size and root moved on, conditionally. Idempotent: an
 * integrator that dies between its tiles and the head is finished by the next.
 */
export const integrateLegacy = async (tenantId: string, head: LogHead): Promise<void> => {
  const { sequenced, integrated } = head.legacy;
  if (integrated >= sequenced) return;
  const leaves = (await entryHashes(tenantId, integrated, sequenced)).map(leafHash);
  const edge = await readTiles(tenantId, rightEdgeTiles(integrated).map(tileName), integrated);
  const appended = appendLeaves(integrated, edge, leaves);
  await Promise.all(appended.tiles.map((tile) => putTile(tenantId, tileName(tile.id), tile.hashes)));
  await writtenUnlessRaced(() => db().send(new UpdateCommand(legacyIntegratedUpdate(tenantId, integrated, appended.size, toHex(appended.root), nowIso()))));
};
