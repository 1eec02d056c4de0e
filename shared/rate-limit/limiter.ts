import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock';
import type { RateLimitRule } from '../config';
import { db, tableName } from '../db/client';
import { RateLimitError } from '../errors';
import { rateLimitKeys } from './keys';

type LimitCode = ConstructorParameters<typeof RateLimitError>[0];

/** A counted hit; `release` takes it back (a login that turned out right is not a failure). */
export interface Hit {
  release(): Promise<void>;
}

const addHits = async (rule: RateLimitRule, subject: string, windowStart: number, hits: number): Promise<number> => {
  const { Attributes } = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: rateLimitKeys.counter(rule.name, subject, windowStart),
      UpdateExpression: 'ADD hits :hits SET expiresAt = :expires',
      // A sliding rule reads the previous window's item, so it is kept one window longer.
      ExpressionAttributeValues: { ':hits': hits, ':expires': windowStart + (rule.sliding ? 2 : 1) * rule.windowSeconds + 60 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.hits ?? 0);
};

const hitsOf = async (rule: RateLimitRule, subject: string, windowStart: number): Promise<number> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: rateLimitKeys.counter(rule.name, subject, windowStart) }));
  return Number(Item?.hits ?? 0);
};

/**
 * Seconds until a sliding estimate (current + previous × overlap left) has room for one more:
 * first while the previous window fades out, else after this window ends and fades in turn.
 */
const slidingRetryAfter = (rule: RateLimitRule, current: number, previous: number, elapsed: number): number => {
  const { limit, windowSeconds: window } = rule;
  if (current + 1 <= limit && previous > 0) return window * (1 - (limit - current - 1) / previous) - elapsed;
  return window - elapsed + window * Math.max(0, 1 - (limit - 1) / Math.max(current, 1));
};

/**
 * The one rate limiter: an atomic ADD on one item per (rule, subject, window), which expires by
 * TTL. Two modes, chosen per rule:
 * - fixed (default): the window's count alone decides; one write per check. Kept for the spec's
 *   per-minute quotas and for calendar quotas ("3 per UTC day"), where a reset at the window edge
 *   is the stated meaning.
 * - sliding (`rule.sliding`, used by login): the estimate is this window's count plus the previous
 *   window's count weighted by how much of it still overlaps the last `windowSeconds`, so a burst
 *   across a window edge cannot get twice the limit through. Costs the same write plus one read
 *   of the previous window's item, made in parallel. A refused hit is taken back, so the estimate
 *   counts admitted requests and a refused caller does not push its own window further out.
 */
export const consumeRateLimit = async (rule: RateLimitRule, subject: string, code: LimitCode): Promise<Hit> => {
  const nowSeconds = clock.now().getTime() / 1000;
  const windowStart = Math.floor(nowSeconds) - (Math.floor(nowSeconds) % rule.windowSeconds);
  const elapsed = nowSeconds - windowStart;
  const release = async () => {
    await addHits(rule, subject, windowStart, -1);
  };
  const refused = (retryAfterSeconds: number) =>
    new RateLimitError(code, retryAfterSeconds, `Rate limit of ${rule.limit} per ${rule.windowSeconds} s exceeded`);
  if (!rule.sliding) {
    if ((await addHits(rule, subject, windowStart, 1)) > rule.limit) throw refused(rule.windowSeconds - elapsed);
    return { release };
  }
  const [current, previous] = await Promise.all([
    addHits(rule, subject, windowStart, 1),
    hitsOf(rule, subject, windowStart - rule.windowSeconds),
  ]);
  const estimate = current + previous * (1 - elapsed / rule.windowSeconds);
  if (estimate > rule.limit) {
    await release();
    throw refused(slidingRetryAfter(rule, current - 1, previous, elapsed));
  }
  return { release };
};
