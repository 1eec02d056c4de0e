import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';

let documentClient: DynamoDBDocumentClient | undefined;

/** One client per process, built on first use so tests can point it at their engine first. */
export const db = (): DynamoDBDocumentClient => {
  if (!documentClient) {
    const endpoint = config.dynamodbEndpoint;
    const base = new DynamoDBClient({
      region: config.region,
      ...(endpoint
        ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
    });
    documentClient = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true },
    });
  }
  return documentClient;
};

/** Tests and benchmarks swap in an instrumented or failing client. */
export const setDocumentClient = (client: DynamoDBDocumentClient | undefined): void => {
  documentClient = client;
};

export const tableName = (): string => config.tableName;
