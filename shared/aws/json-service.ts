import { AwsError } from './errors';
import { errorCodeOf, sendSigned, type Pause, type ServiceEndpoint } from './request';
import type { HttpResponse } from './transport';

/**
 * The awsJson protocols (DynamoDB, SQS: 1.0; KMS, Secrets Manager, Translate: 1.1): every
 * operation is a POST of a JSON document to `/`, named by the X-Amz-Target header. Blobs travel
 * as base64, so a Uint8Array anywhere in the input is sent as its base64 text.
 */
const blobsAsBase64 = function (this: Record<string, unknown>, key: string, value: unknown): unknown {
  const original = this[key];
  return original instanceof Uint8Array ? Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString('base64') : value;
};

type Reviver = (key: string, value: unknown) => unknown;

/**
 * An error's body is read with the service's reviver too: DynamoDB's carries items (a failed
 * condition's, a cancelled transaction's) whose bytes are base64, which the SDK hands back as bytes.
 */
const jsonErrorOf = (response: HttpResponse, reviver?: Reviver): AwsError => {
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(response.body.toString('utf8') || '{}', reviver) as Record<string, unknown>;
  } catch {
    // An HTML page from a proxy, say: the status is all there is.
  }
  const header = response.headers['x-amzn-errortype'];
  const raw = String(body.__type ?? body.code ?? (typeof header === 'string' ? header : '') ?? '');
  const name = raw ? errorCodeOf(raw) : response.status >= 500 ? 'InternalServerError' : 'UnknownError';
  const { __type: _type, message, Message, ...fields } = body;
  return new AwsError(name, String(message ?? Message ?? `${name} (HTTP ${response.status})`), response.status, fields);
};

export interface JsonService {
  endpoint: () => ServiceEndpoint;
  /** `DynamoDB_20120810`, `TrentService`, … */
  targetPrefix: string;
  version: '1.0' | '1.1';
}

/** Calls one operation; `reviver` (JSON.parse's) lets a service turn its own wire forms back into values. */
export const callJson = async <Output>(service: JsonService, operation: string, input: unknown, options: { reviver?: Reviver; pause?: Pause } = {}): Promise<Output> => {
  const response = await sendSigned(
    service.endpoint(),
    {
      method: 'POST',
      path: '/',
      headers: { 'content-type': `application/x-amz-json-${service.version}`, 'x-amz-target': `${service.targetPrefix}.${operation}` },
      body: Buffer.from(JSON.stringify(input, blobsAsBase64), 'utf8'),
    },
    (response) => jsonErrorOf(response, options.reviver),
    options.pause,
  );
  const text = response.body.toString('utf8');
  return (text ? JSON.parse(text, options.reviver) : {}) as Output;
};

export interface Call {
  input: Record<string, unknown>;
}
export type CallHandler = (call: Call) => Promise<{ output: Record<string, unknown> }>;
/**
 * Wraps a call: `commandName` is the service's operation (PutItem, SendMessage, …). How tests make
 * storage fail and the bench counts what the service asks of AWS.
 */
export type Middleware = (next: CallHandler, context: { commandName: string }) => CallHandler;

/** Runs `last` inside the middleware, the first added outermost. */
export const throughMiddleware = (middleware: readonly Middleware[], commandName: string, last: CallHandler): CallHandler =>
  middleware.reduceRight<CallHandler>((next, wrap) => wrap(next, { commandName }), last);

/** A client that runs middleware around each of its calls. */
export abstract class MiddlewareClient {
  protected readonly middleware: Middleware[] = [];

  use(middleware: Middleware): this {
    this.middleware.push(middleware);
    return this;
  }
}

/** One service's operations, with middleware around each call. */
export class JsonClient extends MiddlewareClient {
  constructor(private readonly service: JsonService) {
    super();
  }

  async call<Output>(operation: string, input: Record<string, unknown>): Promise<Output> {
    const handler = throughMiddleware(this.middleware, operation, async (call) => ({ output: await callJson<Record<string, unknown>>(this.service, operation, call.input) }));
    return (await handler({ input })).output as Output;
  }
}
