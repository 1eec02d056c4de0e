import type { StreamConsumer } from '../stream/consumer';
import { dispatchOutboxItem, type OutboxItem } from './drain';

/**
 * New outbox items from the table's stream: mails to SES, events to one delivery per subscribed
 * webhook, one after another in stream order. Handing on is idempotent (a mail is leased and sent
 * only while pending, deliveries are keyed by event), so a retried batch sends nothing twice.
 */
export const outboxConsumer: StreamConsumer = {
  name: 'outbox',
  itemTypes: ['OutboxMail', 'OutboxEvent'],
  eventNames: ['INSERT'],
  handle: async (changes) => {
    for (const change of changes) if (change.newImage) await dispatchOutboxItem(change.newImage as unknown as OutboxItem);
  },
  // Nothing to move: an item that was not handed on is still in the outbox's pending index, where
  // the drains (the stream sweeper in AWS, the local drain loops) retry it apart from the stream.
  park: async () => undefined,
};
