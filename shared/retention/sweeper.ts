import { clock } from '../clock';
import { mapWithConcurrency } from '../concurrency';
import { principalRecordsWithContact } from '../consent/store';
import { inForce, type ConsentRecord } from '../consent/record';
import { named, type NamedItem } from '../db/transact';
import { documentPut } from '../evidence/documents';
import { eventIdFor, newEvent, outboxPut } from '../events/outbox';
import { describeError, log } from '../log';
import type { Purpose } from '../notices/notice';
import { listPurposes } from '../purposes/store';
import { purposeDues, sweepStep, type SweepStep } from './due';
import { dueSchedules } from './due-index';
import { dueShards, retentionKeys } from './keys';
import { queueRetentionNoticeMail } from './notice-mail';
import { retentionDocumentTypes } from './documents';
import { eraseLapsed } from './erase-lapsed';
import { runExpiries, type Expiry } from './run';
import { readRetention, retentionInForce, type RetentionSettings } from './settings';
import { entryCancel, entryDelete, entryPut, scheduleUpdate, writeStep, type Schedule, type UpcomingEntry } from './store';
import { DayTally } from './tally';

type Accept = (tenantId: string) => boolean;
/**
 * Runs one tenant's part of a pass (`sweep`) at the pass's `now`: the bench times and counts a
 * small tenant's part apart from a large one's in the same passes (bench/retention-fairness.ts).
 */
export type AroundTenant = (tenantId: string, now: Date, sweep: () => Promise<number>) => Promise<number>;
interface SweepOptions {
  accept?: Accept;
  around?: AroundTenant;
}

/**
 * Fairness: a pass gets at most `tenantBudget` principals of each tenant done, tenants side by
 * side, `concurrency` of each in flight; the rest of a large day waits for the next pass (a tenant
 * with 10,000 due takes ceil(10,000 / tenantBudget) passes). To find them, it pages each shard of
 * the due index from its oldest entry and keeps each tenant's first `shardShare` entries of it,
 * `readPerShard` in all: once a tenant has its share of a shard, its further entries there are
 * filtered out by DynamoDB, so another tenant's principals due later than a backlog are reached
 * in the same pass (due-index.ts). Past `scanPerShard` entries evaluated in a shard (a backlog of
 * more than 16 × 25,000 = 400,000 due) the shard is read no further that pass, bounding a pass's
 * read units (filtered entries are paid for too): ~1,600 RRU a shard, ~25,000 a pass, at ~0.5 KB
 * an entry; a backlog of 100,000 costs a pass ~6,250 RRU, and nothing once it is gone
 * (docs/retention.md, "One tenant's large day never delays another's notices";
 * tests/retention-fairness.test.ts).
 */
export const sweepLimits = { readPerShard: 2_000, scanPerShard: 25_000, tenantBudget: 1_000, concurrency: 16 };
/**
 * A tenant's share of one shard: twice an even spread of its budget over the shards, since its
 * principals fall into shards by hash, unevenly (a shard holds 62.5 of 1,000 on average, and
 * hardly ever 125): a tenant with up to its budget due is still done in one pass, and a backlog
 * gives a pass at most twice its budget, cut to the oldest `tenantBudget` across the shards.
 */
export const shardShare = () => Math.ceil((2 * sweepLimits.tenantBudget) / dueShards);
/** How long a claim on a principal's expiry holds before another sweep may take it up. */
const claimMs = 5 * 60_000;

/** States whose upcoming entry is live (the erasure still ahead, or being carried out). */
const liveStates = new Set(['SCHEDULED', 'NOTICE_SENT', 'EXPIRING']);
const liveDueAt = (schedule: Schedule) => (schedule.dueAt && schedule.state && liveStates.has(schedule.state) ? schedule.dueAt : null);

/** Her live entry moved to `to` (or gone): the old one deleted when its key differs, the new one put. */
export const entryMove = (schedule: Schedule, to: UpcomingEntry | null, at: string): NamedItem[] => {
  const live = liveDueAt(schedule);
  return [...(live && live !== to?.dueAt ? [entryDelete(schedule.tenantId, live, schedule.identifierHash)] : []), ...(to ? [entryPut(schedule.tenantId, to, at)] : [])];
};

/**
 * What the sweep decided for one principal, the writes of the steps that are not expiries (those
 * wait for the run's log entry), and what they add to the day counters once they land.
 */
