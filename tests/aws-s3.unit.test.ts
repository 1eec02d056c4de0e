import { createHash } from 'node:crypto';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { AwsError } from '../shared/aws/errors';
import { signedHttpRequest } from '../shared/aws/request';
import { createBucket, getObjectText, listObjectKeys, putObject, s3Requests, type S3Request } from '../shared/aws/s3';
import { errorShape, fakeAwsService, sdkSend, useAwsEnvironment, wireOf, xmlAnswer, type Wire } from './support/aws-fake';
import type { Answer } from './support/receiver';

/**
 * The checkpoint archive's four S3 calls (shared/aws/s3.ts) against @aws-sdk/client-s3: the same
 * request for the same input, virtual-hosted in AWS and path-style at an endpoint that is an IP
 * address (as the SDK decides), caught before anything is sent; then the answers S3 documents,
 * from a fake on loopback, read as the SDK reads them.
 */
const bucket = 'consent-checkpoints';
const key = 'checkpoints/tenant a+b/000000000042.note';
const note = Buffer.from('consent-service checkpoint\n42\nसहमति\n', 'utf8');
const retainUntil = new Date('2036-03-01T10:20:30.456Z');
/** What shared/evidence/archive.ts puts a checkpoint with. */
const lockHeaders = { 'content-type': 'text/plain; charset=utf-8', 'if-none-match': '*', 'x-amz-object-lock-mode': 'COMPLIANCE', 'x-amz-object-lock-retain-until-date': retainUntil.toISOString() };
const listing = { prefix: 'checkpoints/tenant a+b/', startAfter: 'checkpoints/tenant a+b/000000000007.note', continuationToken: '1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=' };

const s3 = (options: any) => new S3Client(options);
const calls: [string, () => S3Request, unknown][] = [
  ['GetObject', () => s3Requests.getObject(bucket, key), new GetObjectCommand({ Bucket: bucket, Key: key })],
  [
    'PutObject with Object Lock, If-None-Match and a SHA-256 checksum',
    () => s3Requests.putObject(bucket, key, note, lockHeaders),
    new PutObjectCommand({ Bucket: bucket, Key: key, Body: note, ContentType: lockHeaders['content-type'], IfNoneMatch: '*', ObjectLockMode: 'COMPLIANCE', ObjectLockRetainUntilDate: retainUntil, ChecksumAlgorithm: 'SHA256' }),
  ],
  ['ListObjectsV2', () => s3Requests.listObjects(bucket, listing), new ListObjectsV2Command({ Bucket: bucket, Prefix: listing.prefix, StartAfter: listing.startAfter, ContinuationToken: listing.continuationToken })],
  ['CreateBucket outside us-east-1', () => s3Requests.createBucket(bucket), new CreateBucketCommand({ Bucket: bucket, CreateBucketConfiguration: { LocationConstraint: 'ap-south-1' } })],
];

const mattering = ['content-type', 'if-none-match', 'x-amz-object-lock-mode', 'x-amz-object-lock-retain-until-date', 'x-amz-checksum-sha256', 'x-amz-security-token'];
/**
 * What S3 acts on: the address, and the headers that say what to store and under which conditions.
 * The body without an XML declaration (the SDK writes one before CreateBucketConfiguration, we do
 * not; XML makes it optional), so x-amz-content-sha256 is checked as the hash of the body sent.
 */
const essentials = (wire: Wire) => ({
  method: wire.method,
  host: wire.host,
  path: wire.path,
  query: wire.query,
  headers: Object.fromEntries(mattering.filter((name) => wire.headers[name] !== undefined).map((name) => [name, wire.headers[name]])),
  body: wire.body.toString('utf8').replace(/^<\?xml[^>]*\?>\s*/, ''),
  contentSha256: wire.headers['x-amz-content-sha256'] === createHash('sha256').update(wire.body).digest('hex'),
});

