import { PutCommand, UpdateCommand } from '../db/commands';
import { deliveryConfig } from '../config';
import { db, tableName } from '../db/client';
import { isConditionFailure } from '../db/errors';
import { attemptDelivery, scheduleAttempt, type DeliveryMessage } from './attempt';
import { webhookKeys } from './keys';
import { getDelivery, getWebhook } from './store';
import type { Delivery } from './webhook';

/** The longest wait a worker spends itself instead of handing the message back to the queue. */
const inlineWaitMs = 1000;

/**
 * Records an attempt's outcome, and keeps the delivery's place in the sweeper's due index in step:
 * moved to the next attempt's time while RETRYING, removed once SUCCESS or FAILED.
 */
const recordOutcome = async (message: DeliveryMessage, delivery: Delivery, changes: Partial<Delivery>): Promise<boolean> => {
  const due = changes.status === 'RETRYING' && changes.nextAttemptAt ? webhookKeys.due(delivery.deliveryId, changes.nextAttemptAt) : {};
  const entries = Object.entries({ ...changes, ...due, attempts: message.attempt });
  const closed = changes.status === 'SUCCESS' || changes.status === 'FAILED';
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: message.key,
        UpdateExpression: `SET ${entries.map((_, index) => `#f${index} = :v${index}`).join(', ')}${closed ? ' REMOVE GSI2PK, GSI2SK' : ''}`,
        // Only the attempt this message was for: a duplicate message cannot record twice.
        ConditionExpression: 'attempts = :previous',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#f${index}`, name])),
        ExpressionAttributeValues: { ...Object.fromEntries(entries.map(([, value], index) => [`:v${index}`, value])), ':previous': message.attempt - 1 },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/**
 * Takes attempt n of a delivery for this worker before sending it, with a small claim item of its
 * own (rewriting the delivery would rewrite its due-index entry too). The same message can arrive
 * twice at once (SQS delivers at least once, the sweeper may re-queue it, a batch can hold both);
 * without the claim both copies would send, and only the outcome would be deduplicated. The claim
 * lapses after the send's timeout and a margin, so a worker that dies mid-send does not hold the
 * attempt for ever: the redelivered message (after the queue's visibility timeout) takes it over.
 */
const claimAttempt = async (message: DeliveryMessage): Promise<boolean> => {
  const now = Date.now();
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...webhookKeys.attemptClaim(message.key, message.attempt),
          type: 'DeliveryClaim',
          claimedUntil: now + deliveryConfig.webhookTimeoutMs + claimMarginMs,
          expiresAt: Math.floor(now / 1000) + 86_400,
        },
        ConditionExpression: 'attribute_not_exists(PK) OR claimedUntil < :now',
        ExpressionAttributeValues: { ':now': now },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

const claimMarginMs = 20_000;

/**
 * Runs one attempt of one delivery. Throwing means "retry this message" (SQS redelivers it);
 * returning means done with it. Every step can be repeated: the attempt number on the delivery
 * decides whether the attempt already ran, and a retry that was recorded but not yet queued is
 * queued again.
 */
export const processDeliveryMessage = async (message: DeliveryMessage): Promise<void> => {
  const wait = message.notBefore - Date.now();
  if (wait > inlineWaitMs) return scheduleAttempt(message);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));

  const delivery = await getDelivery(message.key);
  if (!delivery || delivery.status === 'SUCCESS' || delivery.status === 'FAILED') return;
  if (delivery.attempts >= message.attempt) {
    if (delivery.attempts === message.attempt && delivery.status === 'RETRYING') {
      return scheduleAttempt({ key: message.key, attempt: message.attempt + 1, notBefore: Date.parse(delivery.nextAttemptAt ?? '') || 0 });
    }
    return;
  }

  const webhook = await getWebhook(delivery.tenantId, delivery.webhookId);
  if (!webhook) return;
  if (!webhook.isActive && delivery.event !== 'webhook.test') {
    await recordOutcome(message, delivery, { status: 'FAILED', failedAt: new Date().toISOString(), lastError: 'webhook is inactive', nextAttemptAt: null });
    return;
  }
  // Another copy of this message holds the attempt; it records the outcome (or its claim lapses).
  if (!(await claimAttempt(message))) return;
  const outcome = await attemptDelivery(webhook, delivery, message.attempt);
  const recorded = await recordOutcome(message, delivery, outcome);
  if (recorded && outcome.status === 'RETRYING') await scheduleAttempt({ key: message.key, attempt: message.attempt + 1, notBefore: Date.parse(outcome.nextAttemptAt!) });
};