const decide = (schedule: Schedule, records: ConsentRecord[], purposes: readonly Purpose[], settings: RetentionSettings, now: Date): { step: SweepStep; items: NamedItem[]; count: (tally: DayTally) => void } => {
  const dues = purposeDues({ purposes, records: records.filter(inForce), lastActivityAt: schedule.lastActivityAt, settings });
  const step = sweepStep({ dues, noticeHours: settings.noticeHours, noticeSentAt: schedule.noticeSentAt, noticedDueAt: schedule.noticedDueAt, now });
  const at = now.toISOString();
  const { tenantId, identifierHash } = schedule;
  const live = liveDueAt(schedule);
  if (step.kind === 'none') {
    return { step, items: [scheduleUpdate(schedule, {}, live ? ['dueAt', 'purposeIds', 'state'] : [], null), ...entryMove(schedule, null, at)], count: (tally) => tally.move(live, null) };
  }
  if (step.kind === 'wait') {
    const [first] = dues;
    const purposeIds = dues.filter((due) => due.dueAt === first!.dueAt).map((due) => due.purposeId);
    const noticed = !step.cancelled && schedule.state === 'NOTICE_SENT';
    // A standing notice holds the erasure until its full notice has run (the wait's end).
    const dueAt = noticed ? step.nextAt : first!.dueAt;
    const entry: UpcomingEntry = { identifierHash, purposeIds, dueAt, noticeSentAt: noticed ? schedule.noticeSentAt : null, state: noticed ? 'NOTICE_SENT' : 'SCHEDULED' };
    if (!step.cancelled) return { step, items: [scheduleUpdate(schedule, { dueAt, purposeIds, state: entry.state }, [], step.nextAt), ...entryMove(schedule, entry, at)], count: (tally) => tally.move(live, dueAt) };
    return {
      step,
      items: [
        scheduleUpdate(schedule, { dueAt, purposeIds, state: 'SCHEDULED', cancelledAt: at }, ['noticeSentAt', 'noticedDueAt'], step.nextAt),
        ...(live && live !== dueAt ? [entryCancel(tenantId, live, identifierHash, at)] : []),
        entryPut(tenantId, entry, at),
        documentPut({ tenantId, documentType: retentionDocumentTypes.cancelled, subjectId: `retention:${identifierHash}`, at, content: { identifierHash, noticeSentAt: schedule.noticeSentAt, noticedDueAt: schedule.noticedDueAt, lastActivityAt: schedule.lastActivityAt, newDueAt: dueAt } }).item,
      ],
      count: (tally) => {
        tally.add(at, 'cancelled');
        tally.move(live, dueAt);
      },
    };
  }
  if (step.kind === 'notice') {
    const event = newEvent(tenantId, 'retention.notice_due', { dataPrincipalHash: identifierHash, purposeIds: step.purposeIds, dueAt: step.dueAt, noticeSentAt: at }, { id: eventIdFor('retention.notice_due', `${tenantId}:${identifierHash}:${at}`), timestamp: at });
    return {
      step,
      items: [
        scheduleUpdate(schedule, { state: 'NOTICE_SENT', noticeSentAt: at, noticedDueAt: step.dueAt, dueAt: step.dueAt, purposeIds: step.purposeIds }, [], step.dueAt),
        documentPut({ tenantId, documentType: retentionDocumentTypes.notice, subjectId: `retention:${identifierHash}`, at, content: { identifierHash, purposeIds: step.purposeIds, dueAt: step.dueAt, noticeHours: settings.noticeHours } }).item,
        named('notice event', outboxPut(event)),
        ...entryMove(schedule, { identifierHash, purposeIds: step.purposeIds, dueAt: step.dueAt, noticeSentAt: at, state: 'NOTICE_SENT' }, at),
      ],
      count: (tally) => {
        tally.add(at, 'noticesSent');
        tally.move(live, step.dueAt);
      },
    };
  }
  return { step, items: [], count: () => undefined };
};

/**
 * One tenant's due principals: each decided on her schedule, her records and the tenant's purposes
 * and settings as they are now (an activity since the index entry was written moves her on or
 * cancels a notice). The principals whose data lapses are one run (run.ts).
 */