describe.each([
  ['virtual-hosted, in AWS', {}, 'consent-checkpoints.s3.ap-south-1.amazonaws.com'],
  ['path-style, at an endpoint configured as an IP address', { AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:4569' }, '127.0.0.1:4569'],
])('S3 requests, %s', (_form, environment, host) => {
  it.each(calls)('%s: as the SDK sends it', async (_name, ours, command) => {
    useAwsEnvironment(environment);
    const { endpoint, request } = ours();
    const wire = essentials(wireOf(signedHttpRequest(endpoint, request, new Date())));
    expect(wire).toEqual(essentials((await sdkSend(s3, command)).request));
    expect(wire.host).toBe(host);
  });
});

const listPage = (truncated: boolean) => `<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucket}</Name><Prefix>checkpoints/t&amp;1/</Prefix><ContinuationToken>Zmlyc3Q=</ContinuationToken><KeyCount>3</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>${truncated}</IsTruncated>${truncated ? '<NextContinuationToken>1ueG+cxLP/Rx1Tr&amp;=</NextContinuationToken>' : ''}
<Contents><Key>checkpoints/t&amp;1/000000000001.note</Key><LastModified>2026-11-26T04:05:06.000Z</LastModified><ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag><ChecksumAlgorithm>SHA256</ChecksumAlgorithm><Size>41</Size><StorageClass>STANDARD</StorageClass></Contents>
<Contents><Key>checkpoints/t&amp;1/&lt;odd&gt; &#x2603; &#233;.note</Key><LastModified>2026-11-26T04:05:07.000Z</LastModified><ETag>&quot;1&quot;</ETag><Size>1</Size><StorageClass>STANDARD</StorageClass></Contents>
<Contents><Key>checkpoints/t&amp;1/000000000002.note</Key><LastModified>2026-11-26T04:05:08.000Z</LastModified><ETag>&quot;2&quot;</ETag><Size>41</Size><StorageClass>STANDARD</StorageClass></Contents>
</ListBucketResult>`;

const fakeS3 = (reply: Answer) => fakeAwsService('AWS_ENDPOINT_URL_S3', () => reply);

describe('S3 answers, from a fake on loopback', () => {
  it.each([true, false])('reads a ListObjectsV2 page (IsTruncated %s) as the SDK does: entities decoded, the next token only when truncated', async (truncated) => {
    const page = xmlAnswer(listPage(truncated));
    const fake = await fakeS3(page);
    const ours = await listObjectKeys(bucket, { prefix: 'checkpoints/t&1/' });
    const { output } = await sdkSend(s3, new ListObjectsV2Command({ Bucket: bucket, Prefix: 'checkpoints/t&1/' }), page);
    expect(ours).toEqual({ keys: output.Contents.map(({ Key }: { Key: string }) => Key), ...(output.IsTruncated ? { next: output.NextContinuationToken } : {}) });
    expect(ours.keys[1]).toBe('checkpoints/t&1/<odd> ☃ é.note');
    if (truncated) expect(ours.next).toBe('1ueG+cxLP/Rx1Tr&=');
    const [request] = await fake.requests();
    expect(request).toMatchObject({ method: 'GET', path: `/${bucket}/?list-type=2&prefix=checkpoints%2Ft%261%2F`, signedFor: 's3' });
  });

  it("reads an object's text", async () => {
    const fake = await fakeS3({ status: 200, body: note.toString('utf8'), headers: { 'content-type': 'text/plain; charset=utf-8' } });
    expect(await getObjectText(bucket, key)).toBe(note.toString('utf8'));
    expect((await fake.requests())[0]).toMatchObject({ method: 'GET', path: `/${bucket}/checkpoints/tenant%20a%2Bb/000000000042.note`, signedFor: 's3' });
  });

  const error = (status: number, code: string, message: string) =>
    xmlAnswer(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>R1</RequestId><HostId>H1</HostId></Error>`, status);
  const failures: [string, () => Promise<unknown>, unknown, Answer][] = [
    ['GetObject of a missing key: NoSuchKey', () => getObjectText(bucket, key), new GetObjectCommand({ Bucket: bucket, Key: key }), error(404, 'NoSuchKey', 'The specified key does not exist.')],
    ['GetObject in a missing bucket: NoSuchBucket', () => getObjectText(bucket, key), new GetObjectCommand({ Bucket: bucket, Key: key }), error(404, 'NoSuchBucket', 'The specified bucket does not exist')],
    [
      'a conditional PutObject of a key that exists: 412 PreconditionFailed',
      () => putObject(bucket, key, note, lockHeaders),
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: note, IfNoneMatch: '*' }),
      error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold'),
    ],
    [
      'a conditional PutObject racing another: 409 ConditionalRequestConflict',
      () => putObject(bucket, key, note, lockHeaders),
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: note, IfNoneMatch: '*' }),
      error(409, 'ConditionalRequestConflict', 'A conflicting conditional operation is currently in progress against this resource. Please try again.'),
    ],
    [
      'CreateBucket of a bucket we own: 409 BucketAlreadyOwnedByYou',
      () => createBucket(bucket),
      new CreateBucketCommand({ Bucket: bucket }),
      error(409, 'BucketAlreadyOwnedByYou', 'Your previous request to create the named bucket succeeded and you already own it.'),
    ],
    ['PutObject without the grant: 403 AccessDenied', () => putObject(bucket, key, note, lockHeaders), new PutObjectCommand({ Bucket: bucket, Key: key, Body: note }), error(403, 'AccessDenied', 'Access Denied')],
  ];

  it.each(failures)('names %s as the SDK does', async (_name, ours, command, reply) => {
    const fake = await fakeS3(reply);
    const failure = await ours().catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(AwsError);
    expect(errorShape(failure)).toEqual(errorShape((await sdkSend(s3, command, reply)).error));
    expect(await fake.requests()).toHaveLength(1);
  });

  it('names an answer without a body by its status: 404 NotFound as the SDK does; 412 PreconditionFailed where the SDK says Unknown (the archive goes by the status)', async () => {
    await fakeS3({ status: 404, body: '' });
    const missing = await getObjectText(bucket, key).catch((caught: unknown) => caught);
    const theirs = (await sdkSend(s3, new GetObjectCommand({ Bucket: bucket, Key: key }), { status: 404, body: '' })).error;
    expect({ name: (missing as Error).name, status: errorShape(missing).status }).toEqual({ name: theirs.name, status: 404 });
    await fakeS3({ status: 412, body: '' });
    await expect(putObject(bucket, key, note, lockHeaders)).rejects.toMatchObject({ name: 'PreconditionFailed', $metadata: { httpStatusCode: 412 } });
  });
});
