import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand } from '../shared/db/commands';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemSize } from '../bench/capacity';
import { db, tableName } from '../shared/db/client';
import { dispatchOutboxItem, drainOutbox, streamFirstMs, type OutboxItem } from '../shared/events/drain';
import { eventIdFor, keepInOutbox, newEvent } from '../shared/events/outbox';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { sqs } from '../infra/local/sqs';
import type { DeliveryMessage } from '../shared/webhooks/attempt';
import { fanOutEvents } from '../shared/webhooks/fanout';
import { webhookKeys } from '../shared/webhooks/keys';
import { processDeliveryMessage } from '../shared/webhooks/worker';
import { newTenant, useApi } from './support/api';
import { sha256 } from './support/consent';
import { startReceiver } from './support/receiver';
import { failWrites } from './support/storage';

/**
 * The fan-out makes a delivery's first attempt itself and writes the delivery once, with its
 * outcome: about one write unit when the receiver answers 2xx, nothing queued, nothing in the
 * sweeper's due index. Only a failed first attempt goes to the retry queue. No worker runs in this
 * file: the fan-out is called as the stream's consumer calls it, and the queue is its own.
 */
const { call } = useApi();
const originalQueue = process.env.WEBHOOK_QUEUE_URL;
beforeAll(async () => {
  process.env.WEBHOOK_QUEUE_URL = String((await sqs().send(new CreateQueueCommand({ QueueName: `fanout-${randomUUID()}` }))).QueueUrl);
});
afterAll(() => {
  process.env.WEBHOOK_QUEUE_URL = originalQueue;
});

const queued = async (): Promise<DeliveryMessage[]> => {
  const { Messages = [] } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: process.env.WEBHOOK_QUEUE_URL, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
  return Messages.map((message) => JSON.parse(message.Body ?? '{}') as DeliveryMessage);
};

/** A consent.recorded event as the stream's consumer makes it: three purposes, a principal hash. */
const consentEvent = (tenantId: string) => {
  const recordId = randomUUID();
  const at = new Date().toISOString();
  return newEvent(
    tenantId,
    'consent.recorded',
    {
      consentRecordId: recordId,
      dataPrincipalHash: sha256(`${recordId}@example.in`),
      consents: { [randomUUID()]: true, [randomUUID()]: false, [randomUUID()]: true },
      noticeId: randomUUID(),
      noticeVersionId: `${randomUUID()}:12`,
      noticeVersionNumber: 12,
      recordedAt: at,
    },
    { id: eventIdFor('consent.recorded', recordId), timestamp: at },
  );
};

const setup = async (respond: Parameters<typeof startReceiver>[0]) => {
  const tenant = await newTenant(call);
  const receiver = await startReceiver(respond);
  const hook = await call('POST', '/api/v1/webhooks', { token: tenant.token, body: { label: 'Receiver', url: receiver.url, secret: 'whsec_test_secret_0123456789', events: ['consent.recorded'] } });
  expect(hook.status).toBe(201);
  const webhookId = hook.body.data.id as string;
  const history = async () => (await call('GET', `/api/v1/webhooks/${webhookId}/deliveries`, { token: tenant.token })).body.data as Record<string, unknown>[];
  const storedItem = async (delivery: Record<string, unknown>) =>
    (await db().send(new GetCommand({ TableName: tableName(), Key: webhookKeys.delivery(webhookId, String(delivery.createdAt), String(delivery.id)), ConsistentRead: true }))).Item;
  return { tenant, receiver, webhookId, history, storedItem };
};

