export type DeliveryStatus = 'PENDING' | 'SUCCESS' | 'FAILED' | 'RETRYING';

export interface Webhook {
  webhookId: string;
  tenantId: string;
  label: string;
  url: string;
  /** AES-GCM encrypted: it must be readable to sign, and is never returned. */
  secretEncrypted: string;
  events: string[];
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Delivery {
  deliveryId: string;
  webhookId: string;
  tenantId: string;
  eventId: string;
  event: string;
  /** The exact bytes sent and signed. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  statusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  failedAt: string | null;
  nextAttemptAt: string | null;
}

export const maxAttempts = 5;

export const webhookView = (webhook: Webhook) => ({
  id: webhook.webhookId,
  label: webhook.label,
  url: webhook.url,
  events: webhook.events,
  isActive: webhook.isActive,
  createdAt: webhook.createdAt,
  updatedAt: webhook.updatedAt,
});

/** Both shapes the spec gives for a delivery, in one. */
export const deliveryView = (delivery: Delivery) => ({
  id: delivery.deliveryId,
  event: delivery.event,
  eventId: delivery.eventId,
  status: delivery.status,
  statusCode: delivery.statusCode,
  attempts: delivery.attempts,
  attemptCount: delivery.attempts,
  deliveredAt: delivery.deliveredAt,
  succeededAt: delivery.deliveredAt,
  failedAt: delivery.failedAt,
  success: delivery.status === 'SUCCESS',
  lastError: delivery.lastError,
  nextAttemptAt: delivery.nextAttemptAt,
  createdAt: delivery.createdAt,
});
