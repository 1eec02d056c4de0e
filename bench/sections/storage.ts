import { GetCommand, PutCommand } from '../../shared/db/commands';
import { db, tableName } from '../../shared/db/client';
import type { LoadResult } from '../load';
import { printTable } from '../report';

/**
 * The storage ceiling: raw PutItem and GetItem through the service's own client against the same
 * DynamoDB Local, the most any endpoint built on them could do here. Items are 1 KB (1 WRU each)
 * on keys no index covers; reads are eventually consistent, as most of the service's are.
 */
export interface StorageCeiling {
  put: LoadResult[];
  get: LoadResult[];
}

const keyCount = 256;
const payload = 'x'.repeat(900);
const keyOf = (index: number) => ({ PK: `BENCH#RAW#${index % keyCount}`, SK: 'ITEM' });

export interface RawOperations {
  put: () => Promise<undefined>;
  get: () => Promise<string | undefined>;
}

/** Writes the items the reads will find; returns one raw request of each kind, as load functions. */
export const rawOperations = async (): Promise<RawOperations> => {
  const TableName = tableName();
  let next = 0;
  const put = async (): Promise<undefined> => {
    next += 1;
    await db().send(new PutCommand({ TableName, Item: { ...keyOf(next), payload } }));
    return undefined;
  };
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < keyCount) await put();
  }));
  const get = async () => {
    const { Item } = await db().send(new GetCommand({ TableName, Key: keyOf(Math.floor(Math.random() * keyCount)) }));
    return Item ? undefined : 'item missing';
  };
  return { put, get };
};

export const printStorage = (ceiling: StorageCeiling) =>
  printTable(
    '2. Storage ceiling: raw DynamoDB Local through the service client (1 KB items)',
    ['operation', 'in flight', 'ops/s', 'p50 ms', 'p99 ms', 'failures'],
    (['put', 'get'] as const).flatMap((operation) =>
      ceiling[operation].map((result) => [operation === 'put' ? 'PutItem' : 'GetItem', result.concurrency, result.perSecond, result.p50Ms, result.p99Ms, result.failures]),
    ),
  );
