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
  | 'WITHDRAWAL_TOKEN_NOT_FOUND'
  | 'WITHDRAWAL_TOKEN_EXPIRED'
  | 'WITHDRAWAL_TOKEN_USED'
  | 'SET_PASSWORD_TOKEN_NOT_FOUND'
  | 'SET_PASSWORD_TOKEN_EXPIRED'
  | 'SET_PASSWORD_TOKEN_USED'
  | 'GONE'
  | 'INTERNAL_ERROR';

/** HTTP status per code: the spec's Errors table, plus the documented extensions. */
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
  /** Extensions: the portal's token errors, which the spec leaves to us. */
  WITHDRAWAL_TOKEN_NOT_FOUND: 404,
  WITHDRAWAL_TOKEN_EXPIRED: 410,
  /** A link spent by its withdrawal: a state conflict, told apart from others so the portal can say so. */
  WITHDRAWAL_TOKEN_USED: 409,
  /** Extensions: an invited user's set-password link, in the same style as the withdrawal links. */
  SET_PASSWORD_TOKEN_NOT_FOUND: 404,
  SET_PASSWORD_TOKEN_EXPIRED: 410,
  SET_PASSWORD_TOKEN_USED: 409,
  /** Extension: a rights request's link whose request expired unconfirmed (error.details.reason says why). */
  GONE: 410,
  INTERNAL_ERROR: 500,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: Record<string, string>;
  readonly headers?: Record<string, string>;
  /** Extension: facts a client needs to explain the error (the withdrawal-link errors only). */
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
