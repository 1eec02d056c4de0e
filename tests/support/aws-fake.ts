import { Readable } from 'node:stream';
import { HttpResponse, type HttpRequest as SdkHttpRequest } from '@smithy/core/protocols';
import { onTestFinished, vi } from 'vitest';
import type { HttpRequest } from '../../shared/aws/transport';
import { startReceiver, type Answer, type Received } from './receiver';
import { signedFor } from './sigv4';

/**
 * Offline checks of the services in shared/aws (KMS, Secrets Manager, Translate, SES, SQS, S3):
 * fakes of them on 127.0.0.1 that our code reaches through the endpoint variables the AWS SDKs
 * honour (AWS_ENDPOINT_URL_KMS, …), and the SDK's own clients whose requests are caught by a
 * request handler that answers without sending anything, to compare the two.
 */

/** Stand-ins for a Lambda role's credentials: the fakes check signatures with them. */
export const roleCredentials = { accessKeyId: 'AKIDUNITTEST', secretAccessKey: 'unit-test-secret-access-key', sessionToken: 'unit-test-session-token' };

const endpointVariables = ['DYNAMODB', 'KMS', 'S3', 'SECRETS_MANAGER', 'SES', 'SQS', 'TRANSLATE'].map((id) => `AWS_ENDPOINT_URL_${id}`);

/**
 * The environment of a function in AWS (role credentials, no local engine) with `overrides`
 * (endpoint variables, ARNs); whatever the shell had is put back when the test ends.
 */
export const useAwsEnvironment = (overrides: Record<string, string> = {}) => {
  const environment: Record<string, string> = {
    AWS_REGION: 'ap-south-1',
    AWS_ACCESS_KEY_ID: roleCredentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: roleCredentials.secretAccessKey,
    AWS_SESSION_TOKEN: roleCredentials.sessionToken,
    AWS_ENDPOINT_URL: '',
    AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: '',
    ...Object.fromEntries(endpointVariables.map((name) => [name, ''])),
    ...Object.fromEntries(['DYNAMODB_ENDPOINT', 'SQS_ENDPOINT', 'SES_ENDPOINT', 'S3_ENDPOINT'].map((name) => [name, ''])),
    ...overrides,
  };
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  onTestFinished(() => void vi.unstubAllEnvs());
};

export interface FakeRequest extends Received {
  /** the service the request's signature is valid for with roleCredentials, if any */
  signedFor: string | undefined;
}

/** A fake AWS service on 127.0.0.1 that `variable` (AWS_ENDPOINT_URL_KMS, …) points our code at; `respond` answers, and it keeps what it was sent. */
export const fakeAwsService = async (variable: string, respond: (request: Received, index: number) => Answer, environment: Record<string, string> = {}) => {
  const receiver = await startReceiver(respond);
  onTestFinished(receiver.close);
  const endpoint = new URL(receiver.url).origin;
  useAwsEnvironment({ [variable]: endpoint, ...environment });
  return {
    endpoint,
    requests: (): Promise<FakeRequest[]> => Promise.all(receiver.received.map(async (request) => ({ ...request, signedFor: await signedFor(request, roleCredentials) }))),
  };
};

export const jsonAnswer = (body: unknown, status = 200): Answer => ({ status, body: JSON.stringify(body), headers: { 'content-type': 'application/x-amz-json-1.1' } });
export const xmlAnswer = (body: string, status = 200): Answer => ({ status, body, headers: { 'content-type': 'application/xml' } });

/** A request in the terms both sides share: host, decoded query, lower-case headers, body bytes. */
export interface Wire {
  method: string;
  host: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: Buffer;
}

const headersOf = (headers: Record<string, unknown>): Record<string, string> => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), String(value)]));
const split = (path: string) => {
  const [pathname = '/', search = ''] = path.split('?');
  return { path: pathname, query: Object.fromEntries(search ? search.split('&').map((pair) => pair.split('=').map(decodeURIComponent) as [string, string]) : []) };
};

/** Ours: what a fake received, or a request signedHttpRequest built. */
export const wireOf = (request: Received | HttpRequest): Wire => {
  const headers = headersOf(request.headers);
  return { method: request.method, host: headers.host!, ...split(request.path), headers, body: 'rawBody' in request ? request.rawBody : request.body };
};

/** The SDK's, less its `x-id` query marker (the operation's name, which S3 does not need). */
const sdkWireOf = (request: SdkHttpRequest): Wire => {
  const { 'x-id': _marker, ...query } = request.query as Record<string, string>;
  const raw = request.body as string | Uint8Array | undefined;
  // A Uint8Array's bytes taken as they are: Buffer.from(object) would call the string methods the SDK warns about.
  const body = raw === undefined ? Buffer.alloc(0) : typeof raw === 'string' ? Buffer.from(raw, 'utf8') : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  return { method: request.method, host: request.headers.host!, path: request.path, query, headers: headersOf(request.headers), body };
};

/**
 * Sends `command` through an SDK client made by `client` from the options given (the region and
 * role credentials, one attempt, a handler that keeps the request and answers `reply` without
 * sending it anywhere), and returns that request and how the call ended.
 */
export const sdkSend = async (client: (options: any) => { send(command: any): Promise<unknown>; destroy(): void }, command: unknown, reply: Answer = { status: 200, body: '' }) => {
  const requests: SdkHttpRequest[] = [];
  const handle = async (request: SdkHttpRequest) => {
    requests.push(request);
    return { response: new HttpResponse({ statusCode: reply.status, headers: reply.headers ?? {}, body: Readable.from([Buffer.from(reply.body ?? '')]) }) };
  };
  const sdk = client({ region: 'ap-south-1', credentials: roleCredentials, maxAttempts: 1, requestHandler: { handle } });
  try {
    const output = await sdk.send(command);
    return { request: sdkWireOf(requests[0]!), output: output as any, error: undefined };
  } catch (error) {
    return { request: sdkWireOf(requests[0]!), output: undefined, error: error as any };
  } finally {
    sdk.destroy();
  }
};

/** The parts of an error both clients give: its name, message and status. */
export const errorShape = (error: any) => ({ name: error?.name, message: error?.message, status: error?.$metadata?.httpStatusCode });
