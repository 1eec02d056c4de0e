import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The bundle size benchmark's yardstick: a Lambda that holds only the DynamoDB document client,
 * built with the same settings as the service's, so a group's bundle can be read as "the SDK
 * plus so much of ours".
 */
let client: DynamoDBDocumentClient | undefined;

export const handler = async (event: { key: { PK: string; SK: string } }) => {
  client ??= DynamoDBDocumentClient.from(new DynamoDBClient({}));
  const { Item } = await client.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: event.key }));
  return Item;
};
