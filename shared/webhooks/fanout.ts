import { mapWithConcurrency } from '../concurrency';
import { sha256Hex } from '../crypto/hash';
import type { EventEnvelope } from '../events/outbox';
import { instanceCache } from '../instance-cache';
import { attemptDelivery, scheduleAttempt } from './attempt';
import { webhookKeys } from './keys';
import { listWebhooks, putDeliveryOnce, storedDeliveries } from './store';
import type { Delivery, Webhook } from './webhook';

/** Same event and webhook, same delivery id: fanning out an event twice makes no second delivery. */
const deliveryIdOf = (eventId: string, webhookId: string) => {
  const hex = sha256Hex(`${eventId}|${webhookId}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/** A delivery of `event` to `webhook` before any attempt. */
const newDelivery = (webhook: Webhook, event: EventEnvelope): Delivery => ({
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
});

const keyOf = (delivery: Delivery) => webhookKeys.delivery(delivery.webhookId, delivery.createdAt, delivery.deliveryId);

/**
 * Records a PENDING delivery (idempotently, in the sweeper's due index) and queues its first
 * attempt for the webhook worker: for a test delivery asked for by the dashboard, whose request
 * should not wait for the receiver. A delivery that exists already is queued again: the request
 * that wrote it may have died before queueing, and the worker's attempt check drops the duplicate if not.
 */
export const enqueueDelivery = async (webhook: Webhook, event: EventEnvelope): Promise<void> => {
  const delivery = newDelivery(webhook, event);
  await putDeliveryOnce(delivery);
  await scheduleAttempt({ key: keyOf(delivery), attempt: 1, notBefore: 0 });
};

/**
 * Webhooks whose inline first attempt failed in the last minute, per warm instance: left to the
 * worker meanwhile. The fan-out runs inside the stream's batch, which other tenants' records wait
 * on: a receiver that is down or failing would otherwise hold every batch for a failed send each
 * (up to the send's 10 s timeout). So a failure hands the webhook's remaining and next events to
 * the worker's queue, and one batch a minute at most probes it again inline. A receiver that
 * answers 2xx slowly is not handed over: its successes are what the fan-out exists to record.
 */
const handedOver = instanceCache<true>(1000, () => 60_000);

/**
 * The first attempt, made by the fan-out itself, and the delivery written once, with its outcome.
 * Only a failed first attempt goes on to the retry queue (and the sweeper's due index, which the
 * RETRYING delivery carries). The stream batch or outbox item that holds the event is the durable
 * record until then: if this process dies between the send and the write, or the write fails, the
 * fan-out runs again (the stream retries the batch, or the outbox drain its event) and sends again,
 * with the same event id: at least once. A webhook handed over (above) gets its first attempt from
 * the worker instead.
 */
const deliverFirstAttempt = async (webhook: Webhook, event: EventEnvelope): Promise<void> => {
  if (handedOver.get(webhook.webhookId)) return enqueueDelivery(webhook, event);
  const delivery = newDelivery(webhook, event);
  const outcome = await attemptDelivery(webhook, delivery, 1);
  if (outcome.status !== 'SUCCESS') await handedOver.reload(webhook.webhookId, async () => true);
  const recorded = await putDeliveryOnce({ ...delivery, ...outcome, attempts: 1 });
  if (recorded && outcome.status === 'RETRYING') await scheduleAttempt({ key: keyOf(delivery), attempt: 2, notBefore: Date.parse(outcome.nextAttemptAt!) });
};

/** First attempts in flight at once per fan-out: a stream batch of 100 consents does not open 100 sockets together. */
const attemptsInFlight = 16;

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
 * One delivery per webhook that receives each event (above), its first attempt made here. A
 * tenant's webhooks are read once per call (a stream batch of a hundred consents of one tenant is
 * one query, not a hundred), and the deliveries already recorded are looked up in one consistent
 * BatchGetItem, so a replayed batch sends nothing twice that it had recorded.
 */
export const fanOutEvents = async (events: readonly EventEnvelope[]): Promise<number> => {
  const webhooksOf = new Map<string, Promise<Webhook[]>>();
  const targets: { webhook: Webhook; event: EventEnvelope }[] = [];
  for (const event of events) {
    if (!webhooksOf.has(event.tenantId)) webhooksOf.set(event.tenantId, listWebhooks(event.tenantId));
    for (const webhook of (await webhooksOf.get(event.tenantId)!).filter((candidate) => receives(candidate, event))) targets.push({ webhook, event });
  }
  if (targets.length === 0) return 0;
  const keys = targets.map(({ webhook, event }) => keyOf(newDelivery(webhook, event)));
  const stored = await storedDeliveries(keys);
  const due = targets.filter((_, index) => !stored.has(`${keys[index]!.PK}|${keys[index]!.SK}`));
  await mapWithConcurrency(due, attemptsInFlight, ({ webhook, event }) => deliverFirstAttempt(webhook, event));
  return targets.length;
};

export const fanOutEvent = (event: EventEnvelope): Promise<number> => fanOutEvents([event]);