const sweepTenant = async (tenantId: string, entries: readonly Schedule[], now: Date): Promise<number> => {
  const [settings, purposes] = await Promise.all([readRetention(tenantId), listPurposes(tenantId)]);
  // A tenant none of whose purposes has a retention (and outside the Third Schedule) has nothing
  // that can fall due: its principals leave the index without their records being read.
  const anyDue = retentionInForce(settings, purposes);
  const expiries: Expiry[] = [];
  const tally = new DayTally();
  let moved = 0;
  await mapWithConcurrency(entries, sweepLimits.concurrency, async (entry) => {
    try {
      // Decided on the index entry as read (the index projects the whole item): every write is
      // conditional on her activity and her place in the index as read, so a stale entry writes nothing.
      const schedule = entry;
      if (schedule.nextAt && schedule.nextAt > now.toISOString()) return;
      const rows = anyDue ? await principalRecordsWithContact(tenantId, schedule.identifierHash) : [];
      const records = rows.map((row) => row.record);
      const { step, items, count } = decide(schedule, records, purposes, settings, now);
      // Her own notice mail, written with the notice or not at all (notice-mail.ts).
      if (step.kind === 'notice') items.push(...(await queueRetentionNoticeMail({ tenantId, identifierHash: schedule.identifierHash, purposeIds: step.purposeIds, dueAt: step.dueAt })));
      if (step.kind === 'expire') {
        // Claimed first, so that of two sweeps at once only one puts her in a run; a run that dies
        // after its claim is taken up again once the claim's few minutes pass.
        const claimUntil = new Date(now.getTime() + claimMs).toISOString();
        const entryDueAt = liveDueAt(schedule) ?? step.dueAt;
        const claim = scheduleUpdate(schedule, { state: 'EXPIRING', dueAt: entryDueAt }, [], claimUntil);
        if (!(await writeStep([claim]))) return;
        const claimed = { ...schedule, state: 'EXPIRING', dueAt: entryDueAt, nextAt: claimUntil, indexKey: retentionKeys.due(tenantId, schedule.identifierHash, claimUntil).GSI2SK };
        expiries.push({ schedule: claimed, purposeIds: step.purposeIds, records, wasLive: liveDueAt(schedule) !== null });
      } else {
        // Her consent lapsed in an earlier pass and nothing of hers is due: an erasure a crash or a
        // failed write left undone after her expiry is finished before she leaves the index (it
        // writes nothing when nothing is left; if it fails, she stays and is looked at again).
        if (step.kind === 'none' && schedule.state === 'EXPIRED' && schedule.runId) await eraseLapsed(tenantId, schedule.identifierHash, schedule.runId, now.toISOString(), rows);
        if (await writeStep(items)) {
          moved += 1;
          count(tally);
        }
      }
    } catch (error) {
      log.error('retention sweep failed for a principal', { tenantId, ...describeError(error) });
    }
  });
  if (expiries.length > 0) moved += await runExpiries(tenantId, expiries, now, tally, sweepLimits.concurrency);
  await tally.write(tenantId);
  return moved;
};

/**
 * One pass of the retention sweep (a scheduled function in AWS, a loop of the local workers): the
 * principals due by now, from the due index sharded by time (never a Scan), tenant by tenant side
 * by side, each tenant's share bounded (sweepLimits), one tenant's fault never stopping another's.
 * `accept`: each test file sweeps its own tenants; `around` wraps each tenant's part. Answers how many principals it moved on.
 */
export const sweepRetention = async (options: SweepOptions = {}): Promise<number> => {
  const now = clock.now();
  const entries = await dueSchedules(now.toISOString(), { share: shardShare(), keep: sweepLimits.readPerShard, evaluate: sweepLimits.scanPerShard, accept: options.accept });
  const byTenant = new Map<string, Schedule[]>();
  for (const entry of entries) byTenant.set(entry.tenantId, [...(byTenant.get(entry.tenantId) ?? []), entry]);
  const shares = [...byTenant].map(([tenantId, mine]) => [tenantId, mine.sort((a, b) => (a.indexKey ?? '').localeCompare(b.indexKey ?? '')).slice(0, sweepLimits.tenantBudget)] as const);
  const around = options.around ?? ((_tenantId, _now, sweep) => sweep());
  const outcomes = await Promise.allSettled(shares.map(([tenantId, mine]) => around(tenantId, now, () => sweepTenant(tenantId, mine, now))));
  for (const outcome of outcomes) if (outcome.status === 'rejected') log.error('retention sweep failed for a tenant', describeError(outcome.reason));
  return outcomes.reduce((sum, outcome) => sum + (outcome.status === 'fulfilled' ? outcome.value : 0), 0);
};

/**
 * What is left of an invocation when no new pass starts: a pass already started is never cut by
 * the sweep itself, so it must fit in this, or in twice the longest pass so far if that is more.
 * A 1,000-principal pass is projected at 3-6 s in AWS (docs/retention.md, "How long a large day takes").
 */
export const passReserveMs = 5_000;

export interface SweepOutcome {
  moved: number;
  passes: number;
  /** Stopped because the deadline was near, not because a pass moved no one: the next scheduled run goes on. */
  stoppedForDeadline: boolean;
}

/**
 * Sweeps until a pass moves no one (the scheduled function's body), or, given `deadline` (epoch
 * ms on the clock: the function's own end), until too little time is left to start another
 * pass. Stopping between passes leaves nothing half done; what is still due waits in the index
 * for the next scheduled run.
 */
export const sweepRetentionPasses = async (options: SweepOptions & { deadline?: number } = {}): Promise<SweepOutcome> => {
  let moved = 0;
  let passes = 0;
  let longestMs = 0;
  for (;;) {
    const startedAt = clock.now().getTime();
    if (options.deadline !== undefined && options.deadline - startedAt < Math.max(passReserveMs, 2 * longestMs)) return { moved, passes, stoppedForDeadline: true };
    const step = await sweepRetention({ accept: options.accept, around: options.around });
    passes += 1;
    longestMs = Math.max(longestMs, clock.now().getTime() - startedAt);
    moved += step;
    if (step === 0) return { moved, passes, stoppedForDeadline: false };
  }
};

/** Sweeps until a pass moves no one (or the deadline is near); answers how many principals it moved on. */
export const sweepRetentionDue = async (options: SweepOptions & { deadline?: number } = {}): Promise<number> => (await sweepRetentionPasses(options)).moved;
