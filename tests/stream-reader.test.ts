import { randomUUID } from 'node:crypto';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '../shared/db/commands';
import { afterEach, describe, expect, it } from 'vitest';
import { startStreamReader, type StreamPosition, type StreamReaderOptions } from '../infra/local/stream-reader';
import { clientOptions } from '../shared/aws/clients';
import { config } from '../shared/config';
import { db, tableName } from '../shared/db/client';
import type { StreamChange } from '../shared/stream/change';
import type { StreamConsumer } from '../shared/stream/consumer';
import { furthestBy, publishProgress } from './support/stream-board';

/**
 * The local stream reader against DynamoDB Local's own stream of the test table. Other test files
 * write to the same table (and run their own readers), so each test uses an item type of its own.
 */
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

const putProbes = async (type: string, count: number): Promise<string[]> => {
  const partition = `STREAMTEST#${randomUUID()}`;
  const keys: string[] = [];
  // One partition, so the records share a shard and the stream's order is the order written.
  for (let index = 0; index < count; index += 1) {
    const SK = `ITEM#${String(index).padStart(3, '0')}`;
    await db().send(new PutCommand({ TableName: tableName(), Item: { PK: partition, SK, type, payload: new Uint8Array([index, 255]) } }));
    keys.push(SK);
  }
  return keys;
};

/**
 * A reader starts at the stream's trim horizon and reads through all the suite has written before
 * it reaches its own records (13 s in one loaded CI run), so the wait allows for that.
 */
