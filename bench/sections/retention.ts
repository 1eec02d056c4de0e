import { randomBytes } from 'node:crypto';
import { dayMs, offsetClock, resetClock, setClock } from '../../shared/clock';
import { documentsOf } from '../../shared/evidence/documents';
import { activityConsumer } from '../../shared/retention/activity-consumer';
import { activityItemType, retentionKeys } from '../../shared/retention/keys';
import { erasurePageSize } from '../../shared/retention/run';
import { duePageItems } from '../../shared/retention/due-index';
import { passReserveMs, shardShare, sweepLimits, sweepRetentionDue, sweepRetentionPasses } from '../../shared/retention/sweeper';
import { sweeperTimeoutSeconds } from '../../infra/functions';
import { putItems, type BenchTenant } from '../fixtures';
import { expectData, invoke, requireRoute } from '../invoke';
import { describeAccesses, describeCalls, describeUnits, measure, totalCalls, type Work } from '../meter';
import { emptyKeyedUnits, maskKey, type KeyedUnits } from '../partition-units';
import { printTable } from '../report';
import { averageBacklog, awsLatencyMs, describeProjection, duePageMs, indexReadMs, projectPhase, scheduleMinutes, type PhaseProjection } from '../retention-projection';
import type { Settings } from '../settings';
import { aheadOf, PassWatch, requireOnTime, smallNotices, smallRuns, type FairnessPhase, type FairnessResult } from '../retention-fairness';
import { seedPrincipals } from './breach';

const hourMs = 3_600_000;
/** Rule 8(2)'s notice: the day is swept as a Third Schedule tenant's would be. */
const noticeHours = 48;

export interface RetentionPhase {
  /** Principals the passes moved on (a notice, an expiry, leaving the index once nothing is left due). */
  moved: number;
  /** Passes of the sweep, the last one finding no one. */
  passes: number;
  ms: number;
  /** Principals of the day per second of the phase, on DynamoDB Local on this machine. */
  localPrincipalsPerSecond: number;
  work: Work;
  /** The partition key that took the most write units in the phase, ids masked, and what it took. */
  hottestKey: string;
  hottestKeyWru: number;
}

export interface RetentionResult {
  principals: number;
  noticeHours: number;
  notices: RetentionPhase;
  expiry: RetentionPhase;
  /**
   * A small tenant (`fairness.principals`) due the same day, behind the large tenant's entries in
   * the due index, swept by the same passes: the pass and second of each phase by which all its
   * notices, and all its expiries, were out. Not in any figure above, which are the large tenant's.
   */
  fairness: FairnessResult;
  /** Erasure runs (one per sweep pass of the tenant) and retention.erasure_due pages (at most `pageSize` hashes each). */
  runs: number;
  erasurePages: number;
  pageSize: number;
  wruPerPrincipal: number;
  /**
   * A projection for a day of `principals` (100,000) of one tenant in AWS, from the calls counted
   * here and a stated model (bench/retention-projection.ts), not a measurement.
   */
  projection: { principals: number; model: string; latencyMs: Record<string, number>; notices: PhaseProjection; expiry: PhaseProjection };
  /**
   * What a principal's activity costs a day: `perDay` activities reported by the tenant's server, or
   * decisions from the stream, on one warm instance. As AWS bills it: DynamoDB Local reports a
   * refused conditional write as nothing, AWS bills it 1 WRU (an activity item is well under 1 KB).
   */
  activity: { principals: number; perDay: number; reportedWruPerPrincipalPerDay: number; decisionsWruPerPrincipalPerDay: number; reported: Work; decisions: Work };
}

const hottest = (keyed: KeyedUnits, tenantId: string) => {
  const [key, units] = Object.entries(keyed.partitions).sort(([, a], [, b]) => b - a)[0] ?? ['none', 0];
  return { hottestKey: maskKey(key, tenantId), hottestKeyWru: units };
};

/**
 * The sweep's passes until none moves a principal, on the clock moved `offsetMs` on, the large
 * and the small tenant in the same passes; the phase's figures are the large tenant's (the small
 * one's part is counted apart by `watch`).
 */
const sweepAt = async (tenants: DayTenants, offsetMs: number, principals: number, watch: PassWatch): Promise<RetentionPhase> => {
  const keyed = emptyKeyedUnits();
  const ours = new Set([tenants.large.tenantId, tenants.small.tenantId]);
  setClock(offsetClock(offsetMs));
  try {
    const { result, work, ms } = await measure(() => sweepRetentionPasses({ accept: (id) => ours.has(id), around: watch.around }), { byKey: keyed });
    return { moved: result.moved - watch.smallMoved(), passes: result.passes, ms, localPrincipalsPerSecond: principals / (ms / 1000), work, ...hottest(keyed, tenants.large.tenantId) };
  } finally {
    resetClock();
  }
};

