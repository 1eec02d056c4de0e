import { randomBytes, randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '../shared/db/commands';
import { describe, expect, it } from 'vitest';
import { consentKeys } from '../shared/consent/keys';
import { dailyBuckets, readStats } from '../shared/consent/store';
import { db, tableName } from '../shared/db/client';
import { tryTransaction } from '../shared/db/transact';
import type { LogEntry } from '../shared/evidence/entries';
import { extendTiles } from '../shared/evidence/integration';
import { logKeys } from '../shared/evidence/log-keys';
import { legacySequenceItems } from '../shared/evidence/log-legacy';
import { positionsOf, putMapFragments } from '../shared/evidence/log-map';
import { batchPut, putBatch, readHead, readLog } from '../shared/evidence/log-store';
import { appendToFrontier } from '../shared/evidence/frontier';
import { countsOf } from '../shared/evidence/log-counts';
import { fromHex, leafHash, toHex, verifyInclusion } from '../shared/evidence/merkle';
import { inclusionAt } from '../shared/evidence/proofs';
import { sequenceEntries } from '../shared/evidence/sequencer';
import { signCheckpointFor } from '../shared/evidence/checkpointer';
import { appendLeaves, tileName } from '../shared/evidence/tiles';
import { newTimeOrderedId } from '../shared/ids';

/**
 * The log's layout (shared/evidence/log-keys.ts): batches carrying the tree's state, map fragments
 * written before their batch, the day's count on the counters item, and logs written before all
 * of that going on where they were. Synthetic tenants and entries: no stream, no API.
 */
const entry = (tenantId: string, counts?: LogEntry['counts'], at = new Date()): LogEntry => ({ tenantId, kind: 'record', id: newTimeOrderedId(at), hash: randomBytes(32).toString('hex'), ...(counts ? { counts } : {}) });
const leaf = (logged: { hash: string }) => leafHash(fromHex(logged.hash));
const update = (key: Record<string, string>, expression: string, values: Record<string, unknown>) =>
  db().send(new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: expression, ExpressionAttributeValues: values }));

describe('a log written before batches carried their state', () => {
  it('goes on where it was: its old map, tiles and counts read, its proofs and the new ones verify', async () => {
    const tenantId = randomUUID();
    const old = Array.from({ length: 300 }, () => entry(tenantId));
    // As the old sequencer wrote it: transactions of batch, head and map items, then the old integrator's tiles and head.
    for (let start = 0; start < old.length; start += 100) {
      expect(await tryTransaction(legacySequenceItems({ tenantId, start, entries: old.slice(start, start + 100), at: new Date().toISOString(), migrated: true }))).toBe('ok');
    }
    const tree = appendLeaves(0, new Map(), old.map(leaf));
    for (const tile of tree.tiles) {
      await db().send(new PutCommand({ TableName: tableName(), Item: { ...logKeys.legacyTile(tenantId, tileName(tile.id)), type: 'LogTile', width: tile.hashes.length / 32, hashes: tile.hashes } }));
    }
    await update(logKeys.head(tenantId), 'SET integrated = :size, root = :root', { ':size': 300, ':root': Buffer.from(tree.root) });
    // Its counters, as the old sequencer left them: no position counted to.
    await db().send(new UpdateCommand({ TableName: tableName(), Key: consentKeys.stats(tenantId), UpdateExpression: 'SET #total = :total', ExpressionAttributeNames: { '#total': 'total' }, ExpressionAttributeValues: { ':total': 300 } }));

    const day = new Date().toISOString().slice(0, 10);
    const fresh = Array.from({ length: 20 }, () => entry(tenantId, { noticeId: 'n1', grantedPurposes: ['p1'], day }));
    // Old entries replayed with the new ones: found in the old map items, not appended again.
    expect(await sequenceEntries(tenantId, [...old.slice(250), ...fresh])).toBe(20);
    const head = await readHead(tenantId);
    const all = appendLeaves(0, new Map(), [...old, ...fresh].map(leaf));
    expect(head).toMatchObject({ sequenced: 320, integrated: 320, rootHash: toHex(all.root) });
    expect((await readStats(tenantId)).total).toBe(320);
    // Tiles for the tree to sign: the old right edge read from where the old integrator left it.
    await extendTiles(tenantId, head, 320);
    for (const [position, logged] of [[10, old[10]!], [299, old[299]!], [310, fresh[10]!]] as const) {
      expect(verifyInclusion(position, 320, leaf(logged), (await inclusionAt(tenantId, position, 320)).map(fromHex), all.root)).toBe(true);
    }
    expect(await positionsOf(tenantId, [old[42]!.id, fresh[3]!.id])).toEqual(new Map([[old[42]!.id, 42], [fresh[3]!.id, 303]]));
  });
});

describe('the map, written before its batch', () => {
  it('ignores a fragment whose batch lost its positions, and the entries it named are appended once', async () => {
    const tenantId = randomUUID();
    const first = [entry(tenantId), entry(tenantId)];
    await sequenceEntries(tenantId, first);
    // A sequencer that wrote its fragment for position 0, then lost the race for it: its entries are not at 0.
    const lost = [entry(tenantId), entry(tenantId)];
    await putMapFragments(tenantId, 0, lost.map((logged) => logged.id));
    expect(await positionsOf(tenantId, lost.map((logged) => logged.id))).toEqual(new Map());
    expect(await sequenceEntries(tenantId, lost)).toBe(2);
    expect(await sequenceEntries(tenantId, lost)).toBe(0);
    expect(await positionsOf(tenantId, [...first, ...lost].map((logged) => logged.id))).toEqual(new Map([...first, ...lost].map((logged, index) => [logged.id, index])));
  });
});

