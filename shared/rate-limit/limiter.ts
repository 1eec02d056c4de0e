import { GetCommand, UpdateCommand } from '../db/commands';
import { clock } from '../clock';
import { limitConfig, type RateLimitRule } from '../config';
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
 * Hits of a fixed-window rule are reserved a chunk at a time per warm instance (one ADD of the
 * chunk instead of one per request) and handed out from memory; a refusal is remembered until
 * the window ends, so a client hammering past its limit costs no writes. The counter never admits
 * more than the limit: a chunk that crosses it is granted only up to it. An instance holding
 * unused hits can make the limit bite early by at most chunk − 1 requests, never late. The chunk
 * is a tenth of the limit, at most `RATE_LIMIT_CHUNK` (10), so small limits stay exact; a limit
 * over 10,000 a window reserves a thousandth of it at once, so that a key allowed 10,000 requests
 * a second writes its counter about 17 times a second, not 1,000.
 *
 * A per-address rule may admit a subject's first `fromMemory` requests in a window from this
 * instance's memory alone, writing them with its first chunk (a widget's visitor usually makes
 * one or two requests, so most visitors cost no counter write). What it admits that way is
 * never in the table if no chunk follows: per window, a subject can get at most `fromMemory` more
 * than the limit from each warm instance that has not seen it yet (each instance remembers the
 * 50,000 subjects it saw last).
 */
interface Reservation {
  windowStart: number;
  tokens: number;
  /** Hits admitted from memory alone, written with the next chunk. */
  unwritten: number;
  refused: boolean;
  refill?: Promise<void>;
}

const reservations = new Map<string, Reservation>();
const maxReservations = 50_000;

export const chunkOf = (rule: RateLimitRule): number =>
  Math.max(1, Math.min(Math.floor(rule.limit / 10), Math.max(limitConfig.rateLimitChunk, Math.floor(rule.limit / 1000))));

const reservationFor = (key: string, rule: RateLimitRule, windowStart: number): Reservation => {
  const held = reservations.get(key);
  if (held && held.windowStart === windowStart) return held;
  const fromMemory = Math.min(rule.fromMemory ?? 0, rule.limit);
  const reservation: Reservation = { windowStart, tokens: fromMemory, unwritten: fromMemory, refused: false };
  reservations.delete(key);
  reservations.set(key, reservation);
  // Keep memory bounded on a long-lived process: old windows go first, then the oldest subjects.
  if (reservations.size > maxReservations) for (const [name, other] of reservations) if (other.windowStart < windowStart) reservations.delete(name);
  for (const name of reservations.keys()) {
    if (reservations.size <= maxReservations) break;
    reservations.delete(name);
  }
  return reservation;
};

const takeReserved = async (rule: RateLimitRule, subject: string, windowStart: number): Promise<boolean> => {
  const held = reservationFor(`${rule.name}#${subject}`, rule, windowStart);
  for (;;) {
    if (held.tokens > 0) {
      held.tokens -= 1;
      return true;
    }
    if (held.refused) return false;
    held.refill ??= (async () => {
      const chunk = chunkOf(rule);
      const admitted = held.unwritten;
      const total = await addHits(rule, subject, windowStart, chunk + admitted);
      held.unwritten = 0;
      const granted = Math.max(0, Math.min(chunk, rule.limit - (total - chunk)));
      held.tokens += granted;
      if (granted === 0) held.refused = true;
    })().finally(() => {
      held.refill = undefined;
    });
    await held.refill;
  }
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
 * - fixed (default): the window's count alone decides; one write per reserved chunk of hits
 *   (takeReserved above), so on average well under one per check. Kept for the spec's
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
    if (!(await takeReserved(rule, subject, windowStart))) throw refused(rule.windowSeconds - elapsed);
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
