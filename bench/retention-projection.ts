import { sweeperScheduleMinutes, sweeperTimeoutSeconds } from '../infra/functions';
import { duePageItems } from '../shared/retention/due-index';
import { dueShards } from '../shared/retention/keys';
import { passReserveMs, sweepLimits } from '../shared/retention/sweeper';
import type { Work } from './meter';

/**
 * A projection, not a measurement: how long one tenant's large retention day takes in AWS, from
 * the DynamoDB calls the bench counted on DynamoDB Local (which says nothing of AWS's latencies)
 * and the sweep as built. The model:
 * - each call takes its typical latency in AWS from a warm function in the table's region with
 *   kept-alive connections (below); every call of a principal is counted as if made after the
 *   one before (her reads partly overlap, so this errs long), `sweepLimits.concurrency`
 *   principals at once, so a phase takes Σ calls × latency / concurrency;
 * - unless the hottest partition key caps it first: ~1,000 WRU/s per key;
 * - passes move at most `sweepLimits.tenantBudget` principals of the tenant each (expiry moves
 *   each twice: her expiry, then her leaving the index), plus a last pass that finds none; each
 *   pass first reads the due index, its 16 partitions side by side, each paged to the end of what
 *   is due (up to `scanPerShard`: the tenant's backlog is evaluated, filtered out past its share,
 *   shared/retention/due-index.ts), a page of `duePageItems` (~0.5 MB) taking `duePageMs`: the
 *   phase's backlog averaged over its passes (`indexReadMs`; the measured day's is too small to show it);
 * - one invocation of the rights sweeper every `sweeperScheduleMinutes` (infra/functions.ts),
 *   each with its timeout (`sweeperTimeoutSeconds`), starting passes while the time left is at least
 *   max(passReserveMs, twice its longest pass) (sweepRetentionPasses); the cold start and the
 *   rights and children sweeps before it are taken as `otherMs`.
 */
export const awsLatencyMs: Record<string, number> = {
  GetItem: 5,
  BatchGetItem: 8,
  Query: 8,
  PutItem: 8,
  UpdateItem: 8,
  DeleteItem: 8,
  BatchWriteItem: 15,
  TransactWriteItems: 25,
};
/** A command not listed above. */
const otherLatencyMs = 10;
const keyWruPerSecond = 1_000;
export const scheduleMinutes = sweeperScheduleMinutes;
/** One Query page of the due index in AWS: `duePageItems` entries evaluated, ~0.5 MB. */
export const duePageMs = 50;
/**
 * A pass's read of the due index while `backlog` principals are due: a page per `duePageItems`
 * entries of a partition, at least one, partitions side by side.
 */
export const indexReadMs = (backlog: number): number => Math.max(1, Math.ceil(Math.min(backlog / dueShards, sweepLimits.scanPerShard) / duePageItems)) * duePageMs;
/**
 * A phase's backlog averaged over its passes: it shrinks from the whole day to nothing as each
 * principal makes her one move; with two (expiry), the expired go back in behind the rest, so the
 * backlog stays whole for the first half of the passes: (1 - 1 / (2 × moves)) × the day.
 */
export const averageBacklog = (target: number, movesPerPrincipal: number): number => target * (1 - 1 / (2 * movesPerPrincipal));
/** Cold start and the rights and children sweeps that run first in the same invocation. */
const otherMs = 1_500;

export interface PhaseProjection {
  /** What the model takes each principal's calls to cost, at one call at a time. */
  callMsPerPrincipal: number;
  /** The phase's work in AWS at the sweep's concurrency, and what the hottest key alone would allow. */
  workSeconds: number;
  keyCapSeconds: number;
  passes: number;
  passSeconds: number;
  passesPerInvocation: number;
  invocations: number;
  /** From the first invocation's start to the last one's end. */
  hours: number;
}

/** Passes one invocation starts, as sweepRetentionPasses decides with passes of `passMs` each. */
export const passesPerInvocation = (passMs: number, timeoutMs = sweeperTimeoutSeconds * 1000): number => {
  let elapsed = otherMs;
  let longest = 0;
  let passes = 0;
  while (timeoutMs - elapsed >= Math.max(passReserveMs, 2 * longest)) {
    elapsed += passMs;
    longest = passMs;
    passes += 1;
  }
  return passes;
};

/** One phase (the notices, or the expiry) of a day of `target` principals, from one measured on `measured`. */
export const projectPhase = (work: Work, measured: number, target: number, movesPerPrincipal: number, hottestKeyWru: number): PhaseProjection => {
  const callMs = Object.entries(work.calls).reduce((sum, [command, count]) => sum + count * (awsLatencyMs[command] ?? otherLatencyMs), 0);
  const callMsPerPrincipal = callMs / measured;
  const workSeconds = (callMsPerPrincipal * target) / sweepLimits.concurrency / 1000;
  const keyCapSeconds = ((hottestKeyWru / measured) * target) / keyWruPerSecond;
  const passes = Math.ceil((target * movesPerPrincipal) / sweepLimits.tenantBudget) + 1;
  const passSeconds = Math.max(workSeconds, keyCapSeconds) / passes + indexReadMs(averageBacklog(target, movesPerPrincipal)) / 1000;
  const perInvocation = passesPerInvocation(passSeconds * 1000);
  const invocations = perInvocation > 0 ? Math.ceil(passes / perInvocation) : Infinity;
  const lastSeconds = otherMs / 1000 + (passes - (invocations - 1) * perInvocation) * passSeconds;
  const hours = ((invocations - 1) * scheduleMinutes * 60 + lastSeconds) / 3600;
  return { callMsPerPrincipal, workSeconds, keyCapSeconds, passes, passSeconds, passesPerInvocation: perInvocation, invocations, hours };
};

export const describeProjection = (projection: PhaseProjection): string =>
  `${projection.hours.toFixed(1)} h: ${projection.passes} passes of ~${projection.passSeconds.toFixed(1)} s (calls ${Math.round(projection.workSeconds)} s at concurrency ${sweepLimits.concurrency}, hottest key allows ${Math.round(projection.keyCapSeconds)} s), ${projection.passesPerInvocation} a ${sweeperTimeoutSeconds} s invocation, ${projection.invocations} invocations ${scheduleMinutes} min apart`;
