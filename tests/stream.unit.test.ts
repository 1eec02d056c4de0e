import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { eventIdFor, newEvent } from '../shared/events/outbox';
import { changeOf, tenantOfChange, type StreamChange } from '../shared/stream/change';
import { streamConsumers } from '../functions/stream/consumers';
import type { StreamConsumer } from '../shared/stream/consumer';
import { dispatchChanges } from '../shared/stream/dispatch';

describe('eventIdFor', () => {
  it('derives the same event id from the same type and source, and different ids otherwise', () => {
    const id = eventIdFor('consent.recorded', 'rec-1');
    expect(id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(eventIdFor('consent.recorded', 'rec-1')).toBe(id);
    expect(eventIdFor('consent.recorded', 'rec-2')).not.toBe(id);
    expect(eventIdFor('consent.withdrawn', 'rec-1')).not.toBe(id);
    const data = {
      consentRecordId: 'rec-1',
      dataPrincipalHash: 'a'.repeat(64),
      consents: {},
      noticeId: 'n1',
      noticeVersionId: 'n1:1',
      noticeVersionNumber: 1,
      recordedAt: '2026-01-01T00:00:00.000Z',
    };
    expect(newEvent('t1', 'consent.recorded', data, { id, timestamp: '2026-01-01T00:00:00.000Z' })).toMatchObject({ id, timestamp: '2026-01-01T00:00:00.000Z' });
    expect(newEvent('t1', 'consent.recorded', data).id).not.toBe(newEvent('t1', 'consent.recorded', data).id);
  });
});

describe('changeOf', () => {
  it("unmarshalls a Lambda event's record, base64 binary attributes included, into bytes", () => {
    const record: DynamoDBRecord = {
      eventName: 'MODIFY',
      dynamodb: {
        SequenceNumber: '42',
        Keys: { PK: { S: 'A' }, SK: { S: 'B' } },
        NewImage: { PK: { S: 'A' }, SK: { S: 'B' }, n: { N: '3' }, bin: { B: Buffer.from([1, 2]).toString('base64') }, nested: { M: { list: { L: [{ B: Buffer.from([9]).toString('base64') }] } } } },
        OldImage: { PK: { S: 'A' }, SK: { S: 'B' }, n: { N: '2' } },
      },
    };
    const change = changeOf(record);
    expect(change).toMatchObject({ eventName: 'MODIFY', sequenceNumber: '42', keys: { PK: 'A', SK: 'B' }, oldImage: { n: 2 } });
    expect(change.newImage?.n).toBe(3);
    expect(change.newImage?.bin).toEqual(new Uint8Array([1, 2]));
    expect((change.newImage?.nested as { list: unknown[] }).list[0]).toEqual(new Uint8Array([9]));
  });

  it('keeps binary attributes that already are bytes (GetRecords)', () => {
    const image = marshall({ PK: 'A', SK: 'B', bin: new Uint8Array([7]) });
    const change = changeOf({ eventName: 'INSERT', dynamodb: { SequenceNumber: '1', Keys: image, NewImage: image } } as unknown as DynamoDBRecord);
    expect(change.newImage?.bin).toEqual(new Uint8Array([7]));
    expect(change.oldImage).toBeUndefined();
  });

  it("reads DynamoDB Local's bare {} (an empty map) as an empty map", () => {
    const image = { PK: { S: 'A' }, SK: { S: 'B' }, translations: {}, nested: { M: { inner: {} } } };
    const change = changeOf({ eventName: 'INSERT', dynamodb: { SequenceNumber: '1', Keys: {}, NewImage: image } } as unknown as DynamoDBRecord);
    expect(change.newImage).toEqual({ PK: 'A', SK: 'B', translations: {}, nested: { inner: {} } });
  });
});

describe('dispatchChanges', () => {
  const change = (sequenceNumber: string, type: string, eventName: StreamChange['eventName'] = 'INSERT'): StreamChange => ({
    eventName,
    sequenceNumber,
    keys: {},
    ...(eventName === 'REMOVE' ? { oldImage: { type } } : { newImage: { type } }),
  });
  const recorder = (itemTypes: string[], eventNames: StreamChange['eventName'][], seen: string[][], fail?: Error): StreamConsumer => ({
    name: itemTypes.join('+'),
    itemTypes,
    eventNames,
    handle: async (changes) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      seen.push(changes.map((item) => item.sequenceNumber));
      if (fail) throw fail;
    },
  });

  it('gives each consumer the changes of its item types and event names, in order', async () => {
    const a: string[][] = [];
    const b: string[][] = [];
    const none: string[][] = [];
    await dispatchChanges(
      [change('1', 'A'), change('2', 'B'), change('3', 'A', 'MODIFY'), change('4', 'A'), change('5', 'B', 'REMOVE')],
      [recorder(['A'], ['INSERT'], a), recorder(['B'], ['INSERT', 'REMOVE'], b), recorder(['C'], ['INSERT'], none)],
    );
    expect(a).toEqual([['1', '4']]);
    expect(b).toEqual([['2', '5']]);
    expect(none).toEqual([]);
  });

  it('rejects when a consumer throws, after the others finished', async () => {
    const failing: string[][] = [];
    const others: string[][] = [];
    const failure = new Error('boom');
    await expect(dispatchChanges([change('1', 'A')], [recorder(['A'], ['INSERT'], failing, failure), recorder(['A'], ['INSERT'], others)])).rejects.toMatchObject({ cause: failure });
    expect(others).toEqual([['1']]);
  });

  it("parks one tenant's changes when its handling fails, so the batch and every other tenant go on", async () => {
    vi.stubEnv('CMS_LOG_SILENT', '1');
    const ofTenant = (sequenceNumber: string, tenantId: string): StreamChange => ({ eventName: 'INSERT', sequenceNumber, keys: { PK: `TENANT#${tenantId}` }, newImage: { type: 'A', PK: `TENANT#${tenantId}` } });
    const handled: string[][] = [];
    const parked: { tenantId: string; changes: string[]; error: unknown }[] = [];
    const consumer: StreamConsumer = {
      name: 'isolated',
      itemTypes: ['A'],
      eventNames: ['INSERT'],
      handle: async (changes) => {
        if (changes.some((item) => item.newImage?.PK === 'TENANT#poison')) throw new Error('poison');
        handled.push(changes.map((item) => item.sequenceNumber));
      },
      park: async (tenantId, changes, error) => void parked.push({ tenantId, changes: changes.map((item) => item.sequenceNumber), error }),
    };
    await dispatchChanges([ofTenant('1', 'poison'), ofTenant('2', 'good'), ofTenant('3', 'poison'), ofTenant('4', 'other'), ofTenant('5', 'good')], [consumer]);
    expect(handled.sort()).toEqual([['2', '5'], ['4']]);
    expect(parked).toEqual([{ tenantId: 'poison', changes: ['1', '3'], error: expect.objectContaining({ message: 'poison' }) }]);
    // A change of no tenant cannot be parked, and a park that fails cannot keep it: both fail the batch.
    await expect(dispatchChanges([change('6', 'A')], [{ ...consumer, handle: async () => Promise.reject(new Error('tenantless')) }])).rejects.toMatchObject({ cause: { message: 'tenantless' } });
    await expect(dispatchChanges([ofTenant('7', 'poison')], [{ ...consumer, park: async () => Promise.reject(new Error('table down')) }])).rejects.toMatchObject({ cause: { message: 'table down' } });    vi.unstubAllEnvs();
  });

  it('tells the tenant of a change by its own tenantId or its TENANT# partition', () => {
    expect(tenantOfChange({ eventName: 'INSERT', sequenceNumber: '1', keys: {}, newImage: { PK: 'EVIDENCE#t9', tenantId: 't9' } })).toBe('t9');
    expect(tenantOfChange({ eventName: 'INSERT', sequenceNumber: '1', keys: {}, newImage: { PK: 'TENANT#t8', SK: 'RECORD#r' } })).toBe('t8');
    expect(tenantOfChange({ eventName: 'REMOVE', sequenceNumber: '1', keys: { PK: 'TENANT#t7' }, oldImage: { PK: 'TENANT#t7' } })).toBe('t7');
    expect(tenantOfChange({ eventName: 'INSERT', sequenceNumber: '1', keys: {}, newImage: { PK: 'STREAMTEST#x' } })).toBeUndefined();
  });

  it('registers the evidence log, consent.recorded, outbox, withdrawal, guardian request, breach acknowledgement and principal activity (decisions, rights requests) consumers', () => {
    expect(streamConsumers.map((consumer) => consumer.name)).toEqual(['evidence log', 'consent.recorded events', 'outbox', 'withdrawal completion', 'guardian requests', 'breach acknowledgements', 'principal activity', 'principal activity (rights requests)']);
    expect(new Set(streamConsumers.flatMap((consumer) => consumer.itemTypes))).toEqual(new Set(['ConsentRecord', 'WithdrawalRecord', 'LogDocument', 'OutboxMail', 'OutboxEvent', 'GuardianRequest', 'WebhookDelivery', 'RightsRequest', 'CheckpointRequest']));
  });
});
