import type { StreamChange } from './change';

/**
 * Work derived from the table's change stream: in AWS the stream function (functions/stream),
 * locally the stream reader (infra/local/stream-reader.ts) feed the same consumers. A consumer
 * gets the changes of its item types (the `type` attribute of the new image, or of the old one for
 * a REMOVE) and event names, in stream order, one tenant's at a time; it must be idempotent, as a
 * failed batch comes again.
 */
export interface StreamConsumer {
  name: string;
  itemTypes: string[];
  eventNames: StreamChange['eventName'][];
  handle(changes: StreamChange[]): Promise<void>;
  /**
   * Keeps one tenant's changes whose handling failed where this consumer's retry apart from the
   * stream will find them (a parked list, the outbox's pending index, the pending withdrawals), so
   * that one tenant's fault does not hold the stream, and so every other tenant, up. Throws only if
   * they cannot be kept; then the batch fails and comes again. A consumer without it fails the batch.
   */
  park?(tenantId: string, changes: StreamChange[], error: unknown): Promise<void>;
}