const until = async (condition: () => boolean, timeoutMs = 45_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the stream reader');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const probeConsumer = (type: string, handle: (changes: StreamChange[]) => Promise<void>): StreamConsumer => ({ name: `probe ${type}`, itemTypes: [type], eventNames: ['INSERT'], handle });

/** A reader of one probe type's item keys, stopped after the test. */
const readKeys = (type: string, options: Omit<StreamReaderOptions, 'idleMs' | 'consumers'>): string[] => {
  const keys: string[] = [];
  const reader = startStreamReader({ idleMs: 50, ...options, consumers: [probeConsumer(type, async (changes) => void keys.push(...changes.map((change) => String(change.newImage?.SK))))] });
  stops.push(reader.stop);
  return keys;
};

/** Two probes written and read by a reader that is then stopped: its position, and what it read. */
const readTwoThenStop = async () => {
  const type = `StreamProbe-${randomUUID()}`;
  const position: StreamPosition = new Map();
  const first = readKeys(type, { since: new Date(), position });
  const before = await putProbes(type, 2);
  await until(() => first.length >= before.length);
  await stops.pop()!();
  return { type, position, before, first };
};

describe('stream reader', () => {
  it('hands every new item to its consumer exactly once, in the order written, images unmarshalled', async () => {
    const type = `StreamProbe-${randomUUID()}`;
    const delivered: StreamChange[] = [];
    const reader = startStreamReader({ idleMs: 50, since: new Date(), consumers: [probeConsumer(type, async (changes) => void delivered.push(...changes))] });
    stops.push(reader.stop);
    const keys = await putProbes(type, 5);
    await until(() => delivered.length >= keys.length);
    // A little longer: nothing may arrive twice.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(delivered.map((change) => change.newImage?.SK)).toEqual(keys);
    expect(delivered.every((change) => change.eventName === 'INSERT' && change.oldImage === undefined)).toBe(true);
    expect(delivered.map((change) => change.keys.SK)).toEqual(keys);
    const sequences = delivered.map((change) => BigInt(change.sequenceNumber));
    expect([...sequences].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(sequences);
    expect(delivered[3]!.newImage?.payload).toEqual(new Uint8Array([3, 255]));
  });

  it('rests between polls once the stream is quiet, and reads at once when this process writes', async () => {
    const type = `StreamProbe-${randomUUID()}`;
    const keys = readKeys(type, { since: new Date(), restMs: 60_000 });
    // Caught up with the stream (which it reads from its trim horizon), then quiet for the busy second.
    const [first] = await putProbes(type, 1);
    await until(() => keys.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // A write through a client of another process (no cue): at rest, the reader does not see it for now.
    const elsewhere = new DynamoDBClient(clientOptions(config.dynamodbEndpoint));
    const partition = `STREAMTEST#${randomUUID()}`;
    await elsewhere.send(new PutItemCommand({ TableName: tableName(), Item: { PK: { S: partition }, SK: { S: 'ELSEWHERE' }, type: { S: type } } }));
    elsewhere.destroy();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(keys).toEqual([first]);
    // A write of this process cues it: both are read well within the 60 s rest.
    await db().send(new PutCommand({ TableName: tableName(), Item: { PK: partition, SK: 'HERE', type } }));
    await until(() => keys.length === 3, 10_000);
    expect(keys).toEqual([first, 'ELSEWHERE', 'HERE']);
  });

  it('gives a consumer that failed the same batch again, so nothing is lost', async () => {
    const type = `StreamProbe-${randomUUID()}`;
    const calls: string[][] = [];
    const handled: string[] = [];
    const consumer = probeConsumer(type, async (changes) => {
      calls.push(changes.map((change) => String(change.newImage?.SK)));
      if (calls.length === 1) throw new Error('the first delivery fails');
      handled.push(...changes.map((change) => String(change.newImage?.SK)));
    });
    // Another consumer in the same dispatch is unaffected by the failure (it finishes, and sees the retry too).
    const bystander: string[] = [];
    const reader = startStreamReader({ idleMs: 50, since: new Date(), consumers: [consumer, probeConsumer(type, async (changes) => void bystander.push(...changes.map((change) => String(change.newImage?.SK))))] });
    stops.push(reader.stop);
    const keys = await putProbes(type, 4);
    await until(() => handled.length >= keys.length);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls[1]).toEqual(calls[0]);
    expect(handled).toEqual(keys);
    expect([...new Set(bystander)]).toEqual(keys);
  });

  it('reports how old the record it is stuck on is (the local iterator age), and 0 once it is through', async () => {
    const type = `StreamProbe-${randomUUID()}`;
    let failing = true;
    let attempts = 0;
    const reader = startStreamReader({
      idleMs: 50,
      since: new Date(Date.now() - 60_000),
      consumers: [
        probeConsumer(type, async () => {
          attempts += 1;
          if (failing) throw new Error('not yet');
        }),
      ],
    });
    stops.push(reader.stop);
    await putProbes(type, 1);
    await until(() => attempts > 0);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(reader.lagSeconds()).toBeGreaterThanOrEqual(1);
    failing = false;
    const handledAt = attempts;
    await until(() => attempts > handledAt);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reader.lagSeconds()).toBe(0);
  });

  it('resumes right after the last record a stopped reader handled, when given its position', async () => {
    const { type, position, before, first } = await readTwoThenStop();
    expect(position.size).toBeGreaterThan(0);
    // Written while no reader runs; the next one's `since` lies in the future, so only its position finds them.
    const after = await putProbes(type, 3);
    const second = readKeys(type, { since: new Date(Date.now() + 120_000), position });
    await until(() => second.length >= after.length);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(first).toEqual(before);
    expect(second).toEqual(after);
  });

  it('reads but does not dispatch records made before `since`', async () => {
    const type = `StreamProbe-${randomUUID()}`;
    const delivered: StreamChange[] = [];
    const reader = startStreamReader({ idleMs: 50, since: new Date(Date.now() + 120_000), consumers: [probeConsumer(type, async (changes) => void delivered.push(...changes))] });
    stops.push(reader.stop);
    await putProbes(type, 2);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(delivered).toEqual([]);
  });

  it('starts a shard after a given point instead of its trim horizon, so what came before is never handed on', async () => {
    const { type, position } = await readTwoThenStop();
    const after = await putProbes(type, 3);
    // No `since`: without the starting point this reader would hand on the first two again, from the trim horizon.
    const second = readKeys(type, { startAfter: new Map(position) });
    await until(() => second.length >= after.length);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second).toEqual(after);
  });

  it('publishes how far readers got, and offers a new reader only what had been read before its `since`', async () => {
    const position: StreamPosition = new Map([['arn/shard-a', '100']]);
    publishProgress(() => position);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    const published = Date.now();
    position.set('arn/shard-a', '250');
    position.set('arn/shard-b', '7');
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(furthestBy(published).get('arn/shard-a')).toBe('100');
    expect(furthestBy(published).has('arn/shard-b')).toBe(false);
    expect(furthestBy(Date.now()).get('arn/shard-a')).toBe('250');
    expect(furthestBy(Date.now()).get('arn/shard-b')).toBe('7');
  });
});
