import { randomBytes } from 'node:crypto';
import { PutCommand } from '../db/commands';
import { batchGetAll } from '../db/batch';
import { db, tableName } from '../db/client';
import { queryAll } from '../db/query';
import { logKeys, mapAttributeOf, mapBucketOf } from './log-keys';
import { batchesAt } from './log-store';

/**
 * Which leaf each entry id has: what a proof needs, and what keeps a replayed stream record from
 * becoming a second leaf. A batch writes, before it takes its positions, one fragment per 256 ms
 * bucket of its ids (`LOG#<tid>#MAP#<bucket>` / `<start>`: the ids without their bucket prefix,
 * 11 bytes each, and each one's offset in the batch, 2 bytes), so that every appended batch is
 * findable by its ids. A fragment whose batch then lost its positions to another sequencer names
 * positions that hold other entries: each position found is checked against the batch stored there
 * (a read only for ids found, which a fresh batch's are not). Logs from before fragments kept one
 * item per bucket with an attribute per id (`LOG#<tid>` / `MAP#<bucket>`), written with the batch.
 */

const idBytes = 16;
const bucketBytes = 5;

/**
 * The fragments a batch of `ids` starting at `start` writes: one put per bucket its ids fall in,
 * keyed by `writer` too (a random name per attempt), so that a sequencer racing for the same start
 * never overwrites the fragment of the one whose batch takes it.
 */
export const mapFragmentPuts = (tenantId: string, start: number, ids: readonly string[], writer: string) => {
  const byBucket = new Map<string, { id: string; offset: number }[]>();
  ids.forEach((id, offset) => {
    const bucket = mapBucketOf(id);
    byBucket.set(bucket, [...(byBucket.get(bucket) ?? []), { id, offset }]);
  });
  return [...byBucket].map(([bucket, members]) => {
    const suffixes = Buffer.alloc(members.length * (idBytes - bucketBytes));
    const offsets = Buffer.alloc(members.length * 2);
    members.forEach(({ id, offset }, index) => {
      Buffer.from(id.replaceAll('-', ''), 'hex').subarray(bucketBytes).copy(suffixes, index * (idBytes - bucketBytes));
      offsets.writeUInt16BE(offset, index * 2);
    });
    return { TableName: tableName(), Item: { ...logKeys.mapFragment(tenantId, bucket, start, writer), type: 'LogMap', start, ids: suffixes, offsets } };
  });
};

/**
 * Writes them. A losing sequencer's fragments stay (they name positions holding other entries,
 * which `positionsOf` checks): deleting them is unsafe when a put reported as lost had in fact
 * been stored (an SDK retry of a conditional put that went through fails its condition).
 */
export const putMapFragments = async (tenantId: string, start: number, ids: readonly string[]): Promise<void> => {
  const writer = randomBytes(6).toString('hex');
  await Promise.all(mapFragmentPuts(tenantId, start, ids, writer).map((put) => db().send(new PutCommand(put))));
};

const uuidOf = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/** The (id, position) pairs a fragment item claims, with the start of the batch that wrote it. */
const claimsOf = (bucket: string, item: Record<string, unknown>): { id: string; position: number; start: number }[] => {
  const suffixes = Buffer.from(item.ids as Uint8Array);
  const offsets = Buffer.from(item.offsets as Uint8Array);
  const start = Number(item.start);
  return Array.from({ length: offsets.length / 2 }, (_, index) => ({
    id: uuidOf(`${bucket}${suffixes.subarray(index * (idBytes - bucketBytes), (index + 1) * (idBytes - bucketBytes)).toString('hex')}`),
    position: start + offsets.readUInt16BE(index * 2),
    start,
  }));
};

/**
 * Leaf positions of entries already in the log, strongly consistent. `legacyMapUntil`: the newest
 * bucket the log's old map items can hold (null: it has none; undefined: not known, read them).
 */
export const positionsOf = async (tenantId: string, ids: readonly string[], legacyMapUntil?: string | null): Promise<Map<string, number>> => {
  const wanted = new Set(ids);
  const buckets = [...new Set(ids.map(mapBucketOf))];
  const legacyBuckets = legacyMapUntil === null ? [] : buckets.filter((bucket) => legacyMapUntil === undefined || bucket <= legacyMapUntil);
  const [fragments, legacyItems] = await Promise.all([
    Promise.all(
      buckets.map(async (bucket) =>
        (await queryAll({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': logKeys.mapPartition(tenantId, bucket) }, ConsistentRead: true })).flatMap((item) => claimsOf(bucket, item)),
      ),
    ),
    batchGetAll(legacyBuckets.map((bucket) => logKeys.legacyMap(tenantId, bucket)), { consistent: true }),
  ]);
  const found = new Map<string, number>();
  // Old map items were written with their batch, in one transaction: what they say holds.
  for (const item of legacyItems) {
    for (const id of wanted) {
      const position = item[mapAttributeOf(id)];
      if (typeof position === 'number') found.set(id, position);
    }
  }
  const claims = fragments.flat().filter((claim) => wanted.has(claim.id) && !found.has(claim.id));
  if (claims.length === 0) return found;
  const batches = await batchesAt(tenantId, claims.map((claim) => claim.start));
  for (const claim of claims) {
    if (batches.get(claim.start)?.entries[claim.position - claim.start]?.id === claim.id) found.set(claim.id, claim.position);
  }
  return found;
};
