import { createDocumentClient, type DocumentClient } from '../../shared/db/client';
import { GetCommand } from '../../shared/db/commands';

/**
 * The bundle size benchmark's yardstick: a Lambda that holds only the service's DynamoDB client (shared/db/client.ts),
 * built with the same settings as the service's, so a group's bundle can be read as "the SDK
 * plus so much of ours".
 */
let client: DocumentClient | undefined;

export const handler = async (event: { key: { PK: string; SK: string } }) => {
  client ??= createDocumentClient();
  const { Item } = await client.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: event.key }));
  return Item;
};
