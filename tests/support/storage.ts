import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { db, setDocumentClient, tableName } from '../../shared/db/client';

const writeCommands = new Set([
  'PutCommand',
  'UpdateCommand',
  'DeleteCommand',
  'TransactWriteCommand',
  'BatchWriteCommand',
]);

/**
 * Swaps in a real client for the test engine whose writes fail (reads still work), so a test
 * can prove that a failed write never comes back as a 2xx. `restore` goes back to the default.
 */
export const failWrites = (options: { except?: (command: string) => boolean } = {}) => {
  const base = new DynamoDBClient({
    endpoint: process.env.DYNAMODB_ENDPOINT,
    region: process.env.AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const client = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? '');
      const isWrite = writeCommands.has(command) || ['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand'].includes(command);
      if (isWrite && !(options.except?.(command) ?? false)) {
        throw Object.assign(new Error('injected storage failure'), { name: 'InternalServerError' });
      }
      return next(args);
    },
    { step: 'initialize', name: 'failWrites' },
  );
  setDocumentClient(client);
  return { restore: () => setDocumentClient(undefined) };
};

/** Everything stored in a tenant's partition, as one digest (test-only read), to prove a refused request wrote nothing. */
export const tenantDigest = async (tenantId: string): Promise<string> => {
  const hash = createHash('sha256');
  let lastKey: Record<string, unknown> | undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await db().send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `TENANT#${tenantId}` }, ExclusiveStartKey: lastKey, ConsistentRead: true }),
    );
    for (const item of Items) hash.update(JSON.stringify(item));
    lastKey = LastEvaluatedKey;
  } while (lastKey);
  return hash.digest('hex');
};
