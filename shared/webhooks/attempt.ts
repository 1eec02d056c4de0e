import { deliveryConfig, engineConfig } from '../config';
import { decryptSecret } from '../crypto/secret-box';
import { sendToQueue } from '../queue/sqs';
import { sendWebhook } from './destination';
import { signWebhookBody } from './signature';
import { maxAttempts, type Delivery, type Webhook } from './webhook';

/** An attempt of a delivery for the webhook worker, by the delivery's key. */
export interface DeliveryMessage {
  key: { PK: string; SK: string };
  /** The attempt this message asks for, 1 to 5. */
  attempt: number;
  /** Epoch ms before which the attempt must not run (SQS delays are whole seconds, at most 15 minutes). */
  notBefore: number;
}

const queueUrl = (): string => {
  const url = engineConfig.webhookQueueUrl;
  if (!url) throw new Error('WEBHOOK_QUEUE_URL is not configured');
  return url;
};

export const scheduleAttempt = (message: DeliveryMessage, now = Date.now()) =>
  sendToQueue(queueUrl(), message, Math.max(0, message.notBefore - now) / 1000);

/** Wait before attempt n+1 after attempt n failed: base × 2^(n-1), the spec's 5, 10, 20, 40 s. */
export const retryDelayMs = (attemptsMade: number): number => deliveryConfig.webhookRetryBaseMs * 2 ** (attemptsMade - 1);

/** What an attempt comes to: the delivery's status and fields after it (the attempt count is the caller's). */
export type AttemptOutcome = Pick<Delivery, 'status' | 'statusCode' | 'lastError' | 'nextAttemptAt'> & Partial<Pick<Delivery, 'deliveredAt' | 'failedAt'>>;

/**
 * Attempt number `attempt` of a delivery: the signed POST (through the address policy, within the
 * timeout), and the outcome: SUCCESS on a 2xx, FAILED after the last attempt, else RETRYING with
 * the time of the next.
 */
export const attemptDelivery = async (webhook: Webhook, delivery: Pick<Delivery, 'payload' | 'event'>, attempt: number): Promise<AttemptOutcome> => {
  const result = await sendWebhook(
    webhook.url,
    delivery.payload,
    {
      'X-Service-Signature': signWebhookBody(delivery.payload, decryptSecret(webhook.secretEncrypted)),
      'X-Service-Timestamp': String(Date.now()),
      'X-Service-Event': delivery.event,
    },
    { timeoutMs: deliveryConfig.webhookTimeoutMs, allowLocal: engineConfig.isLocal },
  );
  const now = new Date();
  if (result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300) {
    return { status: 'SUCCESS', statusCode: result.statusCode, deliveredAt: now.toISOString(), lastError: null, nextAttemptAt: null };
  }
  const lastError = result.error ?? `receiver answered ${result.statusCode}`;
  if (attempt >= maxAttempts) return { status: 'FAILED', statusCode: result.statusCode, failedAt: now.toISOString(), lastError, nextAttemptAt: null };
  return { status: 'RETRYING', statusCode: result.statusCode, lastError, nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempt)).toISOString() };
};
