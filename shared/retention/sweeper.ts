import { createHash } from 'node:crypto';
import { clock } from '../clock';
import { canonicalJson } from '../consent/proof';
import { expiryUpdate, principalRecords, principalRecordsWithContact, removeSealedContact } from '../consent/store';
import { inForce, stateOf, type ConsentRecord } from '../consent/record';
import { GetCommand, PutCommand } from '../db/commands';
import { db, tableName } from '../db/client';
import { dueInShards } from '../db/query';
import { named, tryTransaction, writeTransaction, type NamedItem } from '../db/transact';
import { documentPut } from '../evidence/documents';
import { eventIdFor, newEvent, outboxPut } from '../events/outbox';
import { newId } from '../ids';
import { describeError, log } from '../log';
import type { Purpose } from '../notices/notice';
import { listPurposes } from '../purposes/store';
import { purposeDues, sweepStep, type SweepStep } from './due';
import { dueShards, retentionKeys } from './keys';
import { queueRetentionNoticeMail } from './notice-mail';
import { readRetention, type RetentionSettings } from './settings';

type Accept = (tenantId: string) => boolean;

/** A principal's schedule as the activity item holds it (keys.ts). */
interface Schedule {
  tenantId: string;
  identifierHash: string;
  lastActivityAt: string | null;
  nextAt: string | null;
  state: string | null;
  noticeSentAt: string | null;
  noticedDueAt: string | null;
  /** Its place in the due index as read: every step is conditional on it, so of two sweeps at once one acts. */
  indexKey: string | null;
}

const scheduleOf = (item: Record<string, unknown>): Schedule => {
  const text = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : null);
  return { tenantId: String(item.tenantId), identifierHash: String(item.identifierHash), lastActivityAt: text('lastActivityAt'), nextAt: text('nextAt'), state: text('state'), noticeSentAt: text('noticeSentAt'), noticedDueAt: text('noticedDueAt'), indexKey: text('GSI2SK') };
};

/** Up to this many entries per partition per sweep; the sweep runs again for more. */
const pageLimit = 200;
/** How long a claim on a principal's expiry holds before another sweep may take it up. */
const claimMs = 5 * 60_000;
/** Principals per erasure_due event. */
export const erasurePageSize = 500;
/** The logged documents of retention. */
export const retentionDocumentTypes = { notice: 'retention.notice', cancelled: 'retention.cancelled', run: 'retention.erasure-run', erased: 'retention.erased' } as const;

/** Entries due by `now` in every shard, up to a page each (the sweep runs again for more). */
const dueEntries = async (now: string) => (await dueInShards(dueShards, retentionKeys.duePartition, now, pageLimit)).map(scheduleOf);

