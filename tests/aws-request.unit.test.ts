import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { PutCommand as SdkPutCommand, TransactWriteCommand as SdkTransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { extendedEncodeURIComponent } from '@smithy/core/protocols';
import { describe, expect, it, onTestFinished } from 'vitest';
import { localCredentials } from '../shared/aws/credentials';
import { AwsError } from '../shared/aws/errors';
import { callJson } from '../shared/aws/json-service';
import { endpointOf, sendSigned } from '../shared/aws/request';
import type { Call } from '../shared/aws/json-service';
import { createDocumentClient, dynamoDbService } from '../shared/db/client';
import { PutCommand, TransactWriteCommand, type DocumentCommand } from '../shared/db/commands';
import { binaryReviver } from '../shared/db/wire';
import { answer, fakeDynamoDB, sdkClients } from './support/dynamodb-fake';
import { startReceiver, type Answer } from './support/receiver';

/**
 * shared/aws's retries and error parsing against the SDK's: both clients send the same call to
 * a fake DynamoDB on loopback that plays the same answers, and must make the same number of
 * attempts and end the same way, with the same error name, message, status and fields. The SDK
 * is held to our 3 attempts and neither waits between them (ours through its `pause` parameter),
 * so no test here sleeps except the one that checks the real wait.
 */
const getItem = { TableName: 'consent', Key: { PK: { S: 'TENANT#t1' } } };

const ok = answer(200, { Item: { PK: { S: 'TENANT#t1' } } });
const error = (status: number, __type: string, message = 'failed', fields: Record<string, unknown> = {}) => answer(status, { __type, message, ...fields });
const internal = error(500, 'com.amazon.coral.service#InternalServerError', 'Internal server error');
const throttled = error(400, 'com.amazon.coral.availability#ThrottlingException', 'Rate of requests exceeds the allowed throughput.');
const overProvisioned = error(400, 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', 'The level of configured provisioned throughput for the table was exceeded.');
const conditionFailed = error(400, 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', 'The conditional request failed', { Item: { PK: { S: 'TENANT#t1' }, reserved: { N: '7' } } });
const invalid = answer(400, { __type: 'com.amazon.coral.validate#ValidationException', Message: 'One or more parameter values were invalid' });
const cancelled = error(400, 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException', 'Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]', {
  CancellationReasons: [{ Code: 'ConditionalCheckFailed', Message: 'The conditional request failed', Item: { PK: { S: 'TENANT#t1' }, bytes: { B: 'AQI=' }, tags: { SS: ['a'] } } }, { Code: 'None' }],
});
const reset: Answer = { status: 0, reset: true };

/** How a call ended, in the terms both clients share. */
const outcomeOf = (requests: number, failure?: any) => {
  if (!failure) return { requests, result: 'ok' };
  const { name, message, $fault: fault, $metadata: metadata = {}, code, __type: _type, $retryable: _retryable, ...fields } = failure;
  return { requests, name, message, fault, status: metadata.httpStatusCode, attempts: metadata.attempts, code, fields: { ...fields } };
};

const sdkCall = async (...script: Answer[]) => {
  const fake = await fakeDynamoDB(...script);
  const failure = await sdkClients(fake.endpoint, 3).client.send(new GetItemCommand(getItem)).then(() => undefined, (caught: unknown) => caught);
  return outcomeOf(fake.sent().length, failure);
};

/** Ours as the DocumentClient calls it (with its binary reviver); `waits` are the pauses it asked for. */
const ourCall = async (...script: Answer[]) => {
  const fake = await fakeDynamoDB(...script);
  const waits: number[] = [];
  const call = callJson(dynamoDbService(fake.endpoint), 'GetItem', getItem, { reviver: binaryReviver, pause: async (ms) => void waits.push(ms) });
  const failure = await call.then(() => undefined, (caught: unknown) => caught);
  return { outcome: outcomeOf(fake.sent().length, failure), waits, failure };
};

describe('sendSigned retries as the SDK does', () => {
  const scripts: [string, Answer[]][] = [
    ['a 500, then success', [internal, ok]],
    ['a ThrottlingException (400), then success', [throttled, ok]],
    ['two ProvisionedThroughputExceededExceptions, then success', [overProvisioned, overProvisioned, ok]],
    ['a dropped connection, then success', [reset, ok]],
    ['a 504 naming an error no list knows, then success', [error(504, 'com.amazon.coral.service#GatewayTimeoutException'), ok]],
    ['a 500 every time: gives up after 3 attempts', [internal]],
    ['throttled every time: gives up after 3 attempts', [throttled]],
    ['a ConditionalCheckFailedException: never retried', [conditionFailed, ok]],
    ['a ValidationException: never retried', [invalid, ok]],
    ['a TransactionCanceledException: never retried, its reasons on the error', [cancelled, ok]],
  ];

  it.each(scripts)('%s', async (_name, script) => {
    const { outcome, waits, failure } = await ourCall(...script);
    expect(outcome).toEqual(await sdkCall(...script));
    expect(waits).toHaveLength(outcome.requests - 1);
    if (failure !== undefined) expect(failure).toBeInstanceOf(AwsError);
  });

  it('drops the connection every time: gives up after 3 attempts with the socket error, as the SDK does', async () => {
    const { outcome, waits, failure } = await ourCall(reset);
    const theirs = await sdkCall(reset);
    expect({ requests: outcome.requests, code: outcome.code }).toEqual({ requests: theirs.requests, code: theirs.code });
    expect(outcome).toMatchObject({ requests: 3, code: 'ECONNRESET' });
    expect(waits).toHaveLength(2);
    expect(failure).not.toBeInstanceOf(AwsError);
  });

  it('waits between attempts when no pause is given', async () => {
    const fake = await fakeDynamoDB(internal, ok);
    await expect(callJson(dynamoDbService(fake.endpoint), 'GetItem', getItem)).resolves.toEqual({ Item: { PK: { S: 'TENANT#t1' } } });
    expect(fake.sent()).toHaveLength(2);
  });
});

describe('sendSigned sends what it signed', () => {
  it("sends an S3 path and query byte for byte as the SDK's S3 client does: `.` and `..` kept, a space as %20", async () => {
    const receiver = await startReceiver(() => ({ status: 200, body: '<ListBucketResult/>' }));
    onTestFinished(receiver.close);
    const endpoint = new URL(receiver.url).origin;
    const s3 = new S3Client({ region: 'ap-south-1', endpoint, forcePathStyle: true, credentials: localCredentials });
    onTestFinished(() => s3.destroy());
    const key = 'tenant a/../notices+v1/./~draft*=é.pdf';
    const listing = { 'continuation-token': '1/+Zx==', 'list-type': '2', prefix: "a b+c~*'é/" };
    await s3.send(new GetObjectCommand({ Bucket: 'consent-files', Key: key })).catch(() => undefined);
    await s3.send(new ListObjectsV2Command({ Bucket: 'consent-files', Prefix: listing.prefix, ContinuationToken: listing['continuation-token'] })).catch(() => undefined);

    const ours = endpointOf('s3', endpoint, { signPathAsSent: true, contentSha256Header: true });
    const get = { method: 'GET', headers: {}, body: Buffer.alloc(0) };
    const failed = () => new AwsError('S3Error', 'unexpected', 500);
    await sendSigned(ours, { ...get, path: `/consent-files/${key.split('/').map(extendedEncodeURIComponent).join('/')}`, query: { 'x-id': 'GetObject' } }, failed);
    await sendSigned(ours, { ...get, path: '/consent-files/', query: listing }, failed);

    const [sdkGet, sdkList, ourGet, ourList] = receiver.received.map(({ path }) => path);
    expect(ourGet).toBe(sdkGet);
    expect(ourList).toBe(sdkList);
  });
});

describe('the awsJson error parser', () => {
  const bodies: [string, Answer][] = [
    ['a __type with its namespace', conditionFailed],
    ['a bare __type and a capitalised Message', answer(400, { __type: 'ValidationException', Message: 'The provided key element does not match the schema' })],
    ['the name in x-amzn-errortype only', answer(400, { message: 'slow down' }, { 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.coral.availability/' })],
    ['a __type and a code', answer(400, { __type: 'com.amazon.coral.service#AccessDeniedException', code: 'Other', message: 'no' })],
  ];

  it.each(bodies)('names the error as the SDK does from %s', async (_name, body) => {
    expect((await ourCall(body)).outcome).toEqual(await sdkCall(body));
  });

  it.each([
    ['an empty body', ''],
    ['an HTML page', '<html><body>503 Service Unavailable</body></html>'],
  ])('reads a 503 with %s as a retryable InternalServerError (the SDK: Unknown, or a SyntaxError)', async (_name, text) => {
    const unavailable: Answer = { status: 503, body: text, headers: { 'content-type': 'text/html' } };
    const ours = (await ourCall(unavailable)).outcome;
    const theirs = await sdkCall(unavailable);
    expect({ requests: ours.requests, status: ours.status, attempts: ours.attempts }).toEqual({ requests: theirs.requests, status: theirs.status, attempts: theirs.attempts });
    expect(ours).toMatchObject({ name: 'InternalServerError', fault: 'server', status: 503, attempts: 3 });
  });
});

describe('DocumentClient over the fake DynamoDB', () => {
  const transaction = { TransactItems: [{ Put: { TableName: 'consent', Item: { PK: 'TENANT#t1' }, ConditionExpression: 'attribute_not_exists(PK)' } }] };
  const put = { TableName: 'consent', Item: { PK: 'TENANT#t1' }, ConditionExpression: 'attribute_not_exists(PK)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } as const;
  const toDocument = (item: unknown) => item && unmarshall(item as Record<string, never>);

  it.each([
    ['a cancelled transaction', cancelled, new TransactWriteCommand(transaction), new SdkTransactWriteCommand(transaction)],
    ['a failed condition', conditionFailed, new PutCommand(put), new SdkPutCommand(put)],
  ] as [string, Answer, DocumentCommand<unknown, unknown>, unknown][])('hands back the items of %s in document form (lib-dynamodb leaves them in wire form)', async (_name, failure, ours, sdk) => {
    const fake = await fakeDynamoDB(failure);
    const theirs = (await sdkClients(fake.endpoint).document.send(sdk as never).catch((caught: unknown) => caught)) as AwsError;
    const mine = (await createDocumentClient(fake.endpoint).send(ours).catch((caught: unknown) => caught)) as AwsError;
    expect(mine).toBeInstanceOf(AwsError);
    expect(mine).toMatchObject({ name: theirs.name, message: theirs.message, $metadata: { httpStatusCode: 400, attempts: 1 } });
    expect(mine.Item).toEqual(toDocument(theirs.Item));
    expect(mine.CancellationReasons).toEqual((theirs.CancellationReasons as Record<string, unknown>[] | undefined)?.map((reason) => ({ ...reason, ...(reason.Item ? { Item: toDocument(reason.Item) } : {}) })));
  });

  it("brings a cancellation reason's bytes back as bytes", async () => {
    const fake = await fakeDynamoDB(cancelled);
    const failure = (await createDocumentClient(fake.endpoint).send(new TransactWriteCommand(transaction)).catch((caught: unknown) => caught)) as AwsError;
    expect((failure.CancellationReasons as { Item?: unknown }[])[0]!.Item).toEqual({ PK: 'TENANT#t1', bytes: new Uint8Array([1, 2]), tags: new Set(['a']) });
  });

  it('runs middleware with DynamoDB\'s operation name, the document-form input (which it may add to) and the wire-form output', async () => {
    const fake = await fakeDynamoDB(answer(200, { Attributes: { PK: { S: 'TENANT#t1' }, bytes: { B: 'AQI=' } }, ConsumedCapacity: { TableName: 'consent', CapacityUnits: 1 } }));
    const seen: { commandName: string; input: Call['input']; output: Record<string, unknown> }[] = [];
    const client = createDocumentClient(fake.endpoint).use((next, { commandName }) => async (call) => {
      const result = await next({ input: { ...call.input, ReturnConsumedCapacity: 'TOTAL' } });
      seen.push({ commandName, input: call.input, output: result.output });
      return result;
    });
    const bytes = new Uint8Array([1, 2]);
    const output = await client.send(new PutCommand({ TableName: 'consent', Item: { PK: 'TENANT#t1', bytes }, ReturnValues: 'ALL_OLD' }));

    expect(seen).toEqual([
      {
        commandName: 'PutItem',
        input: { TableName: 'consent', Item: { PK: 'TENANT#t1', bytes }, ReturnValues: 'ALL_OLD' },
        output: { Attributes: { PK: { S: 'TENANT#t1' }, bytes: { B: bytes } }, ConsumedCapacity: { TableName: 'consent', CapacityUnits: 1 } },
      },
    ]);
    expect(fake.sent()[0]!.body).toMatchObject({ ReturnConsumedCapacity: 'TOTAL', Item: { PK: { S: 'TENANT#t1' }, bytes: { B: 'AQI=' } } });
    expect(output).toEqual({ Attributes: { PK: 'TENANT#t1', bytes }, ConsumedCapacity: { TableName: 'consent', CapacityUnits: 1 } });
  });
});
