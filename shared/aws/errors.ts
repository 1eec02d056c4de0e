/**
 * An error AWS answered with, shaped as the SDK shapes its exceptions (`name` is the error code,
 * `$metadata.httpStatusCode` the status, the body's other members as fields such as DynamoDB's
 * `CancellationReasons`), so code that reads errors reads them the same whichever client sent.
 */
export class AwsError extends Error {
  readonly $metadata: { httpStatusCode?: number; attempts: number };
  readonly $fault: 'client' | 'server';
  [field: string]: unknown;

  constructor(name: string, message: string, status: number | undefined, fields: Record<string, unknown> = {}, attempts = 1) {
    super(message);
    Object.assign(this, fields);
    this.name = name;
    this.$metadata = { httpStatusCode: status, attempts };
    this.$fault = status !== undefined && status >= 500 ? 'server' : 'client';
  }
}

/** Codes AWS uses for "slow down", across services (the SDK's list). */
const throttlingCodes = new Set([
  'BandwidthLimitExceeded',
  'EC2ThrottledException',
  'LimitExceededException',
  'PriorRequestNotComplete',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  'ThrottledException',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'TransactionInProgressException',
]);
const transientCodes = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'InternalServerError', 'InternalFailure', 'ServiceUnavailable']);
const transientStatuses = new Set([500, 502, 503, 504]);
/** Socket errors after which the same request may well succeed. */
const networkCodes = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN']);

export const isThrottling = (error: unknown): boolean => error instanceof AwsError && (throttlingCodes.has(error.name) || error.$metadata.httpStatusCode === 429);

/** Worth another attempt: throttled, a server fault, or the connection failed. A client error never is. */
export const isRetryable = (error: unknown): boolean => {
  if (error instanceof AwsError) return isThrottling(error) || transientCodes.has(error.name) || transientStatuses.has(error.$metadata.httpStatusCode ?? 0);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && networkCodes.has(code);
};
