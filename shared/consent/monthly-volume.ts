import { limitConfig } from '../config';
import { RateLimitError } from '../errors';
import { reserveVolume } from './store';

/**
 * The tenant's monthly consent volume (sdk-record), taken from tokens that each warm instance
 * reserves a chunk at a time: one conditional write per chunk instead of one per consent. The
 * reserved total on the month's item never passes the limit (a chunk that would is shrunk to what
 * is left), so the volume is never exceeded; an instance that stops with tokens unused leaves at
 * most one chunk unused, so the limit bites at most one chunk (volumeChunkOf) per such instance early.
 */

export const monthOf = (at: Date): string => `${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
const nextMonthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

interface Pool {
  tokens: number;
  /** A refusal is remembered (no write per refused request), but only briefly: a raised limit applies soon. */
  refusedUntil: number;
  refill?: Promise<void>;
}

const pools = new Map<string, Pool>();
const refusalMemoryMs = 60_000;

/**
 * Tokens reserved at once: MONTHLY_VOLUME_CHUNK (20), or a hundred-thousandth of a large limit, so
 * that a tenant recording 10,000 consents a second writes its month's item about ten times a
 * second rather than 500 (at most that many tokens per instance are left unused).
 */
export const volumeChunkOf = (limit: number): number => Math.max(limitConfig.monthlyVolumeChunk, Math.floor(limit / 100_000));

/** Reserves the next chunk, or what is left of the month when less than a chunk is; 0 when nothing is. */
const reserve = async (tenantId: string, month: string, limit: number): Promise<number> => {
  let tokens = Math.min(volumeChunkOf(limit), limit);
  while (tokens > 0) {
    const outcome = await reserveVolume(tenantId, month, tokens, limit);
    if (outcome === 'reserved') return tokens;
    // Another instance reserved meanwhile: try for what is left, fewer each time, never past the limit.
    tokens = Math.min(tokens - 1, limit - outcome.reservedBefore);
  }
  return 0;
};

export const takeMonthlyConsent = async (tenantId: string, limitOf: () => Promise<number>, now: Date): Promise<void> => {
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
    pool.refill ??= limitOf()
      .then((limit) => reserve(tenantId, month, limit))
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
