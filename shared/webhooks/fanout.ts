import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { sha256Hex } from '../crypto/hash';
import { db, tableName } from '../db/client';
import { isConditionFailure } from '../db/errors';
import type { EventEnvelope } from '../events/outbox';
import { sendToQueue } from '../queue/sqs';
import { webhookKeys } from './keys';
import { listWebhooks } from './store';
import type { Delivery, Webhook } from './webhook';

export interface DeliveryMessage {
  key: { PK: string; SK: string };
  /** The attempt this message asks for, 1 to 5. */
  attempt: number;
  /** Epoch ms before which the attempt must not run (SQS delays are whole seconds, at most 15 minutes). */
  notBefore: number;
}

const queueUrl = (): string => {
  const url = config.webhookQueueUrl;
  if (!url) throw new Error('WEBHOOK_QUEUE_URL is not configured');
  return url;
};

export const scheduleAttempt = (message: DeliveryMessage, now = Date.now()) =>
  sendToQueue(queueUrl(), message, Math.max(0, message.notBefore - now) / 1000);

/** Same event and webhook, same delivery id: fanning out an event twice makes no second delivery. */
const deliveryIdOf = (eventId: string, webhookId: string) => {
  const hex = sha256Hex(`${eventId}|${webhookId}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/**
 * Records a PENDING delivery (idempotently) and queues its first attempt. A delivery that exists
 * already is queued again: the fan-out that wrote it may have died before queueing, and the
 * worker's attempt check drops the duplicate if not.
 */
export const enqueueDelivery = async (webhook: Webhook, event: EventEnvelope): Promise<void> => {
  const delivery: Delivery = {
    deliveryId: deliveryIdOf(event.id, webhook.webhookId),
    webhookId: webhook.webhookId,
    tenantId: webhook.tenantId,
    eventId: event.id,
    event: event.type,
    payload: JSON.stringify(event),
    status: 'PENDING',
    attempts: 0,
    statusCode: null,
    lastError: null,
    createdAt: event.timestamp,
    deliveredAt: null,
    failedAt: null,
    nextAttemptAt: event.timestamp,
  };
  const key = webhookKeys.delivery(webhook.tenantId, webhook.webhookId, delivery.createdAt, delivery.deliveryId);
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        // Kept 90 days; the API shows the last 50.
        Item: { ...key, ...webhookKeys.due(delivery.deliveryId, delivery.createdAt), type: 'WebhookDelivery', ...delivery, expiresAt: Math.floor(Date.parse(event.timestamp) / 1000) + 90 * 86_400 },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  await scheduleAttempt({ key, attempt: 1, notBefore: 0 });
};

/**
 * Whether a webhook is to get an event: active, subscribed to its type, and created at or before
 * the event happened. Fan-out reads the tenant's webhooks as they are when it runs, which may be
 * long after the event: a stream replayed from its trim horizon (the local stack after a restart),
 * a retried batch, an outbox item a drain picks up late. A webhook made since must not receive
 * what happened before it existed (a new receiver once got 83 old events after a restart).
 */
export const receives = (webhook: Webhook, event: EventEnvelope): boolean =>
  webhook.isActive && webhook.events.includes(event.type) && Date.parse(webhook.createdAt) <= Date.parse(event.timestamp);

/**
 * One delivery per webhook that receives each event (above). A tenant's webhooks are read once
 * per call: a stream batch of a hundred consents of one tenant is one query, not a hundred.
 */
export const fanOutEvents = async (events: readonly EventEnvelope[]): Promise<number> => {
  const webhooksOf = new Map<string, Promise<Webhook[]>>();
  let deliveries = 0;
  for (const event of events) {
    if (!webhooksOf.has(event.tenantId)) webhooksOf.set(event.tenantId, listWebhooks(event.tenantId));
    const targets = (await webhooksOf.get(event.tenantId)!).filter((webhook) => receives(webhook, event));
    for (const webhook of targets) await enqueueDelivery(webhook, event);
    deliveries += targets.length;
  }
  return deliveries;
};

export const fanOutEvent = (event: EventEnvelope): Promise<number> => fanOutEvents([event]);
