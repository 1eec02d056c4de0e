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

/** A client for DynamoDB at the configured endpoint (the local engine's, or AWS's in the region). */
export const createDocumentClient = (localEndpoint: string | undefined = engineConfig.dynamodbEndpoint): DocumentClient =>
  DynamoDBDocumentClient.from(new DynamoDBClient(clientOptions(localEndpoint)), { marshallOptions: { removeUndefinedValues: true } });

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
