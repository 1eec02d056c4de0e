import { AppError, ValidationError } from '../errors';
import { describeError, log } from '../log';

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  /** The body is base64 of bytes (a PDF), as API Gateway takes a binary body. */
  isBase64Encoded?: boolean;
}

export const jsonHeaders = { 'Content-Type': 'application/json; charset=utf-8' };

/** middy's JSON body parser throws an http-error carrying its package name when JSON is malformed. */
const isMalformedJson = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (error as { cause?: { package?: string } }).cause?.package === '@middy/http-json-body-parser';

/**
 * The one error mapper: typed errors become the spec's envelope with their own status; anything
 * else is a 500 INTERNAL_ERROR whose body says nothing of the cause, which goes to the log
 * with the request id the response also carries.
 */
export const errorResponse = (error: unknown, requestId: string): HttpResponse => {
  const known = isMalformedJson(error)
    ? new ValidationError({ body: 'Body must be valid JSON' }, 'Malformed JSON body', error)
    : error;
  if (known instanceof AppError) {
    if (known.status >= 500) log.error('request failed', { requestId, code: known.code, ...describeError(known) });
    return {
      statusCode: known.status,
      headers: { ...jsonHeaders, ...known.headers },
      body: JSON.stringify({
        // The spec: `fields` is present only on VALIDATION_ERROR responses.
        error: {
          code: known.code,
          message: known.message,
          ...(known.fields && known.code === 'VALIDATION_ERROR' ? { fields: known.fields } : {}),
          ...(known.details ? { details: known.details } : {}),
        },
      }),
    };
  }
  log.error('unexpected error', { requestId, ...describeError(error) });
  return {
    statusCode: 500,
    headers: jsonHeaders,
    body: JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred' } }),
  };
};

export const dataResponse = (statusCode: number, data: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  statusCode,
  headers: { ...jsonHeaders, ...headers },
  body: JSON.stringify({ data }),
});
