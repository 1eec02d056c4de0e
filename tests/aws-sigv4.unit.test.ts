import { extendedEncodeURIComponent } from '@smithy/core/protocols';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signRequest, type SigningScope, type UnsignedRequest } from '../shared/aws/sigv4';
import { sdkSigned } from './support/sigv4';

/**
 * shared/aws/sigv4.ts against the SDK's own signer, @smithy/signature-v4, configured as the SDK's
 * clients configure it: S3 signs the path as sent (uriEscapePath false) and adds
 * x-amz-content-sha256 (applyChecksum); the JSON services sign the path encoded once more. (The
 * SDK adds the checksum header for them too; we do not, and need not: it is S3's requirement.)
 * Every header we send must come out identical, Authorization above all.
 */
const expectSameAsSdk = async (request: UnsignedRequest, scope: SigningScope, date: Date) => {
  const ours = signRequest(request, scope, date);
  expect(ours).toEqual(await sdkSigned(request, scope, date));
  return ours;
};

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const withToken = { ...credentials, sessionToken: 'IQoJb3JpZ2luX2VjEMv//////////wEaCmFwLXNvdXRoLTE+/=' };
const date = new Date('2026-11-26T04:05:06.789Z');
const dynamodb = { service: 'dynamodb', region: 'ap-south-1', credentials } satisfies SigningScope;
const s3 = { service: 's3', region: 'ap-south-1', credentials: withToken, signPathAsSent: true, contentSha256Header: true } satisfies SigningScope;
/** An object key as S3's serializer puts it in the path: each segment encoded, its slashes kept. */
const s3Path = (bucket: string, key: string) => `/${bucket}/${key.split('/').map(extendedEncodeURIComponent).join('/')}`;
const json = (target: string, body: unknown, version = '1.0') => ({
  method: 'POST',
  host: 'dynamodb.ap-south-1.amazonaws.com',
  path: '/',
  headers: { 'content-type': `application/x-amz-json-${version}`, 'x-amz-target': target },
  body: Buffer.from(JSON.stringify(body)),
});
const get = (path: string, query: Record<string, string> = {}) => ({ method: 'GET', host: 'consent-files.s3.ap-south-1.amazonaws.com', path, query, headers: {}, body: Buffer.alloc(0) });

describe('signRequest, request by request, against the SDK signer', () => {
  const cases: [string, UnsignedRequest, SigningScope][] = [
    ['a DynamoDB JSON POST to / with X-Amz-Target', json('DynamoDB_20120810.GetItem', { TableName: 't', Key: { PK: { S: 'a b' } } }), dynamodb],
    ['the same with a session token', json('DynamoDB_20120810.TransactWriteItems', { TransactItems: [] }), { ...dynamodb, credentials: withToken }],
    ['an awsJson 1.1 POST (KMS) on a non-default port', { ...json('TrentService.Sign', { KeyId: 'k' }, '1.1'), host: '127.0.0.1:4566' }, { ...dynamodb, service: 'kms' }],
    ['an S3 GET of a key with spaces, +, ~, =, unicode and a nested folder', get(s3Path('consent-files', 'tenant a/notices+v1/~draft=1/सहमति ☃.pdf')), s3],
    ['an S3 PUT of bytes to a key of dots and reserved characters', { ...get(s3Path('b', "./../a!'()*&$,;:@[]#?.json")), method: 'PUT', body: Buffer.from([0, 1, 2, 255]) }, s3],
    ['an S3 list with special characters in the query', get('/consent-files', { 'list-type': '2', prefix: 'a b+c/~d=é&f', 'continuation-token': '1/+Zx==', delimiter: '/', 'start-after': '' }), s3],
    ['an S3 request without a session token', get(s3Path('b', 'k')), { ...s3, credentials }],
    // Found by this test: other services sign the path normalised (no empty, `.` or `..` segments).
    ['a non-S3 path with empty, . and .. segments', { ...get('/a//b/./c/../d%20e/'), host: 'example.amazonaws.com' }, dynamodb],
    // Found by this test: header values fold only spaces and tabs, as the SDK's signer does.
    ['header values with runs of spaces and tabs and a no-break space', { ...json('DynamoDB_20120810.PutItem', {}), headers: { 'x-amz-meta-note': ' \t a  \t b\u00a0 c  ', 'content-type': 'application/x-amz-json-1.0' } }, dynamodb],
  ];

  it.each(cases)('%s', async (_name, request, scope) => {
    const signed = await expectSameAsSdk(request, scope, date);
    expect(signed['x-amz-date']).toBe('20261126T040506Z');
    expect('x-amz-security-token' in signed).toBe(scope.credentials.sessionToken !== undefined);
    expect('x-amz-content-sha256' in signed).toBe(scope.contentSha256Header === true);
  });

  it("gives the signature of AWS's own test suite (get-vanilla)", () => {
    const signed = signRequest(
      { method: 'GET', host: 'example.amazonaws.com', path: '/', headers: {}, body: Buffer.alloc(0) },
      { service: 'service', region: 'us-east-1', credentials },
      new Date('2015-08-30T12:36:00Z'),
    );
    expect(signed.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
  });
});

describe('signRequest on generated requests', () => {
  const text = fc.string({ unit: 'grapheme', maxLength: 12 });
  const segment = fc.oneof(text, fc.constantFrom('', '.', '..', ' ', '+', '~', '=', '%'));
  /** What a header value can be on the wire: Latin-1 text, with spaces and tabs anywhere. */
  const headerValue = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '\t', '\u00a0', '"', ',', ';', '=', 'é', '/'), maxLength: 16 });
  const request = fc.record({
    s3: fc.boolean(),
    method: fc.constantFrom('GET', 'PUT', 'POST', 'DELETE'),
    segments: fc.array(segment, { maxLength: 5 }),
    trailingSlash: fc.boolean(),
    query: fc.dictionary(text.filter((key) => key !== '__proto__'), text, { maxKeys: 4 }),
    headers: fc.dictionary(fc.stringMatching(/^x-amz-meta-[a-z0-9-]{1,8}$/), headerValue, { maxKeys: 3 }),
    body: fc.uint8Array({ maxLength: 64 }),
    sessionToken: fc.option(fc.string({ minLength: 1, maxLength: 40 }), { nil: undefined }),
    secretAccessKey: fc.string({ minLength: 1, maxLength: 40 }),
    region: fc.constantFrom('ap-south-1', 'us-east-1', 'cn-north-1'),
    date: fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }),
  });

  it('signs every one of them exactly as the SDK does', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (generated) => {
        const path = `/${generated.segments.map(extendedEncodeURIComponent).join('/')}${generated.trailingSlash ? '/' : ''}`;
        const scope: SigningScope = {
          service: generated.s3 ? 's3' : 'dynamodb',
          region: generated.region,
          credentials: { accessKeyId: 'AKID', secretAccessKey: generated.secretAccessKey, ...(generated.sessionToken ? { sessionToken: generated.sessionToken } : {}) },
          ...(generated.s3 ? { signPathAsSent: true, contentSha256Header: true } : {}),
        };
        await expectSameAsSdk({ method: generated.method, host: 'example.amazonaws.com', path, query: generated.query, headers: generated.headers, body: Buffer.from(generated.body) }, scope, generated.date);
      }),
      { numRuns: 300 },
    );
  });
});
