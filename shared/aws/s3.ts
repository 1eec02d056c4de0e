import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { config } from '../config';
import { endpointOf, sendSigned, type ServiceEndpoint, type ServiceRequest } from './request';
import { uriEncode } from './sigv4';
import { xmlErrorOf, xmlText, xmlTexts } from './xml';

/**
 * The four S3 calls the checkpoint archive makes (shared/evidence/archive.ts), as signed REST
 * requests: in AWS virtual-hosted (`<bucket>.s3.<region>.amazonaws.com/<key>`), on the local
 * emulator path-style (`<endpoint>/<bucket>/<key>`), as the SDK addresses them. Each request is
 * built apart from sending (`s3Requests`), so tests compare it with the SDK's without a network.
 */
const s3Endpoint = (): ServiceEndpoint => endpointOf('s3', config.s3Endpoint, { signPathAsSent: true, contentSha256Header: true });

export interface S3Request {
  endpoint: ServiceEndpoint;
  request: ServiceRequest;
}

const locate = (bucket: string, key: string | undefined, request: Omit<ServiceRequest, 'path'>): S3Request => {
  const endpoint = s3Endpoint();
  const keyPath = key === undefined ? '' : `/${key.split('/').map(uriEncode).join('/')}`;
  // A bucket name with dots cannot be a TLS host name's label, and an IP address takes no
  // subdomain (an endpoint configured as one, as the SDK decides too): such requests go path-style.
  const pathStyle = config.s3Endpoint !== undefined || bucket.includes('.') || isIP(endpoint.origin.hostname.replace(/^\[|\]$/g, '')) !== 0;
  // A bucket's own path-style path ends in `/`, as the SDK sends it (S3 takes `/<bucket>` too).
  if (pathStyle) return { endpoint, request: { ...request, path: `/${bucket}${keyPath || '/'}` } };
  return { endpoint, request: { ...request, path: keyPath || '/', origin: new URL(`${endpoint.origin.protocol}//${bucket}.${endpoint.origin.host}`) } };
};

const base64Sha256 = (body: Buffer): string => createHash('sha256').update(body).digest('base64');
const empty = Buffer.alloc(0);

export const s3Requests = {
  getObject: (bucket: string, key: string): S3Request => locate(bucket, key, { method: 'GET', headers: {}, body: empty }),
  /** With the body's SHA-256 checksum, which S3 requires of Object Lock puts. */
  putObject: (bucket: string, key: string, body: Buffer, headers: Record<string, string>): S3Request =>
    locate(bucket, key, { method: 'PUT', headers: { ...headers, 'x-amz-checksum-sha256': base64Sha256(body) }, body }),
  listObjects: (bucket: string, options: { prefix: string; startAfter?: string; continuationToken?: string }): S3Request => {
    const query: Record<string, string> = { 'list-type': '2', prefix: options.prefix };
    if (options.startAfter !== undefined) query['start-after'] = options.startAfter;
    if (options.continuationToken !== undefined) query['continuation-token'] = options.continuationToken;
    return locate(bucket, undefined, { method: 'GET', query, headers: {}, body: empty });
  },
  /** Naming the region outside us-east-1, as S3 wants. */
  createBucket: (bucket: string): S3Request => {
    const body =
      config.region === 'us-east-1'
        ? empty
        : Buffer.from(`<CreateBucketConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><LocationConstraint>${config.region}</LocationConstraint></CreateBucketConfiguration>`, 'utf8');
    return locate(bucket, undefined, { method: 'PUT', headers: body.length ? { 'content-type': 'application/xml' } : {}, body });
  },
};

const send = ({ endpoint, request }: S3Request) => sendSigned(endpoint, request, xmlErrorOf);

export const getObjectText = async (bucket: string, key: string): Promise<string> => (await send(s3Requests.getObject(bucket, key))).body.toString('utf8');

/** PutObject with the given headers (`if-none-match`, object lock, content type). */
export const putObject = async (bucket: string, key: string, body: Buffer, headers: Record<string, string>): Promise<void> => {
  await send(s3Requests.putObject(bucket, key, body, headers));
};

/** One page of ListObjectsV2: the keys, and the token of the next page if there is one. */
export const listObjectKeys = async (bucket: string, options: { prefix: string; startAfter?: string; continuationToken?: string }): Promise<{ keys: string[]; next?: string }> => {
  const xml = (await send(s3Requests.listObjects(bucket, options))).body.toString('utf8');
  const next = xmlText(xml, 'IsTruncated') === 'true' ? xmlText(xml, 'NextContinuationToken') : undefined;
  return { keys: xmlTexts(xml, 'Key'), ...(next ? { next } : {}) };
};

export const createBucket = async (bucket: string): Promise<void> => {
  await send(s3Requests.createBucket(bucket));
};