/** The update of a principal's schedule, conditional on it being as the sweep read it (an activity or another sweep in between: decided again next time). */
const scheduleUpdate = (schedule: Schedule, set: Record<string, unknown>, remove: readonly string[], nextAt: string | null): NamedItem => {
  const fields: Record<string, unknown> = { ...set, ...(nextAt ? { nextAt, ...retentionKeys.due(schedule.tenantId, schedule.identifierHash, nextAt) } : {}) };
  const removed = [...remove, ...(nextAt ? [] : ['nextAt', 'GSI2PK', 'GSI2SK'])];
  const names = Object.keys(fields);
  return named('principal schedule', {
    Update: {
      TableName: tableName(),
      Key: retentionKeys.activity(schedule.tenantId, schedule.identifierHash),
      UpdateExpression: [names.length > 0 ? `SET ${names.map((_, index) => `#s${index} = :s${index}`).join(', ')}` : '', removed.length > 0 ? `REMOVE ${removed.map((_, index) => `#r${index}`).join(', ')}` : ''].join(' ').trim(),
      ConditionExpression: [
        schedule.lastActivityAt ? 'lastActivityAt = :readActivity' : 'attribute_not_exists(lastActivityAt)',
        schedule.indexKey ? '#indexKey = :readIndex' : 'attribute_not_exists(#indexKey)',
      ].join(' AND '),
      ExpressionAttributeNames: { ...Object.fromEntries(names.map((name, index) => [`#s${index}`, name])), ...Object.fromEntries(removed.map((name, index) => [`#r${index}`, name])), '#indexKey': 'GSI2SK' },
      ExpressionAttributeValues: {
        ...Object.fromEntries(names.map((name, index) => [`:s${index}`, fields[name]])),
        ...(schedule.lastActivityAt ? { ':readActivity': schedule.lastActivityAt } : {}),
        ...(schedule.indexKey ? { ':readIndex': schedule.indexKey } : {}),
      },
    },
  });
};

interface Expiry {
  schedule: Schedule;
  purposeIds: string[];
  records: ConsentRecord[];
}

/** What the sweep decided for one principal, and the writes of the steps that are not expiries (those wait for the run's log entry). */
const decide = (schedule: Schedule, records: ConsentRecord[], purposes: readonly Purpose[], settings: RetentionSettings, now: Date): { step: SweepStep; items: NamedItem[] } => {
  const dues = purposeDues({ purposes, records: records.filter(inForce), lastActivityAt: schedule.lastActivityAt, settings });
  const step = sweepStep({ dues, noticeHours: settings.noticeHours, noticeSentAt: schedule.noticeSentAt, noticedDueAt: schedule.noticedDueAt, now });
  const at = now.toISOString();
  const { tenantId, identifierHash } = schedule;
  if (step.kind === 'none') return { step, items: [scheduleUpdate(schedule, {}, [], null)] };
  if (step.kind === 'wait') {
    const [first] = dues;
    const set = { dueAt: first!.dueAt, purposeIds: dues.filter((due) => due.dueAt === first!.dueAt).map((due) => due.purposeId), state: step.cancelled ? 'CANCELLED' : schedule.state === 'NOTICE_SENT' ? 'NOTICE_SENT' : 'SCHEDULED', ...(step.cancelled ? { cancelledAt: at } : {}) };
    const cancelled = step.cancelled
      ? [documentPut({ tenantId, documentType: retentionDocumentTypes.cancelled, subjectId: `retention:${identifierHash}`, at, content: { identifierHash, noticeSentAt: schedule.noticeSentAt, noticedDueAt: schedule.noticedDueAt, lastActivityAt: schedule.lastActivityAt, newDueAt: first!.dueAt } }).item]
      : [];
    return { step, items: [scheduleUpdate(schedule, set, step.cancelled ? ['noticeSentAt', 'noticedDueAt'] : [], step.nextAt), ...cancelled] };
  }
  if (step.kind === 'notice') {
    const event = newEvent(tenantId, 'retention.notice_due', { dataPrincipalHash: identifierHash, purposeIds: step.purposeIds, dueAt: step.dueAt, noticeSentAt: at }, { id: eventIdFor('retention.notice_due', `${tenantId}:${identifierHash}:${at}`), timestamp: at });
    return {
      step,
      items: [
        scheduleUpdate(schedule, { state: 'NOTICE_SENT', noticeSentAt: at, noticedDueAt: step.dueAt, dueAt: step.dueAt, purposeIds: step.purposeIds }, [], step.dueAt),
        documentPut({ tenantId, documentType: retentionDocumentTypes.notice, subjectId: `retention:${identifierHash}`, at, content: { identifierHash, purposeIds: step.purposeIds, dueAt: step.dueAt, noticeHours: settings.noticeHours } }).item,
        named('notice event', outboxPut(event)),
      ],
    };
  }
  return { step, items: [] };
};

/**
 * Once every record of a principal has expired, what the service holds of her that is not
 * evidence goes: the sealed email her records carry (never part of a proof hash). The hashes and
 * proofs stay, so her evidence still verifies; the erasure is logged (when, why, what).
 */
const eraseWhenAllExpired = async (tenantId: string, identifierHash: string, runId: string, at: string) => {
  const rows = await principalRecordsWithContact(tenantId, identifierHash);
  if (rows.length === 0 || !rows.every(({ record }) => stateOf(record) === 'EXPIRED')) return;
  const sealed = rows.filter((row) => row.sealedContact !== undefined);
  if (sealed.length === 0) return;
  for (const row of sealed) await removeSealedContact(tenantId, row.record.recordId);
  await writeTransaction([
    documentPut({ tenantId, documentType: retentionDocumentTypes.erased, subjectId: `retention:${identifierHash}`, at, content: { identifierHash, runId, erased: ['sealedContact'], records: sealed.map((row) => row.record.recordId), reason: 'RETENTION_PERIOD_ENDED' } }).item,
  ]);
};

/**
 * One tenant's due principals: each decided on her schedule, her records and the tenant's purposes
 * and settings as they are now (an activity since the index entry was written moves her on or
 * cancels a notice). The principals whose data lapses are one run: its log entry and its
 * retention.erasure_due pages are written first, then each principal's records expire (a crash in
 * between is a run announced twice, never a lapse unannounced).
 */
const sweepTenant = async (tenantId: string, entries: readonly Schedule[], now: Date): Promise<number> => {
  const [settings, purposes] = await Promise.all([readRetention(tenantId), listPurposes(tenantId)]);
  const expiries: Expiry[] = [];
  let moved = 0;
  for (const entry of entries) {
    try {
      const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: retentionKeys.activity(tenantId, entry.identifierHash), ConsistentRead: true }));
      if (!Item) continue;
      const schedule = scheduleOf(Item);
      if (schedule.nextAt && schedule.nextAt > now.toISOString()) continue;
      const records = await principalRecords(tenantId, schedule.identifierHash);
      const { step, items } = decide(schedule, records, purposes, settings, now);
      // Her own notice mail, written with the notice or not at all (notice-mail.ts).
      if (step.kind === 'notice') items.push(...(await queueRetentionNoticeMail({ tenantId, identifierHash: schedule.identifierHash, purposeIds: step.purposeIds, dueAt: step.dueAt })));
      if (step.kind === 'expire') {
        // Claimed first, so that of two sweeps at once only one puts her in a run; a run that dies
        // after its claim is taken up again once the claim's few minutes pass.
        const claimUntil = new Date(now.getTime() + claimMs).toISOString();
        const claim = scheduleUpdate(schedule, { state: 'EXPIRING' }, [], claimUntil);
        if ((await tryTransaction([claim])) !== 'ok') continue;
        const claimed = { ...schedule, nextAt: claimUntil, indexKey: retentionKeys.due(tenantId, schedule.identifierHash, claimUntil).GSI2SK };
        expiries.push({ schedule: claimed, purposeIds: step.purposeIds, records });
      } else if ((await tryTransaction(items)) === 'ok') moved += 1;
    } catch (error) {
      log.error('retention sweep failed for a principal', { tenantId, ...describeError(error) });
    }
  }
  if (expiries.length === 0) return moved;
  const at = now.toISOString();
  const runId = newId();
  // Pages group principals whose lapsed purposes are the same.
  const groups = new Map<string, Expiry[]>();
  for (const expiry of expiries) {
    const key = expiry.purposeIds.join(',');
    groups.set(key, [...(groups.get(key) ?? []), expiry]);
  }
  const pages = [...groups.values()].flatMap((group) => Array.from({ length: Math.ceil(group.length / erasurePageSize) }, (_, index) => group.slice(index * erasurePageSize, (index + 1) * erasurePageSize)));
  const listed = pages.map((page) => ({ purposeIds: page[0]!.purposeIds, principalHashes: page.map((expiry) => expiry.schedule.identifierHash) }));
  const digest = createHash('sha256').update(canonicalJson(listed)).digest('hex');
  await writeTransaction([
    documentPut({ tenantId, documentType: retentionDocumentTypes.run, subjectId: 'retention-runs', at, content: { runId, at, principals: expiries.length, pages: pages.length, listDigest: digest, reason: 'RETENTION_PERIOD_ENDED' } }).item,
  ]);
  for (const [index, page] of listed.entries()) {
    const event = newEvent(tenantId, 'retention.erasure_due', { runId, page: index + 1, pages: listed.length, ...page }, { id: eventIdFor('retention.erasure_due', `${runId}:${index + 1}`), timestamp: at });
    await db().send(new PutCommand(outboxPut(event).Put!));
  }
  const reason = `RETENTION_PERIOD_ENDED run ${runId}`;
  for (const expiry of expiries) {
    const records = expiry.records.filter((record) => inForce(record) && expiry.purposeIds.some((purposeId) => purposeId in record.consentGiven));
    const items = [
      ...records.map((record) => expiryUpdate(record, expiry.purposeIds, at, reason)),
      // Looked at again at once: what else is due is decided on the records as they now are.
      scheduleUpdate(expiry.schedule, { state: 'EXPIRED', expiredAt: at, purposeIds: expiry.purposeIds, runId }, ['noticeSentAt', 'noticedDueAt'], at),
    ];
    try {
      if ((await tryTransaction(items)) !== 'ok') continue;
      moved += 1;
      await eraseWhenAllExpired(tenantId, expiry.schedule.identifierHash, runId, at);
    } catch (error) {
      log.error('retention expiry failed for a principal', { tenantId, runId, ...describeError(error) });
    }
  }
  return moved;
};

