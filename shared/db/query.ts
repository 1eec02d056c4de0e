import { QueryCommand, type QueryCommandInput } from './commands';
import { db, tableName } from './client';

/**
 * Every item of one key range, following LastEvaluatedKey. Only for collections bounded by
 * design (a tenant's purposes, notices, a lineage's versions); unbounded ones page by cursor.
 * With `limit`, it stops once it has that many (the first N in the range's order).
 */
export const queryAll = async (
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
  options: { limit?: number } = {},
): Promise<Record<string, unknown>[]> => {
  const { limit } = options;
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: startKey, ...(limit ? { Limit: limit - items.length } : {}) }),
    );
    items.push(...(page.Items ?? []));
    startKey = limit && items.length >= limit ? undefined : page.LastEvaluatedKey;
  } while (startKey);
  return items;
};

/** The items of a partition whose sort key starts with `prefix`. */
export const queryPrefix = (partitionKey: string, prefix: string, options: { newestFirst?: boolean; consistent?: boolean } = {}) =>
  queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': partitionKey, ':prefix': prefix },
    ScanIndexForward: !options.newestFirst,
    ...(options.consistent ? { ConsistentRead: true } : {}),
  });

/**
 * The items due by `now` in every shard of a due index (GSI2, sort key a time): one page of at
 * most `limit` per shard, queried at once; a sweep that needs more runs again.
 */
export const dueInShards = async (shards: number, partitionOf: (shard: number) => string, now: string, limit: number): Promise<Record<string, unknown>[]> =>
  (
    await Promise.all(
      Array.from({ length: shards }, async (_, shard) => {
        const { Items = [] } = await db().send(
          new QueryCommand({
            TableName: tableName(),
            IndexName: 'GSI2',
            KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK <= :now',
            ExpressionAttributeValues: { ':pk': partitionOf(shard), ':now': `${now}~` },
            Limit: limit,
          }),
        );
        return Items;
      }),
    )
  ).flat();
