import { onTestFinished, vi } from 'vitest';
import { forgetClients } from '../../shared/aws/clients';
import { startReceiver, type Answer, type Received } from './receiver';

/**
 * Offline checks of the AWS services the functions call through the SDK where the local stack has
 * no engine (KMS, Secrets Manager, Translate) or where an answer AWS can give is hard to provoke
 * from an engine (an SES rejection, a wrong SQS checksum, a broken S3 listing): fakes on 127.0.0.1
 * that the SDK's clients reach through their own endpoint variables (AWS_ENDPOINT_URL_KMS, …).
 */

/** Stand-ins for a Lambda role's credentials, which the SDK must find in the environment. */
export const roleCredentials = { accessKeyId: 'AKIDUNITTEST', secretAccessKey: 'unit-test-secret-access-key', sessionToken: 'unit-test-session-token' };

const endpointVariables = ['DYNAMODB', 'KMS', 'S3', 'SECRETS_MANAGER', 'SES', 'SQS', 'TRANSLATE'].map((id) => `AWS_ENDPOINT_URL_${id}`);

/**
 * The environment of a function in AWS (role credentials, no local engine) with `overrides`
 * (endpoint variables, ARNs); whatever the shell had is put back when the test ends. The clients
 * made so far are dropped before and after, so each test's calls go where its environment says.
 */
export const useAwsEnvironment = async (overrides: Record<string, string> = {}) => {
  const environment: Record<string, string> = {
    AWS_REGION: 'ap-south-1',
    AWS_ACCESS_KEY_ID: roleCredentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: roleCredentials.secretAccessKey,
    AWS_SESSION_TOKEN: roleCredentials.sessionToken,
    AWS_PROFILE: '',
    AWS_ENDPOINT_URL: '',
    AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: '',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...Object.fromEntries(endpointVariables.map((name) => [name, ''])),
    ...Object.fromEntries(['DYNAMODB_ENDPOINT', 'SQS_ENDPOINT', 'SES_ENDPOINT', 'S3_ENDPOINT'].map((name) => [name, ''])),
    ...overrides,
  };
  await forgetClients();
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  onTestFinished(async () => {
    vi.unstubAllEnvs();
    await forgetClients();
  });
};

/** The access key and the service of a request's SigV4 credential scope (`Credential=<key>/<day>/<region>/<service>/aws4_request`). */
export const credentialOf = (request: Received): { accessKeyId?: string; region?: string; service?: string; sessionToken?: string } => {
  const match = /Credential=([^/]+)\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request/.exec(String(request.headers.authorization ?? ''));
  const sessionToken = request.headers['x-amz-security-token'];
  return { accessKeyId: match?.[1], region: match?.[2], service: match?.[3], ...(typeof sessionToken === 'string' ? { sessionToken } : {}) };
};

/** A fake AWS service on 127.0.0.1 that `variable` (AWS_ENDPOINT_URL_KMS, …) points the SDK at; `respond` answers, and it keeps what it was sent. */
export const fakeAwsService = async (variable: string, respond: (request: Received, index: number) => Answer, environment: Record<string, string> = {}) => {
  const receiver = await startReceiver(respond);
  onTestFinished(receiver.close);
  const endpoint = new URL(receiver.url).origin;
  await useAwsEnvironment({ [variable]: endpoint, ...environment });
  return { endpoint, requests: (): Received[] => receiver.received };
};

export const jsonAnswer = (body: unknown, status = 200, contentType = 'application/x-amz-json-1.1'): Answer => ({ status, body: JSON.stringify(body), headers: { 'content-type': contentType } });
export const xmlAnswer = (body: string, status = 200): Answer => ({ status, body, headers: { 'content-type': 'text/xml' } });
