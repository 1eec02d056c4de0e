import { createHash, createHmac } from 'node:crypto';
import type { AwsCredentials } from './credentials';

/**
 * AWS Signature Version 4 (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html)
 * over node:crypto: what the SDK's signer does for the few services the functions call, in a
 * fraction of its bundle. tests/aws-sigv4.unit.test.ts checks it against @smithy/signature-v4.
 */
export interface UnsignedRequest {
  method: string;
  /** host[:port] as sent in the Host header */
  host: string;
  /** the path as sent, already percent-encoded where it needs to be */
  path: string;
  query?: Record<string, string>;
  headers: Record<string, string>;
  body: Buffer;
}

export interface SigningScope {
  service: string;
  region: string;
  credentials: AwsCredentials;
  /** S3 signs the path as sent; every other service signs it encoded once more. */
  signPathAsSent?: boolean;
  /** S3 wants the payload hash in a header of its own. */
  contentSha256Header?: boolean;
}

const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 unreserved characters stay, everything else is %XX (encodeURIComponent leaves !'()* alone). */
export const uriEncode = (text: string): string => encodeURIComponent(text).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * S3 signs the path exactly as sent. Every other service signs it normalised first (RFC 3986: no
 * empty, `.` or `..` segments, as AWS's servers and the SDK's signer do), then encoded once more:
 * without the normalising, `/a//b` or `/a/./b` would be refused with SignatureDoesNotMatch.
 */
const canonicalPath = (path: string, asSent: boolean): string => {
  if (asSent) return path;
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '' && segment !== '.') segments.push(segment);
  }
  const normalised = `${path.startsWith('/') ? '/' : ''}${segments.join('/')}${segments.length > 0 && path.endsWith('/') ? '/' : ''}`;
  return normalised.split('/').map((segment) => uriEncode(segment)).join('/');
};

/**
 * A header value as signed: line breaks become spaces, runs of spaces and tabs one space, one space
 * trimmed at each end: only spaces and tabs, as the SDK's signer folds them. JavaScript's `\s` and
 * `trim` also fold a no-break space (Latin-1, so a header may carry one), and the signature differed.
 */
const canonicalHeaderValue = (value: string): string => value.replace(/[\r\n]/g, ' ').replace(/[ \t]+/g, ' ').replace(/^ | $/g, '');

const canonicalQuery = (query: Record<string, string>): string =>
  Object.entries(query)
    .map(([key, value]) => [uriEncode(key), uriEncode(value)] as const)
    .sort(([a, valueA], [b, valueB]) => (a < b ? -1 : a > b ? 1 : valueA < valueB ? -1 : valueA > valueB ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');

/** `20261126T040506Z` */
export const amzDateOf = (date: Date): string => date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** Signing keys change once a day per scope: derived once and kept. */
const signingKeys = new Map<string, { secret: string; key: Buffer }>();
const signingKeyOf = (secret: string, day: string, region: string, service: string): Buffer => {
  const scope = `${day}/${region}/${service}`;
  const kept = signingKeys.get(scope);
  if (kept?.secret === secret) return kept.key;
  if (signingKeys.size > 32) signingKeys.clear();
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
  signingKeys.set(scope, { secret, key });
  return key;
};

/** The request's headers with Host, X-Amz-Date, the session token (if any) and Authorization added. */
export const signRequest = (request: UnsignedRequest, scope: SigningScope, now: Date): Record<string, string> => {
  const amzDate = amzDateOf(now);
  const day = amzDate.slice(0, 8);
  const payloadHash = sha256Hex(request.body);
  const headers: Record<string, string> = { ...request.headers, host: request.host, 'x-amz-date': amzDate };
  if (scope.credentials.sessionToken) headers['x-amz-security-token'] = scope.credentials.sessionToken;
  if (scope.contentSha256Header) headers['x-amz-content-sha256'] = payloadHash;
  const lower = Object.entries(headers)
    .map(([name, value]) => [name.toLowerCase(), canonicalHeaderValue(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const signedHeaders = lower.map(([name]) => name).join(';');
  const canonicalRequest = [
    request.method,
    canonicalPath(request.path, scope.signPathAsSent ?? false),
    canonicalQuery(request.query ?? {}),
    lower.map(([name, value]) => `${name}:${value}\n`).join(''),
    signedHeaders,
    payloadHash,
  ].join('\n');
  const credentialScope = `${day}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, credentialScope, sha256Hex(canonicalRequest)].join('\n');
  const signature = createHmac('sha256', signingKeyOf(scope.credentials.secretAccessKey, day, scope.region, scope.service)).update(stringToSign, 'utf8').digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${scope.credentials.accessKeyId}/${credentialScope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
};
