import * as sdk from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '../shared/db/client';
import * as ours from '../shared/db/commands';
import type { DocumentCommand } from '../shared/db/commands';
import { binaryReviver, errorFieldsFromWire, inputToWire } from '../shared/db/wire';
import { answer, fakeDynamoDB, sdkClients, type Sent } from './support/dynamodb-fake';

/**
 * shared/db (commands, wire forms, client) against @aws-sdk/lib-dynamodb, the client it replaced:
 * each command goes through both to a fake DynamoDB on loopback, which must receive the same
 * operation, content type and JSON, and answers both alike, so the outputs must be equal too. The
 * values cover every type DynamoDB stores, undefined members (dropped), and user maps whose only
 * key is B or BS, which are maps, not bytes.
 */
const bytes = new Uint8Array([0, 1, 2, 254, 255]);
const document = {
  PK: 'TENANT#t1',
  SK: 'NOTICE#n1',
  text: 'सहमति ☃',
  empty: '',
  count: 42,
  ratio: -0.5,
  largest: Number.MAX_SAFE_INTEGER,
  yes: true,
  no: false,
  nothing: null,
  missing: undefined,
  bytes,
  buffer: Buffer.from('consent'),
  emptyBytes: new Uint8Array(0),
  strings: new Set(['a', 'b']),
  numbers: new Set([1, 2.5]),
  binaries: new Set([new Uint8Array([1]), new Uint8Array([2])]),
  list: ['a', 1, null, true, undefined, { bytes: new Uint8Array([1]) }, ['nested']],
  map: { deep: { value: 'x', missing: undefined, deeper: { zero: 0 } } },
  emptyMap: {},
  emptyList: [],
  bMap: { B: 'not bytes' },
  bsMap: { BS: ['not', 'bytes'] },
  bytesUnderB: { B: new Uint8Array([3]) },
};
const key = { PK: 'TENANT#t1', SK: 'NOTICE#n1' };

/** What DynamoDB answers with, written out by hand: binary as base64. */
const wireKey = { PK: { S: 'TENANT#t1' }, SK: { S: 'NOTICE#n2' } };
const wireItem = {
  ...wireKey,
  text: { S: 'सहमति ☃' },
  empty: { S: '' },
  count: { N: '42' },
  ratio: { N: '-0.5' },
  yes: { BOOL: true },
  nothing: { NULL: true },
  bytes: { B: 'AAEC/v8=' },
  emptyBytes: { B: '' },
  strings: { SS: ['a', 'b'] },
  numbers: { NS: ['1', '2.5'] },
  binaries: { BS: ['AQ==', 'Ag=='] },
  list: { L: [{ S: 'a' }, { N: '1' }, { NULL: true }, { M: { bytes: { B: 'AQ==' } } }, { L: [] }] },
  map: { M: { deep: { M: { value: { S: 'x' } } } } },
  bMap: { M: { B: { S: 'AQ==' } } },
  bsMap: { M: { BS: { SS: ['AQ=='] } } },
  bytesUnderB: { M: { B: { B: 'Aw==' } } },
};

const TableName = 'consent';
const both = <Input,>(Ours: new (input: Input) => DocumentCommand<Input, unknown>, Sdk: new (input: Input) => unknown, input: Input) => ({ ours: new Ours(input), sdk: new Sdk(input) });

