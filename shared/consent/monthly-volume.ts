import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { db, tableName } from '../db/client';
import { isConditionFailure } from '../db/errors';
import { RateLimitError } from '../errors';
import { consentKeys } from './keys';

/**
 * The tenant's monthly consent volume (sdk-record), taken from tokens that each warm instance
 * reserves a chunk at a time: one conditional write per chunk instead of one per consent. The
 * reserved total on the month's item never passes the limit (a chunk that would is shrunk to what
 * is left), so the volume is never exceeded; an instance that stops with tokens unused leaves at
 * most one chunk unused, so the limit bites at most `monthlyVolumeChunk` per such instance early.
 */

export const monthOf = (at: Date): string => `${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
const nextMonthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

/** Reserves `tokens` more of the month, only while the reserved total stays within `limit`. */
export const reservationUpdate = (tenantId: string, month: string, tokens: number, limit: number): UpdateCommandInput => ({
  TableName: tableName(),
  Key: consentKeys.monthlyVolume(tenantId, month),
  UpdateExpression: 'ADD reserved :tokens',
  ConditionExpression: 'attribute_not_exists(reserved) OR reserved <= :most',
  ExpressionAttributeValues: { ':tokens': tokens, ':most': limit - tokens },
  ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
});

interface Pool {
  tokens: number;
  /** A refusal is remembered (no write per refused request), but only briefly: a raised limit applies soon. */
  refusedUntil: number;
  refill?: Promise<void>;
}

const pools = new Map<string, Pool>();
const refusalMemoryMs = 60_000;

/** The reserved total the failed condition saw (the SDK hands it back unmarshalled or not, by version). */
const reservedOf = (item: Record<string, unknown> | undefined): number => {
  const value = item?.reserved;
  if (value && typeof value === 'object' && 'N' in value) return Number((value as { N: string }).N);
  return value === undefined ? Number.POSITIVE_INFINITY : Number(value);
};

/** Reserves the next chunk, or what is left of the month when less than a chunk is; 0 when nothing is. */
const reserve = async (tenantId: string, month: string, limit: number): Promise<number> => {
  let tokens = Math.min(config.monthlyVolumeChunk, limit);
  while (tokens > 0) {
    try {
      await db().send(new UpdateCommand(reservationUpdate(tenantId, month, tokens, limit)));
      return tokens;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const reserved = reservedOf((error as { Item?: Record<string, unknown> }).Item);
      const left = limit - reserved;
      // Another instance reserved meanwhile: try for what is left, fewer each time, never past the limit.
      tokens = Math.min(tokens - 1, left);
    }
  }
  return 0;
};

export const takeMonthlyConsent = async (tenantId: string, limit: number, now: Date): Promise<void> => {
  const month = monthOf(now);
  const key = `${tenantId}#${month}`;
  const pool = pools.get(key) ?? { tokens: 0, refusedUntil: 0 };
  pools.set(key, pool);
  for (;;) {
    if (pool.tokens > 0) {
      pool.tokens -= 1;
      return;
    }
    if (pool.refusedUntil > now.getTime()) break;
    // One refill at a time per instance; requests waiting on it share its chunk.
    pool.refill ??= reserve(tenantId, month, limit)
      .then((tokens) => {
        pool.tokens += tokens;
        if (tokens === 0) pool.refusedUntil = Math.min(now.getTime() + refusalMemoryMs, nextMonthStart(now).getTime());
      })
      .finally(() => {
        pool.refill = undefined;
      });
    await pool.refill;
  }
  throw new RateLimitError('MONTHLY_LIMIT_REACHED', (nextMonthStart(now).getTime() - now.getTime()) / 1000, 'Monthly consent volume reached; it resets on the 1st of next month (UTC)');
};