describe('the fan-out makes the first attempt', () => {
  it('writes a delivery whose first attempt succeeded once, under 1 KB, with nothing queued and no due entry', async () => {
    const { tenant, receiver, history, storedItem } = await setup(() => ({ status: 204 }));
    try {
      const event = consentEvent(tenant.tenantId);
      expect(await fanOutEvents([event])).toBe(1);
      expect(receiver.received).toHaveLength(1);
      expect(JSON.parse(receiver.received[0]!.rawBody.toString()).id).toBe(event.id);
      const [delivery] = await history();
      // The history's shape is the one it always had.
      expect(delivery).toEqual({
        id: expect.any(String),
        event: 'consent.recorded',
        eventId: event.id,
        status: 'SUCCESS',
        statusCode: 204,
        attempts: 1,
        attemptCount: 1,
        deliveredAt: expect.any(String),
        succeededAt: expect.any(String),
        failedAt: null,
        success: true,
        lastError: null,
        nextAttemptAt: null,
        createdAt: event.timestamp,
      });
      const item = (await storedItem(delivery!))!;
      expect(itemSize(item)).toBeLessThan(1024);
      expect(item).not.toHaveProperty('GSI2PK');
      expect(await queued()).toEqual([]);
      // A replay of the same events (a retried stream batch) sends nothing it had recorded.
      await fanOutEvents([event]);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('puts a failed first attempt in the retry queue and the due index, and the worker finishes it', async () => {
    process.env.WEBHOOK_RETRY_BASE_MS = '10';
    const { tenant, receiver, history, storedItem } = await setup((_request, index) => ({ status: index === 0 ? 503 : 200 }));
    try {
      const event = consentEvent(tenant.tenantId);
      await fanOutEvents([event]);
      const [retrying] = await history();
      expect(retrying).toMatchObject({ status: 'RETRYING', attempts: 1, statusCode: 503, nextAttemptAt: expect.any(String) });
      expect((await storedItem(retrying!))?.GSI2PK).toMatch(/^DELIVERIES#DUE#/);
      const messages = await queued();
      expect(messages).toEqual([expect.objectContaining({ attempt: 2 })]);
      await processDeliveryMessage(messages[0]!);
      const [done] = await history();
      expect(done).toMatchObject({ status: 'SUCCESS', attempts: 2, statusCode: 200 });
      expect(await storedItem(done!)).not.toHaveProperty('GSI2PK');
      expect(new Set(receiver.received.map((entry) => JSON.parse(entry.rawBody.toString()).id))).toEqual(new Set([event.id]));
    } finally {
      delete process.env.WEBHOOK_RETRY_BASE_MS;
      await receiver.close();
    }
  });

  it('sends again, with the same event id, when the delivery could not be recorded after the send', async () => {
    const { tenant, receiver, history } = await setup(() => ({ status: 200 }));
    try {
      const event = consentEvent(tenant.tenantId);
      // The process "dies" between sending and recording: the write fails, the fan-out fails, and
      // its batch (or outbox item) is handled again.
      const storage = failWrites();
      try {
        await expect(fanOutEvents([event])).rejects.toThrow(/injected storage failure/);
      } finally {
        storage.restore();
      }
      expect(receiver.received).toHaveLength(1);
      expect(await history()).toEqual([]);
      await fanOutEvents([event]);
      expect(receiver.received.map((entry) => JSON.parse(entry.rawBody.toString()).id)).toEqual([event.id, event.id]);
      expect(await history()).toEqual([expect.objectContaining({ eventId: event.id, status: 'SUCCESS', attempts: 1 })]);
    } finally {
      await receiver.close();
    }
  });

  it('hands a failing webhook to the worker: one wave of inline attempts, then its events queued for a minute, while a healthy webhook is still attempted inline', async () => {
    const { tenant, receiver, history } = await setup(() => ({ status: 503 }));
    const healthy = await startReceiver(() => ({ status: 200 }));
    try {
      const hook = await call('POST', '/api/v1/webhooks', { token: tenant.token, body: { label: 'Healthy', url: healthy.url, secret: 'whsec_test_secret_0123456789', events: ['consent.recorded'] } });
      expect(hook.status).toBe(201);
      const events = Array.from({ length: 24 }, () => consentEvent(tenant.tenantId));
      await fanOutEvents(events);
      // The first wave (at most the 16 attempts in flight) reaches the failing receiver; what is
      // left waits for the worker instead of holding the stream batch for more failures.
      const inline = receiver.received.length;
      expect(inline).toBeGreaterThanOrEqual(1);
      expect(inline).toBeLessThanOrEqual(16);
      const statuses = (await history()).map((delivery) => `${String(delivery.status)}/${String(delivery.attempts)}`);
      expect(statuses.filter((status) => status === 'RETRYING/1')).toHaveLength(inline);
      expect(statuses.filter((status) => status === 'PENDING/0')).toHaveLength(24 - inline);
      // The next batch within the minute makes no inline attempt to it at all.
      await fanOutEvents(Array.from({ length: 4 }, () => consentEvent(tenant.tenantId)));
      expect(receiver.received).toHaveLength(inline);
      expect((await history()).filter((delivery) => delivery.status === 'PENDING')).toHaveLength(28 - inline);
      // The healthy webhook got every event from the fan-out itself.
      expect(healthy.received).toHaveLength(28);
    } finally {
      await healthy.close();
      await receiver.close();
    }
  });

  it('keeps a delivery written before the shards in the history, and its queued attempt still runs', async () => {
    const { tenant, receiver, webhookId, history } = await setup(() => ({ status: 200 }));
    try {
      const older = consentEvent(tenant.tenantId);
      const createdAt = new Date(Date.now() - 60_000).toISOString();
      const deliveryId = randomUUID();
      // As the unsharded store wrote a PENDING delivery: every field, under the tenant's partition.
      const legacyKey = { PK: `TENANT#${tenant.tenantId}`, SK: `DELIVERY#${webhookId}#${createdAt}#${deliveryId}` };
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...legacyKey,
            ...webhookKeys.due(deliveryId, createdAt),
            type: 'WebhookDelivery',
            deliveryId, webhookId, tenantId: tenant.tenantId, eventId: older.id, event: older.type, payload: JSON.stringify({ ...older, timestamp: createdAt }),
            status: 'PENDING', attempts: 0, statusCode: null, lastError: null, createdAt, deliveredAt: null, failedAt: null, nextAttemptAt: createdAt,
          },
        }),
      );
      const newer = consentEvent(tenant.tenantId);
      await fanOutEvents([newer]);
      expect((await history()).map((delivery) => delivery.eventId)).toEqual([newer.id, older.id]);
      await processDeliveryMessage({ key: legacyKey, attempt: 1, notBefore: 0 });
      expect((await history()).map((delivery) => delivery.status)).toEqual(['SUCCESS', 'SUCCESS']);
    } finally {
      await receiver.close();
    }
  });

  it('leaves a fresh event to the stream, so a drain at the same moment sends nothing twice; one the stream left pending is the drain\'s, once', async () => {
    const { tenant, receiver } = await setup(() => ({ status: 204 }));
    const ours = (item: OutboxItem) => item.PK === `TENANT#${tenant.tenantId}`;
    // Other files leave events pending in the same outbox index (this one runs no workers): a drain
    // page large enough to hold them all reaches this tenant's, which sort after them.
    const everyPending = 1000;
    const pending = async (event: ReturnType<typeof consentEvent>) => {
      await keepInOutbox(event);
      return (await db().send(new GetCommand({ TableName: tableName(), Key: { PK: `TENANT#${tenant.tenantId}`, SK: `OUTBOX#${event.id}` }, ConsistentRead: true }))).Item as OutboxItem;
    };
    try {
      // The stream hands a new event on while a drain runs: the fan-out sends before it records, so only one of them may take it.
      const fresh = consentEvent(tenant.tenantId);
      const [, drained] = await Promise.all([dispatchOutboxItem(await pending(fresh)), drainOutbox('EVENT', everyPending, ours)]);
      expect(drained).toBe(0);
      expect(receiver.received.map((entry) => JSON.parse(entry.rawBody.toString()).id)).toEqual([fresh.id]);

      // An event the stream failed to hand on is still pending once its time is up: the drain sends it, once.
      const left = consentEvent(tenant.tenantId);
      await pending(left);
      expect(await drainOutbox('EVENT', everyPending, ours)).toBe(0);
      setClock(offsetClock(streamFirstMs.EVENT + 1000));
      expect(await drainOutbox('EVENT', everyPending, ours)).toBe(1);
      expect(await drainOutbox('EVENT', everyPending, ours)).toBe(0);
      expect(receiver.received.map((entry) => JSON.parse(entry.rawBody.toString()).id)).toEqual([fresh.id, left.id]);
    } finally {
      resetClock();
      await receiver.close();
    }
  });
});
