import { createHash } from 'node:crypto';
import { QueryCommand } from '../../shared/db/commands';
import { createDocumentClient, db, setDocumentClient, tableName } from '../../shared/db/client';

/** DynamoDB's operations that write. */
const writeOperations = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem']);

/**
 * Swaps in a real client for the test engine whose writes fail (reads still work), so a test
 * can prove that a failed write never comes back as a 2xx. The failure is SDK middleware of the
 * initialize step, before the SDK's retries, so nothing is sent for a failed write. `except` is
 * given DynamoDB's operation name (UpdateItem, TransactWriteItems, …) and the command's input, to
 * fail one kind of write only. `restore` goes back to the default.
 */
export const failWrites = (options: { except?: (command: string, input: unknown) => boolean } = {}) => {
  const client = createDocumentClient(process.env.DYNAMODB_ENDPOINT);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      // The SDK names the low-level command (PutItemCommand) whichever document command sent it.
      const command = String(context.commandName).replace(/Command$/, '');
      if (writeOperations.has(command) && !(options.except?.(command, args.input) ?? false)) {
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