interface DayTenants {
  large: BenchTenant;
  small: BenchTenant;
}

/** A tenant's purpose kept a day from consent, 48 hours' notice, `count` principals seeded and put in the due index at `at`. */
const seedDay = async (tenant: BenchTenant, count: number, at: string): Promise<string[]> => {
  const [purposeId] = tenant.purposeIds as [string];
  await expectData(requireRoute('PUT', '/api/v1/purposes/:id'), { bearer: tenant.token, params: { id: purposeId }, body: { retention: { period: 'P1D', from: 'CONSENT' } } });
  await expectData(requireRoute('PUT', '/api/v1/retention/settings'), { bearer: tenant.token, body: { noticeHours } });
  const { hashes } = await seedPrincipals(tenant, count, 0.8);
  // Each principal in the due index as her consent's activity put her there.
  await putItems(hashes.map((hash) => ({ ...retentionKeys.activity(tenant.tenantId, hash), ...retentionKeys.due(tenant.tenantId, hash, at), type: activityItemType, tenantId: tenant.tenantId, identifierHash: hash, lastActivityAt: at })));
  return hashes;
};

/**
 * A day on which `principals` of one tenant fall due: each consented yesterday to a purpose kept a
 * day from consent; the tenant gives 48 hours' notice. The sweep's own passes (the scheduled
 * function's body) are run on the moved clock: first every principal is noticed, then, 48 hours
 * on, every one's consent lapses in erasure runs with their retention.erasure_due pages, and each
 * leaves the due index. Counts are checked exact. Beside it, a small tenant's principals due the
 * same day, their index entries put in after the large tenant's (later in every partition, behind
 * its whole backlog): its notices must all go out in the first pass that reaches their due time,
 * and its expiries likewise (retention-fairness.ts).
 */
const measureDay = async (tenants: DayTenants, principals: number, smallPrincipals: number) => {
  const { large, small } = tenants;
  // Other sections' principals in the due index (every decision through the stream puts one there) leave it first, unmeasured.
  await sweepRetentionDue();
  const seededAt = new Date().toISOString();
  const hashes = await seedDay(large, principals, seededAt);
  const smallSeededAt = new Date(Math.max(Date.now(), Date.parse(seededAt) + 1)).toISOString();
  const smallHashes = await seedDay(small, smallPrincipals, smallSeededAt);
  const depth = aheadOf({ tenantId: large.tenantId, hashes }, { tenantId: small.tenantId, hashes: smallHashes }, shardShare());

  const noticeWatch = new PassWatch(small.tenantId);
  const notices = await sweepAt(tenants, dayMs + hourMs, principals, noticeWatch);
  if (notices.moved !== principals) throw new Error(`noticed ${notices.moved} of ${principals} principals`);
  const noticed = await smallNotices(small.tenantId, smallHashes);
  const smallNoticed = noticeWatch.phase(noticeWatch.passAt(noticed.latestAt), noticeWatch.firstPassFrom(smallSeededAt), notices.passes, large.tenantId);
  if (smallNoticed.moved !== smallPrincipals) throw new Error(`small tenant: noticed ${smallNoticed.moved} of ${smallPrincipals}`);
  requireOnTime('notices', smallNoticed);

  const expiryWatch = new PassWatch(small.tenantId);
  const expiry = await sweepAt(tenants, dayMs + hourMs + noticeHours * hourMs + 60_000, principals, expiryWatch);
  // Each principal twice: her expiry, then leaving the index (nothing of hers is left due).
  if (expiry.moved !== 2 * principals) throw new Error(`expiry moved ${expiry.moved}, expected ${2 * principals}`);
  const runs = (await documentsOf(large.tenantId, 'retention-runs')).map((document) => (JSON.parse(document.canonical) as { content: { principals: number; pages: number } }).content);
  const lapsed = runs.reduce((sum, run) => sum + run.principals, 0);
  if (lapsed !== principals) throw new Error(`runs list ${lapsed} of ${principals} principals`);
  const smallLapsedAt = await smallRuns(small.tenantId, smallPrincipals);
  const smallExpired = expiryWatch.phase(expiryWatch.passAt(smallLapsedAt), expiryWatch.firstPassFrom(noticed.latestDueAt), expiry.passes, large.tenantId);
  if (smallExpired.moved !== 2 * smallPrincipals) throw new Error(`small tenant: expiry moved ${smallExpired.moved}, expected ${2 * smallPrincipals}`);
  requireOnTime('expiries', smallExpired);
  const fairness: FairnessResult = { principals: smallPrincipals, ...depth, notices: smallNoticed, expiries: smallExpired };
  return { notices, expiry, runs: runs.length, erasurePages: runs.reduce((sum, run) => sum + run.pages, 0), fairness };
};

