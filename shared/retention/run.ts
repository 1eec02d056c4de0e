import { createHash } from 'node:crypto';
import { canonicalJson, evidenceOf } from '../consent/proof';
import { expiryUpdate, principalRecordsWithContact } from '../consent/store';
import { erasureUpdate, withdrawalErasureUpdate } from '../consent/erasure-store';
import { boundFields, type RecordBinding, type WithdrawalBinding } from '../consent/erasure-binding';
import { recordBinding, withdrawalBinding } from '../consent/evidence-erasure';
import { inForce, stateOf, type ConsentRecord } from '../consent/record';
import { principalWithdrawalItems } from '../consent/withdrawal-store';
import type { NamedItem } from '../db/transact';
import { listAssets } from '../data-map/store';
import { tryTransaction, writeTransaction } from '../db/transact';
import { documentPut } from '../evidence/documents';
import { eventIdFor, newEvent } from '../events/outbox';
import { newTimeOrderedId } from '../ids';
import { describeError, log } from '../log';
import { retentionDocumentTypes } from './documents';
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

/** Records and withdrawals per retention.erased entry: with the entry itself, one transaction (at most 100 items). */
const erasureChunk = 99;

/** What an erasure entry says went, in this order: the names a verifier prints. */
const erasedNames = ['sealedContact', 'externalId', 'userAgent', 'ipAddress', 'withdrawalReason', 'withdrawalEmail'] as const;
type ErasedName = (typeof erasedNames)[number];

/** One record's or withdrawal's part of an erasure: its update, its binding when values of its evidence go, and what goes. */
type Erasure =
  | { kind: 'record'; id: string; update: NamedItem; binding?: RecordBinding; erased: ErasedName[] }
  | { kind: 'withdrawal'; id: string; update: NamedItem; binding?: WithdrawalBinding; erased: ErasedName[] };

/**
 * A binding, or none when the evidence no longer hashes to its hash (altered since it was
 * written): its values then stay, as recorded, for log verification to report, and the rest of
 * her data goes. Logged without her data.
 */
const boundOrKept = <B>(bind: () => B | undefined, context: Record<string, unknown>): B | undefined => {
  try {
    return bind();
  } catch (error) {
    log.error('retention kept evidence values it cannot bind', { ...context, ...describeError(error) });
    return undefined;
  }
};

const recordErasure = (record: ConsentRecord, sealedContact: string | undefined): Erasure | undefined => {
  // Values erased by an earlier run (a record that lapsed before) are bound by that run's entry.
  const binding = record.erasedSha256 === undefined ? boundOrKept(() => recordBinding(evidenceOf(record), record.proofHash), { tenantId: record.tenantId, recordId: record.recordId }) : undefined;
  const erased = [...(sealedContact === undefined ? [] : ['sealedContact' as const]), ...(binding ? (Object.keys(boundFields('record', binding)) as ErasedName[]) : [])];
  return erased.length === 0 ? undefined : { kind: 'record', id: record.recordId, update: erasureUpdate(record, binding), binding, erased };
};

const withdrawalErasure = (item: Record<string, unknown>): Erasure | undefined => {
  const binding = boundOrKept(() => withdrawalBinding(item), { tenantId: item.tenantId, withdrawalId: item.withdrawalId });
  const erased: ErasedName[] = [...(binding ? ['withdrawalReason' as const] : []), ...(typeof item.principalEmail === 'string' ? ['withdrawalEmail' as const] : [])];
  return erased.length === 0 ? undefined : { kind: 'withdrawal', id: String(item.withdrawalId), update: withdrawalErasureUpdate(item, binding), binding, erased };
};

/**
 * Once every record of a principal has expired, what the service holds of her that is not
 * evidence goes: the sealed email her records carry and the email on her withdrawals (never part
 * of a hash), and the values of her evidence that identify her or that she typed: each record's
 * external id, user agent and IP address, each withdrawal's reason, in every proof format (the
 * hash-chain era's too). Those are part of the hashed evidence: each record's and withdrawal's
 * binding of its evidence without them to its hash is logged with the erasure
 * (evidence-erasure.ts), so her evidence still verifies. The entry and the updates are one
 * transaction: nothing is erased unlogged, nothing logged stays.
 */
const eraseWhenAllExpired = async (tenantId: string, identifierHash: string, runId: string, at: string) => {
  const rows = await principalRecordsWithContact(tenantId, identifierHash);
  if (rows.length === 0 || !rows.every(({ record }) => stateOf(record) === 'EXPIRED')) return;
  const withdrawals = await principalWithdrawalItems(tenantId, identifierHash, rows.flatMap(({ record }) => (record.lastWithdrawalId ? [record.lastWithdrawalId] : [])));
  const erasures = [...rows.map(({ record, sealedContact }) => recordErasure(record, sealedContact)), ...withdrawals.map(withdrawalErasure)].filter((erasure): erasure is Erasure => erasure !== undefined);
  for (let index = 0; index < erasures.length; index += erasureChunk) {
    const chunk = erasures.slice(index, index + erasureChunk);
    const records = chunk.filter((erasure) => erasure.kind === 'record');
    const ofWithdrawals = chunk.filter((erasure) => erasure.kind === 'withdrawal');
    const recordBindings = records.flatMap((erasure) => (erasure.binding ? [erasure.binding] : []));
    const withdrawalBindings = ofWithdrawals.flatMap((erasure) => (erasure.binding ? [erasure.binding] : []));
    const erased = erasedNames.filter((name) => chunk.some((erasure) => erasure.erased.includes(name)));
    const content = {
      identifierHash,
      runId,
      erased,
      records: records.map((erasure) => erasure.id),
      ...(ofWithdrawals.length > 0 ? { withdrawals: ofWithdrawals.map((erasure) => erasure.id) } : {}),
      ...(recordBindings.length > 0 ? { recordBindings } : {}),
      ...(withdrawalBindings.length > 0 ? { withdrawalBindings } : {}),
      reason: 'RETENTION_PERIOD_ENDED',
    };
    await writeTransaction([documentPut({ tenantId, documentType: retentionDocumentTypes.erased, subjectId: `retention:${identifierHash}`, at, content }).item, ...chunk.map((erasure) => erasure.update)]);
  }
};

/**
 * The principals of one tenant whose data lapses in one pass are one run: its log entry, its
 * erasure task (the data map's assets holding the lapsed purposes' data) and its
 * retention.erasure_due pages are written first, then each principal's records expire (a crash in
 * between is a run announced twice, never a lapse unannounced). Answers how many expired.
 */
export const runExpiries = async (tenantId: string, expiries: readonly Expiry[], now: Date, tally: DayTally): Promise<number> => {
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
  for (const expiry of expiries) {
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
      if ((await tryTransaction(items)) !== 'ok') continue;
      expired += 1;
      tally.add(at, 'expired');
      if (!expiry.wasLive) tally.add(dueAt, 'due');
      await eraseWhenAllExpired(tenantId, schedule.identifierHash, runId, at);
    } catch (error) {
      log.error('retention expiry failed for a principal', { tenantId, runId, ...describeError(error) });
    }
  }
  return expired;
};
