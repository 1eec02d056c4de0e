import { withdrawalConsumer } from '../consent/withdrawal-consumer';
import { recordedEventsConsumer } from '../consent/recorded-events';
import { outboxConsumer } from '../events/outbox-consumer';
import { evidenceLogConsumer } from '../evidence/log-consumer';
import type { StreamChange } from './change';

/**
 * Work derived from the table's change stream: in AWS the stream function (functions/stream),
 * locally the stream reader (infra/local/stream-reader.ts) feed the same consumers. A consumer
 * gets the changes of its item types (the `type` attribute of the new image, or of the old one for
 * a REMOVE) and event names, in stream order; it must be idempotent, as a failed batch comes again.
 */
export interface StreamConsumer {
  name: string;
  itemTypes: string[];
  eventNames: StreamChange['eventName'][];
  handle(changes: StreamChange[]): Promise<void>;
}

export const streamConsumers: StreamConsumer[] = [evidenceLogConsumer, recordedEventsConsumer, outboxConsumer, withdrawalConsumer];

const typeOf = (change: StreamChange): unknown => (change.newImage ?? change.oldImage)?.type;

/**
 * Gives each consumer its share of `changes`, the consumers side by side. One failing does not
 * stop the others; once all have finished, the first failure is thrown, so the whole batch is
 * retried (every consumer is idempotent).
 */
export const dispatchChanges = async (changes: StreamChange[], consumers: StreamConsumer[] = streamConsumers): Promise<void> => {
  const outcomes = await Promise.allSettled(
    consumers.map(async (consumer) => {
      const mine = changes.filter((change) => consumer.eventNames.includes(change.eventName) && consumer.itemTypes.includes(String(typeOf(change))));
      if (mine.length > 0) await consumer.handle(mine);
    }),
  );
  const failed = outcomes.flatMap((outcome, index) => (outcome.status === 'rejected' ? [{ consumer: consumers[index]!.name, reason: outcome.reason as unknown }] : []));
  if (failed.length === 0) return;
  const [first] = failed;
  throw new Error(`stream consumer${failed.length > 1 ? 's' : ''} failed: ${failed.map((failure) => failure.consumer).join(', ')}`, { cause: first!.reason });
};
