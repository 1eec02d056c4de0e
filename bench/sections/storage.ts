import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client';
import { runLoadLevels, type LoadResult } from '../load';
import { printTable } from '../report';
import type { Settings } from '../settings';

/**
 * The storage ceiling: raw PutItem and GetItem through the service's own client against the same
 * DynamoDB Local, the most any endpoint built on them could do here. Items are 1 KB (1 WRU each)
 * on keys no index covers; reads are eventually consistent, as the service's mostly are.
 */
export interface StorageCeiling {
  put: LoadResult[];
  get: LoadResult[];
}

const keyCount = 1_000;
const payload = 'x'.repeat(900);
const keyOf = (index: number) => ({ PK: `BENCH#RAW#${index % keyCount}`, SK: 'ITEM' });

export const measureStorage = async (settings: Settings): Promise<StorageCeiling> => {
  const TableName = tableName();
  const put = async (index: number) => {
    await db().send(new PutCommand({ TableName, Item: { ...keyOf(index), payload } }));
    return undefined;
  };
  for (let index = 0; index < keyCount; index += 1) await put(index);
  let next = 0;
  const ceiling = {
    put: await runLoadLevels(() => put((next += 1)), settings),
    get: await runLoadLevels(async () => {
      const { Item } = await db().send(new GetCommand({ TableName, Key: keyOf(Math.floor(Math.random() * keyCount)) }));
      return Item ? undefined : 'item missing';
    }, settings),
  };
  printTable(
    '2. Storage ceiling: raw DynamoDB Local through the service client (1 KB items)',
    ['operation', 'in flight', 'ops/s', 'p50 ms', 'p99 ms', 'failures'],
    (['put', 'get'] as const).flatMap((operation) =>
      ceiling[operation].map((result) => [operation === 'put' ? 'PutItem' : 'GetItem', result.concurrency, result.perSecond, result.p50Ms, result.p99Ms, result.failures]),
    ),
  );
  return ceiling;
};
