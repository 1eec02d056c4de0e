import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { clientOptions } from '../aws/clients';
import { engineConfig } from '../config';

/**
 * The DynamoDB client every store sends through: the SDK's DynamoDBClient (signing, retries,
 * errors) wrapped in lib-dynamodb's DynamoDBDocumentClient (native values in and out, undefined
 * members dropped, a fresh idempotency token per transaction).
 */
export type DocumentClient = DynamoDBDocumentClient;

const localWriteListeners = new Set<() => void>();
const writeCommand = /^(PutItem|UpdateItem|DeleteItem|TransactWriteItems|BatchWriteItem)Command$/;

/**
 * Called after every write that succeeded through a local engine's client made in this process:
 * the local stream reader's cue to read the stream now (infra/local/stream-reader.ts), so it can
 * rest between polls instead of asking DynamoDB Local for records twenty times a second. AWS's
 * stream needs no cue: a client for AWS never carries it. Returns the unsubscribe.
 */
export const onLocalWrite = (listener: () => void): (() => void) => {
  localWriteListeners.add(listener);
  return () => void localWriteListeners.delete(listener);
};

/** A client for DynamoDB at the configured endpoint (the local engine's, or AWS's in the region). */
export const createDocumentClient = (localEndpoint: string | undefined = engineConfig.dynamodbEndpoint): DocumentClient => {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient(clientOptions(localEndpoint)), { marshallOptions: { removeUndefinedValues: true } });
  if (localEndpoint) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const output = await next(args);
        // The SDK names the low-level command (PutItemCommand) whichever document command sent it.
        if (writeCommand.test(String(context.commandName))) for (const listener of localWriteListeners) listener();
        return output;
      },
      { step: 'initialize', name: 'localWriteCue' },
    );
  }
  return client;
};

let documentClient: DocumentClient | undefined;

/** One client per warm instance, made on first use so tests can point it at their engine first. */
export const db = (): DocumentClient => (documentClient ??= createDocumentClient());

/**
 * Tests and benchmarks swap in a client with middleware of their own (tests/support/storage.ts
 * makes writes fail; bench/meter.ts counts capacity).
 */
export const setDocumentClient = (client: DocumentClient | undefined): void => {
  documentClient = client;
};

export const tableName = (): string => engineConfig.tableName;
