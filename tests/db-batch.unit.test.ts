import { afterEach, describe, expect, it } from 'vitest';
import { batchGetAll, batchWriteAll, maxRounds, UnprocessedItemsError } from '../shared/db/batch';
import { setDocumentClient } from '../shared/db/client';
import { fakeAwsService, jsonAnswer } from './support/aws-fake';
import type { Received } from './support/receiver';

/**
 * What DynamoDB leaves unprocessed in a batch is asked for again with backoff, and at most
 * `maxRounds` times: a fake DynamoDB on loopback that keeps leaving the same key unprocessed must
 * end in an error, not a loop.
 */
const TableName = 'consent-service';
const dynamo = (body: unknown) => jsonAnswer(body, 200, 'application/x-amz-json-1.0');
const bodyOf = (request: Received) => JSON.parse(request.rawBody.toString('utf8')) as Record<string, any>;
const fake = async (respond: Parameters<typeof fakeAwsService>[1]) => {
  // The store's client is made on first use; each test's is made for its own fake.
  setDocumentClient(undefined);
  return fakeAwsService('AWS_ENDPOINT_URL_DYNAMODB', respond, { TABLE_NAME: TableName });
};
afterEach(() => setDocumentClient(undefined));

const key = (id: string) => ({ PK: { S: `TENANT#${id}` }, SK: { S: 'TENANT' } });

describe('batchGetAll', () => {
  it('asks again for the unprocessed keys, and returns every item', async () => {
    const dynamodb = await fake((request, index) => {
      const keys = bodyOf(request).RequestItems[TableName].Keys as unknown[];
      return index === 0
        ? dynamo({ Responses: { [TableName]: [key('a')] }, UnprocessedKeys: { [TableName]: { Keys: keys.slice(1) } } })
        : dynamo({ Responses: { [TableName]: keys } });
    });
    const items = await batchGetAll([{ PK: 'TENANT#a', SK: 'TENANT' }, { PK: 'TENANT#b', SK: 'TENANT' }]);
    expect(items).toEqual([{ PK: 'TENANT#a', SK: 'TENANT' }, { PK: 'TENANT#b', SK: 'TENANT' }]);
    expect(dynamodb.requests().map((request) => bodyOf(request).RequestItems[TableName].Keys)).toEqual([[key('a'), key('b')], [key('b')]]);
  });

  it(`gives up after ${maxRounds} rounds of the same key coming back unprocessed`, async () => {
    const dynamodb = await fake((request) => dynamo({ Responses: { [TableName]: [] }, UnprocessedKeys: { [TableName]: { Keys: bodyOf(request).RequestItems[TableName].Keys } } }));
    await expect(batchGetAll([{ PK: 'TENANT#a', SK: 'TENANT' }])).rejects.toBeInstanceOf(UnprocessedItemsError);
    expect(dynamodb.requests()).toHaveLength(maxRounds);
    // Full jitter between rounds: never all at once.
    const at = dynamodb.requests().map((request) => request.at);
    expect(at.at(-1)! - at[0]!).toBeGreaterThan(0);
  }, 30_000);
});

describe('batchWriteAll', () => {
  it('sends 25 writes a request, again what was left unprocessed, and gives up after as many rounds', async () => {
    const requests = Array.from({ length: 30 }, (_, index) => ({ DeleteRequest: { Key: { PK: `HOOK#${index}`, SK: 'DELIVERY' } } }));
    const dynamodb = await fake((request, index) => {
      const writes = bodyOf(request).RequestItems[TableName] as unknown[];
      return dynamo(index === 0 ? { UnprocessedItems: { [TableName]: writes.slice(20) } } : {});
    });
    await batchWriteAll(requests);
    expect(dynamodb.requests().map((request) => (bodyOf(request).RequestItems[TableName] as unknown[]).length)).toEqual([25, 5, 5]);

    const stuck = await fake((request) => dynamo({ UnprocessedItems: { [TableName]: bodyOf(request).RequestItems[TableName] } }));
    await expect(batchWriteAll(requests.slice(0, 1))).rejects.toThrow(`left 1 item(s) unprocessed after ${maxRounds} rounds`);
    expect(stuck.requests()).toHaveLength(maxRounds);
  }, 30_000);
});
