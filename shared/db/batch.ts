import { BatchGetCommand, BatchWriteCommand, type BatchWriteCommandInput } from './commands';
import { db, tableName } from './client';

type Key = Record<string, unknown>;
type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/** BatchGetItem takes at most 100 keys a request, BatchWriteItem 25 writes. */
const getBatchSize = 100;
const writeBatchSize = 25;

/**
 * What DynamoDB leaves unprocessed (throttling, the 16 MB answer limit) is asked for again, as
 * AWS advises, after a pause with full jitter (up to 50 ms, doubling to at most 2 s), and at most
 * `maxRounds` times; then the call fails rather than spin (an SDK error's retries are already spent
 * on a batch that keeps coming back half done).
 */
export const maxRounds = 8;
const pause = (round: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2000, 50 * 2 ** round)));

export class UnprocessedItemsError extends Error {
  constructor(operation: string, left: number) {
    super(`${operation}: DynamoDB left ${left} item(s) unprocessed after ${maxRounds} rounds`);
    this.name = 'UnprocessedItemsError';
  }
}

/** Sends `pending` until nothing is left, pausing before each round after the first. */
const untilProcessed = async <T>(operation: string, pending: T[], send: (pending: T[]) => Promise<T[] | undefined>): Promise<void> => {
  for (let round = 0; pending.length > 0; round += 1) {
    if (round >= maxRounds) throw new UnprocessedItemsError(operation, pending.length);
    if (round > 0) await pause(round);
    pending = (await send(pending)) ?? [];
  }
};

/**
 * The items at these keys, 100 keys a request, asking again for what DynamoDB left unprocessed.
 * Keys without an item are absent; order is not kept.
 */
export const batchGetAll = async (keys: readonly Key[], options: { consistent?: boolean } = {}): Promise<Key[]> => {
  const found: Key[] = [];
  for (let at = 0; at < keys.length; at += getBatchSize) {
    await untilProcessed('BatchGetItem', keys.slice(at, at + getBatchSize), async (pending) => {
      const response = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: options.consistent ?? false } } }));
      found.push(...(response.Responses?.[tableName()] ?? []));
      return response.UnprocessedKeys?.[tableName()]?.Keys;
    });
  }
  return found;
};

/** Puts and deletes, 25 a request, sending again what DynamoDB left unprocessed. */
export const batchWriteAll = async (requests: readonly WriteRequest[]): Promise<void> => {
  for (let at = 0; at < requests.length; at += writeBatchSize) {
    await untilProcessed('BatchWriteItem', requests.slice(at, at + writeBatchSize), async (pending) => {
      const { UnprocessedItems } = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      return UnprocessedItems?.[tableName()];
    });
  }
};
