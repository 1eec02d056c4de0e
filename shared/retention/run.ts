import { createHash } from 'node:crypto';
import { canonicalJson } from '../consent/proof';
import { expiryUpdate } from '../consent/store';
import { inForce, type ConsentRecord } from '../consent/record';
import { mapWithConcurrency } from '../concurrency';
import { listAssets } from '../data-map/store';
import { tryTransaction, writeTransaction } from '../db/transact';
import { documentPut } from '../evidence/documents';
import { eventIdFor, newEvent } from '../events/outbox';
import { newTimeOrderedId } from '../ids';
import { describeError, log } from '../log';
import { retentionDocumentTypes } from './documents';
import { eraseLapsed } from './erase-lapsed';
import { newErasureTask } from './erasures';
import { entryPut, putEvent, scheduleUpdate, taskCountsUpdate, taskInsert, type Schedule } from './store';
import type { DayTally } from './tally';

/** Principals per erasure_due event. */
export const erasurePageSize = 500;

export interface Expiry {
  /** Her schedule as claimed (state EXPIRING, dueAt the due time of her entry). */
  schedule: Schedule;
  purposeIds: string[];
  records: ConsentRecord[];
  /** Whether she had a live entry at schedule.dueAt (else it is put now, counted due on its day). */
  wasLive: boolean;
}

/**
 * The principals of one tenant whose data lapses in one pass are one run: its log entry, its
 * erasure task (the data map's assets holding the lapsed purposes' data) and its
 * retention.erasure_due pages are written first, then each principal's records expire (a crash in
 * between is a run announced twice, never a lapse unannounced), `concurrency` principals at a
 * time: one after another, a run of 1,000 would take some 50 s of DynamoDB round trips in AWS
 * (docs/retention.md), past the function's 15 s. Answers how many expired.
 */
export const runExpiries = async (tenantId: string, expiries: readonly Expiry[], now: Date, tally: DayTally, concurrency: number): Promise<number> => {
  const at = now.toISOString();
  const runId = newTimeOrderedId(now);
  // Pages group principals whose lapsed purposes are the same.
  const groups = new Map<string, Expiry[]>();
  // In hash order, so a run's pages list the same principals the same way whatever order they were decided in.
  for (const expiry of [...expiries].sort((a, b) => a.schedule.identifierHash.localeCompare(b.schedule.identifierHash))) {
    const key = expiry.purposeIds.join(',');
    groups.set(key, [...(groups.get(key) ?? []), expiry]);
  }
  const pages = [...groups.values()].flatMap((group) => Array.from({ length: Math.ceil(group.length / erasurePageSize) }, (_, index) => group.slice(index * erasurePageSize, (index + 1) * erasurePageSize)));
  const listed = pages.map((page) => ({ purposeIds: page[0]!.purposeIds, principalHashes: page.map((expiry) => expiry.schedule.identifierHash) }));
  const digest = createHash('sha256').update(canonicalJson(listed)).digest('hex');
  const task = newErasureTask({ tenantId, runId, at, purposeIds: [...new Set(expiries.flatMap((expiry) => expiry.purposeIds))].sort(), principalCount: expiries.length, assets: await listAssets(tenantId) });
  await writeTransaction([
    documentPut({ tenantId, documentType: retentionDocumentTypes.run, subjectId: 'retention-runs', at, content: { runId, at, principals: expiries.length, pages: pages.length, listDigest: digest, reason: 'RETENTION_PERIOD_ENDED', erasureTask: { id: task.id, assetIds: task.assets.map((asset) => asset.assetId) } } }).item,
    taskInsert(task),
    taskCountsUpdate(tenantId, { [task.state]: 1 }),
  ]);
  for (const [index, page] of listed.entries()) {
    await putEvent(newEvent(tenantId, 'retention.erasure_due', { runId, page: index + 1, pages: listed.length, ...page }, { id: eventIdFor('retention.erasure_due', `${runId}:${index + 1}`), timestamp: at }));
  }
  const reason = `RETENTION_PERIOD_ENDED run ${runId}`;
  let expired = 0;
  await mapWithConcurrency(expiries, concurrency, async (expiry) => {
    const { schedule } = expiry;
    const records = expiry.records.filter((record) => inForce(record) && expiry.purposeIds.some((purposeId) => purposeId in record.consentGiven));
    const dueAt = schedule.dueAt!;
    const items = [
      ...records.map((record) => expiryUpdate(record, expiry.purposeIds, at, reason)),
      // Looked at again at once: what else is due is decided on the records as they now are.
      scheduleUpdate(schedule, { state: 'EXPIRED', expiredAt: at, purposeIds: expiry.purposeIds, runId }, ['noticeSentAt', 'noticedDueAt'], at),
      entryPut(tenantId, { identifierHash: schedule.identifierHash, purposeIds: expiry.purposeIds, dueAt, noticeSentAt: schedule.noticeSentAt, state: 'EXPIRED' }, at),
    ];
    try {
      if ((await tryTransaction(items)) !== 'ok') return;
    } catch (error) {
      log.error('retention expiry failed for a principal', { tenantId, runId, ...describeError(error) });
      return;
    }
    expired += 1;
    tally.add(at, 'expired');
    if (!expiry.wasLive) tally.add(dueAt, 'due');
    // Once every record of hers expired, what is not evidence goes; a failure is tried again at her next look (sweeper.ts).
    await eraseLapsed(tenantId, schedule.identifierHash, runId, at).catch((error: unknown) =>
      log.error('retention erasure failed for a principal; it is tried again at her next look', { tenantId, runId, ...describeError(error) }),
    );
  });
  return expired;
};
