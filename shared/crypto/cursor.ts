import { createHmac, timingSafeEqual } from 'node:crypto';
import { secretConfig } from '../config';
import { ValidationError } from '../errors';

/**
 * Opaque, authenticated paging cursors. A cursor carries a DynamoDB key back to the client;
 * unchecked, a client could hand any key to ExclusiveStartKey (a 500, or another tenant's key
 * range). `payload.tag`, both base64url: the tag is HMAC-SHA256 under CURSOR_SECRET over the
 * context (tenant id and whatever else fixes the listing) and the payload, so a cursor works only
 * for the listing that issued it, unmodified.
 */
const tagOf = (context: readonly string[], payload: string): Buffer =>
  createHmac('sha256', secretConfig.cursorSecret).update(JSON.stringify([...context, payload])).digest();

export const sealCursor = (context: readonly string[], value: unknown): string => {
  const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${payload}.${tagOf(context, payload).toString('base64url')}`;
};

/** The value sealed under this context, or 400 VALIDATION_ERROR on `cursor`. Shape checks stay with the caller. */
export const openCursor = (context: readonly string[], raw: string): unknown => {
  const invalid = () => new ValidationError({ cursor: 'not a cursor this listing returned' }, 'Invalid cursor');
  const [payload, tag, ...rest] = raw.split('.');
  if (!payload || !tag || rest.length > 0) throw invalid();
  const expected = tagOf(context, payload);
  const given = Buffer.from(tag, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
  } catch (error) {
    throw new ValidationError({ cursor: 'not a cursor this listing returned' }, 'Invalid cursor', error);
  }
};