const operations: [string, ReturnType<typeof both>, Record<string, unknown>][] = [
  ['GetItem', both(ours.GetCommand, sdk.GetCommand, { TableName, Key: key, ConsistentRead: true, ProjectionExpression: '#t', ExpressionAttributeNames: { '#t': 'text' } }), { Item: wireItem, ConsumedCapacity: { TableName, CapacityUnits: 0.5 } }],
  ['GetItem of nothing', both(ours.GetCommand, sdk.GetCommand, { TableName, Key: key }), {}],
  [
    'PutItem',
    both(ours.PutCommand, sdk.PutCommand, {
      TableName,
      Item: document,
      ConditionExpression: 'attribute_not_exists(PK) OR #b = :b',
      ExpressionAttributeNames: { '#b': 'bytes' },
      ExpressionAttributeValues: { ':b': bytes, ':unused': undefined },
      ReturnValues: 'ALL_OLD',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    }),
    { Attributes: wireItem },
  ],
  [
    'UpdateItem',
    both(ours.UpdateCommand, sdk.UpdateCommand, {
      TableName,
      Key: key,
      UpdateExpression: 'SET #m = :map, #l = list_append(#l, :list) ADD #s :set, #n :one REMOVE #x',
      ExpressionAttributeNames: { '#m': 'bMap', '#l': 'list', '#s': 'strings', '#n': 'count', '#x': 'missing' },
      ExpressionAttributeValues: { ':map': { BS: ['x'] }, ':list': [bytes, null, { B: 'y' }], ':set': new Set(['c']), ':one': 1 },
      ReturnValues: 'ALL_NEW',
    }),
    { Attributes: wireItem },
  ],
  ['DeleteItem', both(ours.DeleteCommand, sdk.DeleteCommand, { TableName, Key: key, ConditionExpression: '#y = :yes', ExpressionAttributeNames: { '#y': 'yes' }, ExpressionAttributeValues: { ':yes': true }, ReturnValues: 'ALL_OLD' }), { Attributes: wireItem }],
  [
    'Query',
    both(ours.QueryCommand, sdk.QueryCommand, {
      TableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      FilterExpression: 'contains(#s, :s)',
      ExpressionAttributeNames: { '#s': 'strings' },
      ExpressionAttributeValues: { ':pk': 'TENANT#t1', ':prefix': 'NOTICE#', ':s': 'a' },
      ExclusiveStartKey: key,
      Limit: 2,
      ScanIndexForward: false,
    }),
    { Items: [wireItem, wireKey], Count: 2, ScannedCount: 3, LastEvaluatedKey: wireKey },
  ],
  ['Scan', both(ours.ScanCommand, sdk.ScanCommand, { TableName, FilterExpression: '#b = :b', ExpressionAttributeNames: { '#b': 'bytes' }, ExpressionAttributeValues: { ':b': bytes }, ExclusiveStartKey: key, Segment: 0, TotalSegments: 2 }), { Items: [wireItem], Count: 1, ScannedCount: 9 }],
  [
    'BatchGetItem',
    both(ours.BatchGetCommand, sdk.BatchGetCommand, { RequestItems: { [TableName]: { Keys: [key, { PK: 'a', SK: 'b' }], ProjectionExpression: 'PK, SK' }, other: { Keys: [{ id: bytes }], ConsistentRead: true } } }),
    { Responses: { [TableName]: [wireItem], other: [] }, UnprocessedKeys: { [TableName]: { Keys: [wireKey], ProjectionExpression: 'PK, SK' } } },
  ],
  [
    'BatchWriteItem',
    both(ours.BatchWriteCommand, sdk.BatchWriteCommand, { RequestItems: { [TableName]: [{ PutRequest: { Item: document } }, { DeleteRequest: { Key: key } }], other: [{ DeleteRequest: { Key: { id: bytes } } }] } }),
    { UnprocessedItems: { [TableName]: [{ PutRequest: { Item: wireItem } }, { DeleteRequest: { Key: wireKey } }] } },
  ],
  [
    'TransactGetItems',
    both(ours.TransactGetCommand, sdk.TransactGetCommand, { TransactItems: [{ Get: { TableName, Key: key, ProjectionExpression: 'PK' } }, { Get: { TableName, Key: { PK: 'a', SK: 'b' } } }] }),
    { Responses: [{ Item: wireItem }, {}] },
  ],
  ...[undefined, 'retry-of-the-same-call'].map((ClientRequestToken): (typeof operations)[number] => [
    `TransactWriteItems ${ClientRequestToken ? 'with' : 'without'} a ClientRequestToken`,
    both(ours.TransactWriteCommand, sdk.TransactWriteCommand, {
      TransactItems: [
        { ConditionCheck: { TableName, Key: key, ConditionExpression: '#c < :most', ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':most': 100 } } },
        { Put: { TableName, Item: document, ConditionExpression: 'attribute_not_exists(PK)' } },
        { Update: { TableName, Key: key, UpdateExpression: 'SET #m = :m', ExpressionAttributeNames: { '#m': 'map' }, ExpressionAttributeValues: { ':m': { B: 'x', missing: undefined } } } },
        { Delete: { TableName, Key: { PK: 'a', SK: 'b' }, ConditionExpression: '#b = :b', ExpressionAttributeNames: { '#b': 'bytes' }, ExpressionAttributeValues: { ':b': bytes } } },
      ],
      ...(ClientRequestToken ? { ClientRequestToken } : {}),
    }),
    {},
  ]),
];

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The request with a generated idempotency token replaced by a marker (each client draws its own). */
const withoutDrawnToken = ({ target, contentType, body }: Sent) =>
  ({ target, contentType, body: typeof body.ClientRequestToken === 'string' && uuid.test(body.ClientRequestToken) ? { ...body, ClientRequestToken: 'a UUID' } : body });

