import { BatchGetCommand, type BatchGetCommandOutput } from './commands';
import { db, tableName } from './client';

type Key = Record<string, unknown>;

/** BatchGetItem takes at most 100 keys a request. */
const batchSize = 100;

/**
 * The items at these keys, 100 keys a request, asking again for what DynamoDB left unprocessed
 * (throttling, the 16 MB response limit). Keys without an item are absent; order is not kept.
 */
export const batchGetAll = async (keys: readonly Key[], options: { consistent?: boolean } = {}): Promise<Key[]> => {
  const found: Key[] = [];
  for (let at = 0; at < keys.length; at += batchSize) {
    let pending: Key[] | undefined = keys.slice(at, at + batchSize);
    while (pending && pending.length > 0) {
      const response: BatchGetCommandOutput = await db().send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: options.consistent ?? false } } }),
      );
      found.push(...(response.Responses?.[tableName()] ?? []));
      pending = response.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return found;
};
