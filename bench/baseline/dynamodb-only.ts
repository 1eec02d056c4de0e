import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The cold-start yardstick (bench/sections/bundles.ts): a Lambda that holds the SDK's DynamoDB
 * document client and nothing else, bundled with the service's settings, making one GetItem. A
 * function's cold path reads as "so many times the SDK's own".
 */
let client: DynamoDBDocumentClient | undefined;

export const handler = async (event: { key?: { PK: string; SK: string } } = {}) => {
  client ??= DynamoDBDocumentClient.from(new DynamoDBClient({ region: process.env.AWS_REGION, endpoint: process.env.DYNAMODB_ENDPOINT }));
  const { Item } = await client.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: event.key ?? { PK: 'REFERENCE', SK: 'REFERENCE' } }));
  return Item;
};