describe('DocumentClient against lib-dynamodb, through a fake DynamoDB', () => {
  it.each(operations)('%s: the same request on the wire, the same output', async (_name, command, reply) => {
    const fake = await fakeDynamoDB(answer(200, reply));
    const { $metadata: _metadata, ...expected } = (await sdkClients(fake.endpoint).document.send(command.sdk as never)) as Record<string, unknown>;
    const actual = await createDocumentClient(fake.endpoint).send(command.ours);

    const [theirs, mine] = fake.sent();
    expect(mine!.target).toBe(`DynamoDB_20120810.${command.ours.operation}`);
    expect(withoutDrawnToken(mine!)).toEqual(withoutDrawnToken(theirs!));
    expect(actual).toEqual(expected);
  });

  it('sends binary values as base64 and brings them back as bytes, and never a user map of B or BS', async () => {
    const fake = await fakeDynamoDB(answer(200, { Item: wireItem }));
    const { Item } = await createDocumentClient(fake.endpoint).send(new ours.GetCommand({ TableName, Key: { PK: bytes } }));
    expect(fake.sent()[0]!.body.Key).toEqual({ PK: { B: 'AAEC/v8=' } });
    expect(Item).toMatchObject({ bytes, emptyBytes: new Uint8Array(0), binaries: new Set([new Uint8Array([1]), new Uint8Array([2])]), bMap: { B: 'AQ==' }, bsMap: { BS: new Set(['AQ==']) }, bytesUnderB: { B: new Uint8Array([3]) } });
  });
});

describe('wire.ts on its own', () => {
  it('fills a TransactWriteItems ClientRequestToken with a fresh UUID per call, and keeps one given', () => {
    const input = { TransactItems: [{ Put: { TableName, Item: key } }] };
    const first = inputToWire('TransactWriteItems', input).ClientRequestToken as string;
    expect(first).toMatch(uuid);
    expect(inputToWire('TransactWriteItems', input).ClientRequestToken).not.toBe(first);
    expect(inputToWire('TransactWriteItems', { ...input, ClientRequestToken: 'given' }).ClientRequestToken).toBe('given');
    expect(inputToWire('PutItem', { TableName, Item: key })).not.toHaveProperty('ClientRequestToken');
  });

  it('revives B and BS attribute values only, in any position', () => {
    const revive = (value: unknown) => JSON.parse(JSON.stringify(value), binaryReviver);
    expect(revive({ B: 'AQI=' })).toEqual({ B: new Uint8Array([1, 2]) });
    expect(revive({ BS: ['AQ==', ''] })).toEqual({ BS: [new Uint8Array([1]), new Uint8Array(0)] });
    expect(revive({ L: [{ M: { B: { S: 'AQI=' } } }, { M: { BS: { L: [{ S: 'AQ==' }] } } }] })).toEqual({ L: [{ M: { B: { S: 'AQI=' } } }, { M: { BS: { L: [{ S: 'AQ==' }] } } }] });
    expect(revive({ B: 'AQI=', S: 'x' })).toEqual({ B: 'AQI=', S: 'x' });
    expect(revive({ Responses: { BS: [{ PK: { S: 'a' } }] } })).toEqual({ Responses: { BS: [{ PK: { S: 'a' } }] } });
  });

  it("turns a failed condition's Item and a cancelled transaction's reasons into document form, as unmarshall does", () => {
    const wire = JSON.parse(JSON.stringify(wireItem), binaryReviver);
    const reasons = [{ Code: 'ConditionalCheckFailed', Message: 'The conditional request failed', Item: wire }, { Code: 'None' }];
    expect(errorFieldsFromWire({ Item: wire, CancellationReasons: reasons })).toEqual({
      Item: unmarshall(wire),
      CancellationReasons: [{ ...reasons[0], Item: unmarshall(wire) }, { Code: 'None' }],
    });
    expect(errorFieldsFromWire({ Item: undefined, CancellationReasons: undefined })).toEqual({ Item: undefined, CancellationReasons: undefined });
  });

  it('marshals what util-dynamodb marshals, dropping undefined members', () => {
    expect(inputToWire('PutItem', { TableName, Item: document }).Item).toEqual(marshall(document, { removeUndefinedValues: true }));
  });
});

describe('what wire.ts leaves out', () => {
  it('is refused by the command types (checked by tsc): the first API\'s members and item collection metrics, which lib-dynamodb converts', () => {
    const legacy = [
      // @ts-expect-error Expected: a ConditionExpression says it
      new ours.PutCommand({ TableName, Item: key, Expected: { PK: { Value: 'x' } } }),
      // @ts-expect-error AttributeUpdates: an UpdateExpression says it
      new ours.UpdateCommand({ TableName, Key: key, AttributeUpdates: { n: { Value: 1, Action: 'ADD' } } }),
      // @ts-expect-error KeyConditions: a KeyConditionExpression says it
      new ours.QueryCommand({ TableName, KeyConditions: { PK: { AttributeValueList: ['x'], ComparisonOperator: 'EQ' } } }),
      // @ts-expect-error ScanFilter: a FilterExpression says it
      new ours.ScanCommand({ TableName, ScanFilter: { n: { AttributeValueList: [1], ComparisonOperator: 'GT' } } }),
      // @ts-expect-error ReturnItemCollectionMetrics: its ItemCollectionKey would come back in wire form
      new ours.DeleteCommand({ TableName, Key: key, ReturnItemCollectionMetrics: 'SIZE' }),
    ];
    expect(legacy).toHaveLength(5);
  });
});
