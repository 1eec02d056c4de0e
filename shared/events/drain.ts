import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '../db/commands';
import { db, tableName } from '../db/client';
import { isConditionFailure } from '../db/errors';
import { clock } from '../clock';
import { describeError, log } from '../log';
import { sendMail } from '../mail/ses';
import { withSafeHeaders } from '../mail/headers';
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

const leaseMs = 60_000;

/**
 * Takes a mail for this drainer before sending it: two drainers (the stream retrying, or several
 * local loops) may hold the same pending item, and unlike a webhook delivery (keyed by event, so
 * fanned out once) a mail sent twice arrives twice. The lease is a small item of its own; once it
 * is held, the mail is sent only if it is still pending, so a drainer that read it before another
 * finished sends nothing. A drainer dying mid-send leaves the mail to the next one after the lease.
 */
const leaseMail = async (item: OutboxItem): Promise<boolean> => {
  const now = Date.now();
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...outboxKeys.lease(item), type: 'OutboxLease', leaseUntil: now + leaseMs, expiresAt: Math.floor(now / 1000) + 86_400 },
        ConditionExpression: 'attribute_not_exists(PK) OR leaseUntil < :now',
        ExpressionAttributeValues: { ':now': now },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: item.PK, SK: item.SK }, ConsistentRead: true }));
  return Item?.GSI1PK !== undefined;
};

/**
 * Hands one outbox item on: a mail to SES (once, under a lease), an event to one delivery per
 * subscribed webhook. The item leaves the pending index only after that succeeded.
 */
export const dispatchOutboxItem = async (item: OutboxItem): Promise<void> => {
  if (item.type === 'OutboxMail' && item.mail) {
    if (!(await leaseMail(item))) return;
    try {
      // Made safe again here: a mail queued before headers were made safe at queueing (mail/headers.ts).
      await sendMail(withSafeHeaders(item.mail));
    } catch (error) {
      // Not sent: free the lease at once, so the retry that follows this failure may send it.
      await db().send(new DeleteCommand({ TableName: tableName(), Key: outboxKeys.lease(item) }));
      throw error;
    }
  }
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

/** A failed item waits a minute, doubling with each failure up to an hour. */
const retryDelayMs = (failures: number) => Math.min(3_600_000, 60_000 * 2 ** Math.max(0, failures - 1));

/**
 * Moves an item the drainer failed to hand on behind every fresh one, due again after a backoff.
 * Only while it is still pending: one handed on meanwhile by someone else stays handed on.
 */
const deferItem = async (item: OutboxItem & { drainFailures?: number }, now: Date): Promise<void> => {
  const failures = Number(item.drainFailures ?? 0) + 1;
  const retryAt = new Date(now.getTime() + retryDelayMs(failures)).toISOString();
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: item.PK, SK: item.SK },
        UpdateExpression: 'SET GSI1SK = :due, drainFailures = :failures',
        ConditionExpression: 'attribute_exists(GSI1PK)',
        ExpressionAttributeValues: { ':due': outboxKeys.deferred(retryAt, item.SK).GSI1SK, ':failures': failures },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};

/**
 * How long a drain leaves a fresh item of each kind to the stream. An event's fan-out sends its
 * first attempts before it records the deliveries (shared/webhooks/fanout.ts), so a drain and the
 * stream fanning out one event at the same moment would both send it. The stream hands a new item
 * on within seconds; what is still pending after this long is the stream's failure, the drain's to
 * retry. A mail needs no wait: its lease (above) already makes two drainers send it once.
 */
export const streamFirstMs: Record<OutboxKind, number> = { EVENT: 30_000, MAIL: 0 };

const pendingQuery = (kind: OutboxKind, limit: number, range: Pick<QueryCommandInput, 'KeyConditionExpression' | 'ExpressionAttributeValues'>) =>
  db().send(new QueryCommand({ TableName: tableName(), IndexName: 'GSI1', Limit: limit, ...range }));

/**
 * Hands on up to `limit` pending items of a kind, oldest first (events only once the stream has had
 * its time with them, `streamFirstMs`), then up to `limit` earlier failures
 * that are due again; returns how many it handed on. An item that fails again is deferred, so a
 * poison item (one tenant's) never keeps the drain from the rest. `accept` leaves items to other
 * drainers (test files sharing one table each drain only their own tenants').
 */
export const drainOutbox = async (kind: OutboxKind, limit = 25, accept: (item: OutboxItem) => boolean = () => true): Promise<number> => {
  const now = clock.now();
  const partition = outboxKeys.pendingPartition(kind);
  const [fresh, due] = await Promise.all([
    pendingQuery(kind, limit, {
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK < :before',
      // Fresh items sort by the time they were written; '~' (deferred ones) after every time.
      ExpressionAttributeValues: { ':pk': partition, ':before': streamFirstMs[kind] > 0 ? new Date(now.getTime() - streamFirstMs[kind]).toISOString() : outboxKeys.deferredPrefix },
    }),
    pendingQuery(kind, limit, {
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :deferred AND :now',
      ExpressionAttributeValues: { ':pk': partition, ':deferred': outboxKeys.deferredPrefix, ':now': `${outboxKeys.deferredPrefix}${now.toISOString()}~` },
    }),
  ]);
  let handed = 0;
  for (const item of [...(fresh.Items ?? []), ...(due.Items ?? [])].map((found) => found as OutboxItem).filter(accept)) {
    try {
      await dispatchOutboxItem(item);
      handed += 1;
    } catch (error) {
      log.error('outbox item not handed on; it stays pending and is retried later', { item: item.SK, ...describeError(error) });
      await deferItem(item, now);
    }
  }
  return handed;
};
