import { createHash } from 'node:crypto';
import { config } from '../config';
import { endpointOf, sendSigned, type ServiceEndpoint } from './request';
import { uriEncode } from './sigv4';
import { xmlErrorOf, xmlText, xmlTexts } from './xml';

/**
 * The four S3 calls the checkpoint archive makes (shared/evidence/archive.ts), as signed REST
 * requests: in AWS virtual-hosted (`<bucket>.s3.<region>.amazonaws.com/<key>`), on the local
 * emulator path-style (`<endpoint>/<bucket>/<key>`), as the SDK addresses them.
 */
const s3Endpoint = (): ServiceEndpoint => endpointOf('s3', config.s3Endpoint, { signPathAsSent: true, contentSha256Header: true });

const locate = (bucket: string, key?: string): { endpoint: ServiceEndpoint; origin: URL; path: string } => {
  const endpoint = s3Endpoint();
  const keyPath = key === undefined ? '' : `/${key.split('/').map(uriEncode).join('/')}`;
  // A bucket name with dots cannot be a TLS host name's label: such buckets stay path-style.
  if (config.s3Endpoint || bucket.includes('.')) return { endpoint, origin: endpoint.origin, path: `/${bucket}${keyPath}` };
  return { endpoint, origin: new URL(`${endpoint.origin.protocol}//${bucket}.${endpoint.origin.host}`), path: keyPath || '/' };
};

const base64Sha256 = (body: Buffer): string => createHash('sha256').update(body).digest('base64');

export const getObjectText = async (bucket: string, key: string): Promise<string> => {
  const { endpoint, origin, path } = locate(bucket, key);
  const response = await sendSigned(endpoint, { method: 'GET', path, headers: {}, body: Buffer.alloc(0), origin }, xmlErrorOf);
  return response.body.toString('utf8');
};

/** PutObject with the body's SHA-256 checksum (which S3 requires of Object Lock puts) and the given headers (`if-none-match`, object lock, content type). */
export const putObject = async (bucket: string, key: string, body: Buffer, headers: Record<string, string>): Promise<void> => {
  const { endpoint, origin, path } = locate(bucket, key);
  await sendSigned(endpoint, { method: 'PUT', path, headers: { ...headers, 'x-amz-checksum-sha256': base64Sha256(body) }, body, origin }, xmlErrorOf);
};

/** One page of ListObjectsV2: the keys, and the token of the next page if there is one. */
export const listObjectKeys = async (bucket: string, options: { prefix: string; startAfter?: string; continuationToken?: string }): Promise<{ keys: string[]; next?: string }> => {
  const { endpoint, origin, path } = locate(bucket);
  const query: Record<string, string> = { 'list-type': '2', prefix: options.prefix };
  if (options.startAfter !== undefined) query['start-after'] = options.startAfter;
  if (options.continuationToken !== undefined) query['continuation-token'] = options.continuationToken;
  const response = await sendSigned(endpoint, { method: 'GET', path, query, headers: {}, body: Buffer.alloc(0), origin }, xmlErrorOf);
  const xml = response.body.toString('utf8');
  const next = xmlText(xml, 'IsTruncated') === 'true' ? xmlText(xml, 'NextContinuationToken') : undefined;
  return { keys: xmlTexts(xml, 'Key'), ...(next ? { next } : {}) };
};

/** CreateBucket, naming the region outside us-east-1 as S3 wants. */
export const createBucket = async (bucket: string): Promise<void> => {
  const { endpoint, origin, path } = locate(bucket);
  const body =
    config.region === 'us-east-1'
      ? Buffer.alloc(0)
      : Buffer.from(`<CreateBucketConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><LocationConstraint>${config.region}</LocationConstraint></CreateBucketConfiguration>`, 'utf8');
  await sendSigned(endpoint, { method: 'PUT', path, headers: body.length ? { 'content-type': 'application/xml' } : {}, body, origin }, xmlErrorOf);
};
