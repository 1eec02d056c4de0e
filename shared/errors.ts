/**
 * Typed errors carrying the spec's machine-readable code. Domain and data code throw these;
 * the one error mapper (http/error-mapper.ts) turns them into the response envelope.
 */

export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'TOKEN_INVALID'
  | 'FORBIDDEN'
  | 'PLAN_LIMIT_REACHED'
  | 'FEATURE_NOT_AVAILABLE'
  | 'PLAN_REQUIRED'
  | 'ORIGIN_NOT_ALLOWED'
  | 'ORIGIN_MISSING'
  | 'NOT_FOUND'
  | 'CMP_NOT_CONFIGURED'
  | 'CONFLICT'
  | 'ASSET_LINKED_TO_PUBLISHED_NOTICE'
  | 'PROCESSOR_HAS_LINKED_ASSETS'
  | 'SCAN_ALREADY_RUNNING'
  | 'CHILD_DIRECTED_VIOLATION'
  | 'NO_SCAN_URLS'
  | 'RATE_LIMIT'
  | 'SDK_RATE_LIMIT'
  | 'MONTHLY_LIMIT_REACHED'
  | 'CMP_RATE_LIMIT'
  | 'SCAN_RATE_LIMIT'
  | 'SET_PASSWORD_TOKEN_NOT_FOUND'
  | 'SET_PASSWORD_TOKEN_EXPIRED'
  | 'SET_PASSWORD_TOKEN_USED'
  | 'GONE'
  | 'PAYLOAD_TOO_LARGE'
  | 'INTERNAL_ERROR';

/**
 * HTTP status per code: the spec's Errors table, plus the documented extensions, which only
 * extension routes may answer with (tests/spec-error-codes.unit.test.ts). A spec route that needs
 * to say more puts it in `error.details` (a withdrawal link's `reason`, say).
 */
export const statusOfCode: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  TOKEN_INVALID: 401,
  FORBIDDEN: 403,
  PLAN_LIMIT_REACHED: 403,
  FEATURE_NOT_AVAILABLE: 403,
  PLAN_REQUIRED: 403,
  ORIGIN_NOT_ALLOWED: 403,
  ORIGIN_MISSING: 403,
  NOT_FOUND: 404,
  CMP_NOT_CONFIGURED: 404,
  CONFLICT: 409,
  ASSET_LINKED_TO_PUBLISHED_NOTICE: 409,
  PROCESSOR_HAS_LINKED_ASSETS: 409,
  SCAN_ALREADY_RUNNING: 409,
  CHILD_DIRECTED_VIOLATION: 400,
  NO_SCAN_URLS: 400,
  RATE_LIMIT: 429,
  SDK_RATE_LIMIT: 429,
  MONTHLY_LIMIT_REACHED: 429,
  CMP_RATE_LIMIT: 429,
  SCAN_RATE_LIMIT: 429,
  /** Extensions, on an extension route only (POST /auth/set-password): an invited user's set-password link. */
  SET_PASSWORD_TOKEN_NOT_FOUND: 404,
  SET_PASSWORD_TOKEN_EXPIRED: 410,
  SET_PASSWORD_TOKEN_USED: 409,
  /** Extension: a rights request's link whose request expired unconfirmed (error.details.reason says why). */
  GONE: 410,
  /**
   * Extension, never a route's answer: the local stand-in for the gateway refuses a body past the
   * gateway's limit (http/body-limits.ts) before any route runs. The spec's table has no 413; in
   * AWS the gateway gives its own 413 there.
   */
  PAYLOAD_TOO_LARGE: 413,
  INTERNAL_ERROR: 500,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: Record<string, string>;
  readonly headers?: Record<string, string>;
  /** Extension: facts a client needs to explain the error (a withdrawal link's reason, whose link it was). */
  readonly details?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; fields?: Record<string, string>; headers?: Record<string, string>; details?: Record<string, unknown> } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    if (options.fields) this.fields = options.fields;
    if (options.headers) this.headers = options.headers;
    if (options.details) this.details = options.details;
  }

  get status(): number {
    return statusOfCode[this.code];
  }
}

export class ValidationError extends AppError {
  constructor(fields: Record<string, string>, message = 'Request validation failed', cause?: unknown) {
    super('VALIDATION_ERROR', message, { fields, cause });
  }
}

export class NotFoundError extends AppError {
  constructor(what: string, cause?: unknown) {
    super('NOT_FOUND', `${what} not found`, { cause });
  }
}

export class ConflictError extends AppError {
  constructor(message: string, cause?: unknown) {
    super('CONFLICT', message, { cause });
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required', cause?: unknown) {
    super('UNAUTHORIZED', message, { cause });
  }
}

export class TokenInvalidError extends AppError {
  constructor(message = 'Access token is invalid or expired; refresh it', cause?: unknown) {
    super('TOKEN_INVALID', message, { cause });
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Your role does not allow this action', cause?: unknown) {
    super('FORBIDDEN', message, { cause });
  }
}

export class RateLimitError extends AppError {
  constructor(
    code: 'RATE_LIMIT' | 'SDK_RATE_LIMIT' | 'CMP_RATE_LIMIT' | 'SCAN_RATE_LIMIT' | 'MONTHLY_LIMIT_REACHED',
    retryAfterSeconds: number,
    message = 'Too many requests',
  ) {
    super(code, message, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
  }
}