/**
 * The retention sweep (a scheduled function in AWS, a loop of the local workers): the principals
 * due by now, from the due index sharded by day (never a Scan), tenant by tenant, one tenant's
 * fault never stopping another's. `accept`: each test file sweeps its own tenants.
 */
export const sweepRetention = async (options: { accept?: Accept } = {}): Promise<number> => {
  const now = clock.now();
  const entries = await dueEntries(now.toISOString());
  const byTenant = new Map<string, Schedule[]>();
  for (const entry of entries) {
    if (options.accept && !options.accept(entry.tenantId)) continue;
    byTenant.set(entry.tenantId, [...(byTenant.get(entry.tenantId) ?? []), entry]);
  }
  const outcomes = await Promise.allSettled([...byTenant].map(([tenantId, mine]) => sweepTenant(tenantId, mine, now)));
  for (const outcome of outcomes) if (outcome.status === 'rejected') log.error('retention sweep failed for a tenant', describeError(outcome.reason));
  return outcomes.reduce((sum, outcome) => sum + (outcome.status === 'fulfilled' ? outcome.value : 0), 0);
};

/** Sweeps until a sweep moves no one (the scheduled function's body). */
export const sweepRetentionDue = async (options: { accept?: Accept } = {}): Promise<number> => {
  let moved = 0;
  for (let step = 1; step > 0; moved += step) step = await sweepRetention(options);
  return moved;
};
