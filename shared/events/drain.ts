import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client';
import { isConditionFailure } from '../db/errors';
import { describeError, log } from '../log';
import { sendMail } from '../mail/ses';
import type { Mail } from '../mail/outbox';
import { fanOutEvent } from '../webhooks/fanout';
import { outboxKeys, type OutboxKind } from './keys';
import type { EventEnvelope } from './outbox';

export interface OutboxItem {
  PK: string;
  SK: string;
  type: string;
  mail?: Mail;
  event?: EventEnvelope;
}

/**
 * Hands one outbox item on: a mail to SES, an event to one delivery per subscribed webhook. The
 * item leaves the pending index only after that succeeded.
 */
export const dispatchOutboxItem = async (item: OutboxItem): Promise<void> => {
  if (item.type === 'OutboxMail' && item.mail) await sendMail(item.mail);
  if (item.type === 'OutboxEvent' && item.event) await fanOutEvent(item.event);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: item.PK, SK: item.SK },
        UpdateExpression: 'REMOVE GSI1PK, GSI1SK SET dispatchedAt = :now',
        ConditionExpression: 'attribute_exists(GSI1PK)',
        ExpressionAttributeValues: { ':now': new Date().toISOString() },
      }),
    );
  } catch (error) {
    // Another drainer handed it on at the same time: delivery is at least once, never lost.
    if (!isConditionFailure(error)) throw error;
  }
};

/** Hands on up to `limit` pending items of a kind, oldest first; returns how many. */
export const drainOutbox = async (kind: OutboxKind, limit = 25): Promise<number> => {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': outboxKeys.pendingPartition(kind) },
      Limit: limit,
    }),
  );
  let handed = 0;
  for (const item of Items as OutboxItem[]) {
    try {
      await dispatchOutboxItem(item);
      handed += 1;
    } catch (error) {
      log.error('outbox item not handed on; it stays pending', { item: item.SK, ...describeError(error) });
    }
  }
  return handed;
};
