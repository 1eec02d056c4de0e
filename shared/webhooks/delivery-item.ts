import { entityOf } from '../db/item';
import { logRetentionDays } from '../retention/third-schedule';
import { webhookKeys } from './keys';
import type { Delivery } from './webhook';

/**
 * How a delivery is stored: written once with its first attempt's outcome, and under 1 KB for a
 * typical consent.recorded, so that a delivery whose first attempt succeeds costs one write unit
 * (tests/webhook-fanout.test.ts holds one to it). What the keys and the payload already hold is
 * derived from them rather than stored twice: webhook id, creation time and delivery id from the
 * keys, event id, type and tenant from the signed payload; fields still null are left out. Only an
 * open delivery (waiting for a retry, or a queued test) carries the sweeper's due-index keys.
 * Deliveries from before this layout stored every field, and read as they are.
 */
type Item = Record<string, unknown>;

/**
 * Kept a year: a delivery is a log of the processing (what was sent to which system, and its
 * answer), which rules 6(1)(e) and 8(3) keep a year from the processing. The API shows the last 50.
 */
export const deliveryRetentionSeconds = logRetentionDays * 86_400;

export const deliveryItem = (delivery: Delivery): Item => {
  const optional = { statusCode: delivery.statusCode, lastError: delivery.lastError, deliveredAt: delivery.deliveredAt, failedAt: delivery.failedAt, nextAttemptAt: delivery.nextAttemptAt };
  const open = delivery.status === 'PENDING' || delivery.status === 'RETRYING';
  return {
    ...webhookKeys.delivery(delivery.webhookId, delivery.createdAt, delivery.deliveryId),
    ...(open && delivery.nextAttemptAt ? webhookKeys.due(delivery.deliveryId, delivery.nextAttemptAt) : {}),
    type: 'WebhookDelivery',
    payload: delivery.payload,
    status: delivery.status,
    attempts: delivery.attempts,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== null)),
    expiresAt: Math.floor(Date.parse(delivery.createdAt) / 1000) + deliveryRetentionSeconds,
  };
};

const orNull = <T>(value: unknown): T | null => (value === undefined || value === null ? null : (value as T));

/** A stored delivery, either layout, as the domain's delivery. */
export const deliveryOf = (item: Item): Delivery => {
  if (typeof item.deliveryId === 'string') return entityOf<Delivery>(item);
  const [, createdAt, deliveryId] = /^DELIVERY#(.+)#([^#]+)$/.exec(String(item.SK)) ?? [];
  const [, webhookId] = /^HOOK#(.+)#[0-9a-f]+$/.exec(String(item.PK)) ?? [];
  if (!createdAt || !deliveryId || !webhookId) throw new Error(`not a delivery: ${String(item.PK)} ${String(item.SK)}`);
  const envelope = JSON.parse(String(item.payload)) as { id: string; type: string; tenantId: string };
  return {
    deliveryId,
    webhookId,
    tenantId: envelope.tenantId,
    eventId: envelope.id,
    event: envelope.type,
    payload: String(item.payload),
    status: item.status as Delivery['status'],
    attempts: Number(item.attempts),
    statusCode: orNull<number>(item.statusCode),
    lastError: orNull<string>(item.lastError),
    createdAt,
    deliveredAt: orNull<string>(item.deliveredAt),
    failedAt: orNull<string>(item.failedAt),
    nextAttemptAt: orNull<string>(item.nextAttemptAt),
  };
};
