import { AsyncLocalStorage } from 'node:async_hooks';
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

export interface SentCall {
  /** DynamoDB's operation name (GetItem, Query, UpdateItem, …). */
  command: string;
  input: Record<string, unknown>;
}

/**
 * The DynamoDB operations `work` sends, through a real client for the test engine: only its own,
 * not those of other work meanwhile (the file's workers share the client), told apart by the
 * asynchronous context each call is made in. For a test of what a path reads and writes.
 */
export const callsOf = async <T>(work: () => Promise<T>): Promise<{ result: T; calls: SentCall[] }> => {
  const calls: SentCall[] = [];
  const mine = new AsyncLocalStorage<true>();
  const client = createDocumentClient(process.env.DYNAMODB_ENDPOINT);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (mine.getStore()) calls.push({ command: String(context.commandName).replace(/Command$/, ''), input: args.input as Record<string, unknown> });
      return next(args);
    },
    { step: 'initialize', name: 'callsOf' },
  );
  setDocumentClient(client);
  try {
    return { result: await mine.run(true, work), calls };
  } finally {
    setDocumentClient(undefined);
  }
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