/**
 * What a principal's activity costs a day, for `perDay` activities each (after a first day that
 * made her item, unmeasured): reported by the tenant's server (POST /principals/activity, up to
 * 1,000 a call), and seen as decisions on the stream (the activity consumer, which also keeps her
 * in the due index). One warm instance: it remembers the day it wrote for her. The tenant keeps a
 * purpose's data three years from last activity: decisions count only where a retention is in
 * force (activity-consumer.ts), and a tenant without one would show their cost as nothing.
 */
const measureActivity = async (tenant: BenchTenant, principals: number, perDay: number) => {
  const route = requireRoute('POST', '/api/v1/principals/activity');
  const [purposeId] = tenant.purposeIds as [string];
  await expectData(requireRoute('PUT', '/api/v1/purposes/:id'), { bearer: tenant.token, params: { id: purposeId }, body: { retention: { period: 'P3Y', from: 'LAST_ACTIVITY' } } });
  const hashes = Array.from({ length: principals }, () => randomBytes(32).toString('hex'));
  const dayStart = (daysAgo: number) => Date.parse(new Date(Date.now() - daysAgo * dayMs).toISOString().slice(0, 10));
  const report = async (at: number) => {
    for (let start = 0; start < hashes.length; start += 1_000) {
      const answer = await invoke(route, { body: { apiKey: tenant.serverKey, activities: hashes.slice(start, start + 1_000).map((identifierHash) => ({ identifierHash, at: new Date(at).toISOString() })) } });
      if (answer.status !== 200) throw new Error(`activity answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
  };
  // Spread over the day, all in the past: two days ago (her item made), then yesterday (measured).
  const times = (daysAgo: number) => Array.from({ length: perDay }, (_, index) => dayStart(daysAgo) + Math.floor(((index + 0.5) * dayMs) / perDay));
  await report(times(2)[0]!);
  const reported = await measure(async () => {
    for (const at of times(1)) await report(at);
  });
  // Today: decisions (a consent or withdrawal each) as the stream hands them to the consumer.
  const decisions = await measure(async () => {
    for (const at of times(0).map((time) => Math.min(time, Date.now()))) {
      await activityConsumer.handle(hashes.map((hash, index) => ({ eventName: 'INSERT', sequenceNumber: String(index), keys: {}, newImage: { type: 'WithdrawalRecord', tenantId: tenant.tenantId, dataPrincipalHash: hash, withdrawnAt: new Date(at).toISOString() } })));
    }
  });
  const billed = (work: Work) => (work.wru + totalCalls(work.failed)) / principals;
  if (billed(decisions.work) === 0) throw new Error('decisions wrote nothing: no retention in force for the activity tenant?');
  return { principals, perDay, reportedWruPerPrincipalPerDay: billed(reported.work), decisionsWruPerPrincipalPerDay: billed(decisions.work), reported: reported.work, decisions: decisions.work };
};

/** The retention section: a large day of one tenant, and activity's write units per principal per day. */
export const measureRetention = async (dayTenants: DayTenants, activityTenant: BenchTenant, settings: Settings): Promise<RetentionResult> => {
  const { principals, smallPrincipals, projectedPrincipals, activityPrincipals, activitiesPerDay } = settings.retention;
  const day = await measureDay(dayTenants, principals, smallPrincipals);
  const activity = await measureActivity(activityTenant, activityPrincipals, activitiesPerDay);
  const wru = day.notices.work.wru + day.expiry.work.wru;
  const projection = {
    principals: projectedPrincipals,
    model: `PROJECTION, not measured: the calls counted here at typical AWS latencies (ms: ${Object.entries(awsLatencyMs).map(([command, ms]) => `${command} ${ms}`).join(', ')}), one after another per principal, ${sweepLimits.concurrency} principals at once, capped at 1,000 WRU/s on the hottest key, plus a pass's read of the due index, ${duePageMs} ms a page of ${duePageItems} entries of a partition (${indexReadMs(averageBacklog(projectedPrincipals, 1))} ms for the notices' backlog averaged, ${indexReadMs(averageBacklog(projectedPrincipals, 2))} ms for the expiry's); passes of at most ${sweepLimits.tenantBudget} principals, started while the ${sweeperTimeoutSeconds} s invocation has max(${passReserveMs / 1000} s, twice its longest pass) left; one invocation every ${scheduleMinutes} min (bench/retention-projection.ts)`,
    latencyMs: awsLatencyMs,
    notices: projectPhase(day.notices.work, principals, projectedPrincipals, 1, day.notices.hottestKeyWru),
    expiry: projectPhase(day.expiry.work, principals, projectedPrincipals, 2, day.expiry.hottestKeyWru),
  };
  const result: RetentionResult = { principals, noticeHours, ...day, pageSize: erasurePageSize, wruPerPrincipal: wru / principals, projection, activity };
  const phase = (name: string, value: RetentionPhase) => [
    [`${name}: time on DynamoDB Local (measured)`, `${(value.ms / 1000).toFixed(1)} s in ${value.passes} passes, ${Math.round(value.localPrincipalsPerSecond)} principals/s`],
    [`${name}: write units`, describeUnits(value.work.wru, value.work.wruBy)],
    [`${name}: hottest partition key`, `${value.hottestKey}: ${value.hottestKeyWru} WRU (${((value.hottestKeyWru / Math.max(1, value.work.wru)) * 100).toFixed(1)} %)`],
    [`${name}: DynamoDB calls`, describeCalls(value.work)],
  ];
  const { fairness } = day;
  const onTime = (name: string, value: FairnessPhase) =>
    [`small tenant's ${name}: all out`, `pass ${value.pass} of ${value.passes} (the first to reach their due time), ${value.seconds.toFixed(1)} s into the phase; the large tenant moved in ${value.largePasses} passes`];
  printTable(
    `13. Retention: a day on which ${principals.toLocaleString('en-US')} principals of one tenant fall due (${noticeHours} h notice, then expiry), ${smallPrincipals} of another the same day, and activity's write units`,
    ['measure', 'figure'],
    [
      ...phase('notices', day.notices),
      ...phase('expiry', day.expiry),
      ['write units per principal (notice and expiry)', result.wruPerPrincipal.toFixed(2)],
      [`PROJECTED in AWS, ${projectedPrincipals.toLocaleString('en-US')} principals: notices`, describeProjection(projection.notices)],
      [`PROJECTED in AWS, ${projectedPrincipals.toLocaleString('en-US')} principals: expiry`, describeProjection(projection.expiry)],
      [`write units, ${projectedPrincipals.toLocaleString('en-US')} principals`, `${Math.round((result.wruPerPrincipal * projectedPrincipals) / 1000).toLocaleString('en-US')} k WRU`],
      ['erasure runs, retention.erasure_due pages', `${day.runs} runs, ${day.erasurePages} pages of at most ${erasurePageSize}`],
      [
        `small tenant, ${smallPrincipals} principals due the same day: behind`,
        `${fairness.aheadPerPartition.min}-${fairness.aheadPerPartition.max} of the large tenant's entries in each partition it is in (a pass takes ${fairness.aheadPerPartition.share} of a tenant's a partition: ${fairness.behindBacklog ? 'behind a backlog' : 'NOT behind a backlog, the large day fits one read'})`,
      ],
      onTime('notices', fairness.notices),
      onTime('expiries', fairness.expiries),
      [`activity reported by the tenant, ${activitiesPerDay} a day`, `${activity.reportedWruPerPrincipalPerDay.toFixed(2)} WRU per principal per day (${describeCalls(activity.reported)})`],
      [`decisions on the stream, ${activitiesPerDay} a day`, `${activity.decisionsWruPerPrincipalPerDay.toFixed(2)} WRU per principal per day (${describeCalls(activity.decisions)})`],
    ],
    [
      `Where the expiry's units go: ${describeAccesses(day.expiry.work)}`,
      `Projection model: ${projection.model}. DynamoDB Local's rate on this machine is beside it, not behind it.`,
      `Counts checked exact: ${principals} noticed, ${principals} lapsed in the runs, each then leaving the due index; the small tenant's ${smallPrincipals} likewise, counted apart (its own ${fairness.notices.work.wru + fairness.expiries.work.wru} WRU are in no figure above). Activity: ${activityPrincipals} principals, one warm instance; refused conditional writes billed 1 WRU each, as AWS does.`,
    ],
  );
  return result;
};