describe('two sequencers racing with overlapping new entries', () => {
  it('append every entry exactly once, each findable at its own leaf', async () => {
    const tenantId = randomUUID();
    const all: LogEntry[] = [];
    for (let round = 0; round < 6; round += 1) {
      const [a, b, c] = [1, 2, 3].map(() => Array.from({ length: 4 }, () => entry(tenantId)));
      all.push(...a!, ...b!, ...c!);
      await Promise.all([sequenceEntries(tenantId, [...a!, ...b!]), sequenceEntries(tenantId, [...b!, ...c!])]);
    }
    const positions = await positionsOf(tenantId, all.map((logged) => logged.id));
    expect(positions.size).toBe(all.length);
    expect(new Set(positions.values()).size).toBe(all.length);
    expect((await readHead(tenantId)).sequenced).toBe(all.length);
  });
});

describe('a batch appended just after its tree was signed', () => {
  it('puts the head back in the unsigned index, though the head its sequencer read was still in it', async () => {
    const tenantId = randomUUID();
    await sequenceEntries(tenantId, [entry(tenantId), entry(tenantId)]);
    const stale = await readLog(tenantId);
    expect(stale.head.unsignedSince).toEqual(expect.any(String));
    expect(await signCheckpointFor(tenantId, new Date(Date.now() + 60_000))).toMatchObject({ treeSize: 2 });
    expect((await readHead(tenantId)).unsignedSince).toBeNull();
    // The sequencer goes on from what it read before the signing.
    expect(await sequenceEntries(tenantId, [entry(tenantId)], stale)).toBe(1);
    expect(await readHead(tenantId)).toMatchObject({ sequenced: 3, unsignedSince: expect.any(String) });
  });
});

describe('the counters, the day on the counters item', () => {
  it('count each record once across days, late records and replays, read as the day buckets', async () => {
    const tenantId = randomUUID();
    const on = (day: string, count: number) => Array.from({ length: count }, () => entry(tenantId, { noticeId: 'n1', grantedPurposes: ['p1'], day }, new Date(`${day}T12:00:00Z`)));
    const [monday, tuesday, late, mixed] = [on('2026-03-02', 3), on('2026-03-03', 2), on('2026-03-02', 1), [...on('2026-03-03', 1), ...on('2026-03-04', 4)]];
    for (const batch of [monday, tuesday, late, tuesday, mixed]) await sequenceEntries(tenantId, batch);
    const given = new Map((await dailyBuckets(tenantId, '2026-03-01', '2026-03-05')).map((bucket) => [String(bucket.SK).slice('DAILY#'.length), Number(bucket.given)]));
    expect(given).toEqual(new Map([['2026-03-02', 4], ['2026-03-03', 3], ['2026-03-04', 4]]));
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: consentKeys.stats(tenantId), ConsistentRead: true }));
    expect(Item).toMatchObject({ total: 11, countedTo: 11, day: '2026-03-04', dayGiven: 4, pg_p1: 11 });
    // A batch the counters missed (its sequencer died after appending it) is counted first by the next one.
    const missed = on('2026-03-04', 2);
    const { latest } = await readLog(tenantId);
    const next = appendToFrontier(11, latest!.state!.frontier, missed.map(leaf));
    await putMapFragments(tenantId, 11, missed.map((logged) => logged.id));
    expect(await putBatch(batchPut(tenantId, missed, { start: 11, end: 13, root: next.root, frontier: next.frontier, at: new Date().toISOString() }, countsOf(missed)))).toBe(true);
    await sequenceEntries(tenantId, on('2026-03-04', 1));
    const { Item: after } = await db().send(new GetCommand({ TableName: tableName(), Key: consentKeys.stats(tenantId), ConsistentRead: true }));
    expect(after).toMatchObject({ total: 14, countedTo: 14, day: '2026-03-04', dayGiven: 7 });
  });

  it('finish a batch whose sequencer died after appending it when its records are replayed, with no batch after it', async () => {
    const tenantId = randomUUID();
    const day = new Date().toISOString().slice(0, 10);
    const records = Array.from({ length: 3 }, () => entry(tenantId, { noticeId: 'n1', grantedPurposes: ['p1'], day }));
    const next = appendToFrontier(0, [], records.map(leaf));
    await update(logKeys.head(tenantId), 'SET migrated = :yes', { ':yes': true });
    await putMapFragments(tenantId, 0, records.map((logged) => logged.id));
    expect(await putBatch(batchPut(tenantId, records, { start: 0, end: 3, root: next.root, frontier: next.frontier, at: new Date().toISOString() }, countsOf(records)))).toBe(true);
    // The stream delivers the records again: nothing is appended, the batch is counted and awaits signing.
    expect(await sequenceEntries(tenantId, records)).toBe(0);
    expect(await sequenceEntries(tenantId, records)).toBe(0);
    expect(await readStats(tenantId)).toMatchObject({ total: 3 });
    expect(await readHead(tenantId)).toMatchObject({ sequenced: 3, integrated: 3, unsignedSince: expect.any(String) });
  });
});
