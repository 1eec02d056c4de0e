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
export const queryPrefix = (partitionKey: string, prefix: string, options: { newestFirst?: boolean } = {}) =>
  queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': partitionKey, ':prefix': prefix },
    ScanIndexForward: !options.newestFirst,
  });
