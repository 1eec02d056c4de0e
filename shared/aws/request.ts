import { config } from '../config';
import { environmentCredentials, localCredentials, type AwsCredentials } from './credentials';
import { AwsError, isRetryable, isThrottling } from './errors';
import { signRequest, uriEncode } from './sigv4';
import { sendHttp, type HttpRequest, type HttpResponse } from './transport';

/** Where one service is reached and how requests to it are signed. */
export interface ServiceEndpoint {
  /** signing name: dynamodb, s3, kms, … */
  service: string;
  region: string;
  origin: URL;
  credentials: AwsCredentials;
  signPathAsSent?: boolean;
  contentSha256Header?: boolean;
}

/** The AWS SDKs' ids of the services we call, which name their endpoint variables (config.configuredEndpointOf). */
const sdkServiceIds: Record<string, string> = { dynamodb: 'DynamoDB', kms: 'KMS', s3: 'S3', secretsmanager: 'Secrets Manager', ses: 'SES', sqs: 'SQS', translate: 'Translate' };

/**
 * The service's endpoint: the local engine's when the configuration names one (with the local
 * credentials), else the one an operator configured as the SDKs honour it (AWS_ENDPOINT_URL_KMS, …)
 * or else AWS's regional endpoint, both with the role's credentials from the environment.
 */
export const endpointOf = (service: string, localEndpoint: string | undefined, options: { host?: string; signPathAsSent?: boolean; contentSha256Header?: boolean } = {}): ServiceEndpoint => {
  const region = config.region;
  const signing = { ...(options.signPathAsSent ? { signPathAsSent: true } : {}), ...(options.contentSha256Header ? { contentSha256Header: true } : {}) };
  if (localEndpoint) return { service, region, origin: new URL(localEndpoint), credentials: localCredentials, ...signing };
  const domain = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  const origin = new URL(config.configuredEndpointOf(sdkServiceIds[service] ?? service) ?? `https://${options.host ?? service}.${region}.${domain}`);
  return { service, region, origin, credentials: environmentCredentials(), ...signing };
};

export interface ServiceRequest {
  method: string;
  /** percent-encoded path, from `/` */
  path: string;
  query?: Record<string, string>;
  headers: Record<string, string>;
  body: Buffer;
  /** another origin than the endpoint's (an S3 bucket's virtual host) */
  origin?: URL;
}

/**
 * The SDK's standard retry mode as it long stood: three attempts, full jitter, 100 ms base (500 ms
 * when throttled), 20 s at most. (The SDK installed now, 3.1162, makes up to four attempts for
 * DynamoDB, on a 25 ms base, 1 s when throttled; which errors it retries is the same, as
 * tests/aws-request.unit.test.ts checks.)
 */
const maxAttempts = 3;
const backoffMs = (error: unknown, attempt: number): number => Math.floor(Math.random() * Math.min(20_000, (isThrottling(error) ? 500 : 100) * 2 ** attempt));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** How the wait between attempts is spent; tests pass one that records it and returns at once. */
export type Pause = (ms: number) => Promise<void>;

/**
 * The request as it goes on the wire, signed at `now`: sent as signed, and as the SDK sends it (a
 * URL would resolve `.` and `..` segments, which an S3 key may have, and write a space in the query
 * as `+`, and the signature would not match).
 */
export const signedHttpRequest = (endpoint: ServiceEndpoint, request: ServiceRequest, now: Date): HttpRequest => {
  const origin = request.origin ?? endpoint.origin;
  const query = request.query ?? {};
  const search = Object.keys(query).sort().map((name) => `${uriEncode(name)}=${uriEncode(query[name]!)}`).join('&');
  const headers = signRequest({ method: request.method, host: origin.host, path: request.path, query, headers: request.headers, body: request.body }, endpoint, now);
  return { method: request.method, origin, path: search ? `${request.path}?${search}` : request.path, headers, body: request.body };
};

/**
 * Signs and sends one request, again while the failure is one worth retrying (throttling, a server
 * fault, a dropped connection), and returns a 2xx response; any other answer is thrown as the
 * AwsError `errorOf` reads from it. The signature's time is the machine's, never the service's
 * injectable clock: AWS refuses a signature more than five minutes off.
 */
export const sendSigned = async (endpoint: ServiceEndpoint, request: ServiceRequest, errorOf: (response: HttpResponse) => AwsError, pause: Pause = sleep): Promise<HttpResponse> => {
  for (let attempt = 1; ; attempt += 1) {
    let failure: unknown;
    try {
      const response = await sendHttp(signedHttpRequest(endpoint, request, new Date()));
      if (response.status >= 200 && response.status < 300) return response;
      failure = errorOf(response);
    } catch (error) {
      failure = error;
    }
    if (attempt >= maxAttempts || !isRetryable(failure)) {
      if (failure instanceof AwsError) failure.$metadata.attempts = attempt;
      throw failure;
    }
    await pause(backoffMs(failure, attempt));
  }
};

/** The error code of a `Code` or `__type` value: `com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException` → the part after `#`, before any `:`. */
export const errorCodeOf = (raw: string): string => raw.split('#').pop()!.split(':')[0]!.trim();
