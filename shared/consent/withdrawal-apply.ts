import { addCounters, named, tryTransaction, type NamedItem } from '../db/transact';
import { newEvent, outboxPut } from '../events/outbox';
import { describeError, log } from '../log';
import { consentKeys } from './keys';
import type { withdrawalMethods } from './schemas';
import { consentInForce, derivedStatus, type ConsentRecord } from './record';
import { counterNames, getRecord } from './store';
import type { WithdrawalAttribution } from './withdrawal-attribution';
import { getWithdrawalItem, markWithdrawalComplete, queryPendingWithdrawals, recordWithdrawalUpdate } from './withdrawal-store';

export type WithdrawalMethod = (typeof withdrawalMethods)[number];

/** What a committed withdrawal covers: stored on the WithdrawalRecord, so anyone can finish it. */
export interface WithdrawalPlan {
  withdrawalId: string;
  tenantId: string;
  recordIds: string[];
  /** As requested; empty means every purpose. */
  requestedPurposeIds: string[];
  method: WithdrawalMethod;
  reason: string | null;
  principalEmail: string | null;
  withdrawnAt: string;
  /** Set on a withdrawal by email at withdraw-public (withdrawal-attribution.ts); null otherwise, the method saying who withdrew. */
  attribution: WithdrawalAttribution | null;
}

/**
 * Records per transaction: each takes its update and its consent.withdrawn event, plus the two
 * counter items, so 40 records make 82 items, under DynamoDB's 100.
 */
const chunkSize = 40;
const maxAttemptsPerChunk = 5;

/** What a record looks like after the withdrawal: purposes accumulate; full once none remain. */
export const afterWithdrawal = (record: ConsentRecord, purposeIds: string[], at: string) => {
  const all = Object.keys(record.consentGiven);
  const requested = purposeIds.length === 0 ? all : purposeIds.filter((id) => all.includes(id));
  const withdrawnPurposes = [...new Set([...record.withdrawnPurposes, ...requested])];
  const full = purposeIds.length === 0 || all.every((id) => withdrawnPurposes.includes(id));
  const newlyWithdrawn = requested.filter((id) => !record.withdrawnPurposes.includes(id));
  return {
    withdrawnPurposes: full ? all : withdrawnPurposes,
    isWithdrawn: full,
    isPartiallyWithdrawn: !full && withdrawnPurposes.length > 0,
    withdrawnAt: full ? at : null,
    newlyWithdrawn: full ? all.filter((id) => !record.withdrawnPurposes.includes(id)) : newlyWithdrawn,
  };
};

/** Already carries this withdrawal: applied by an earlier run that crashed before finishing. */
const appliedBy = (record: ConsentRecord, withdrawalId: string) => record.lastWithdrawalId === withdrawalId;

/**
 * The records as they stand once `plan` is applied, for a decision taken while it may still be
 * being applied by its own request (withdrawal.ts): a record already carrying it is as it is.
 */
export const settledBy = (records: ConsentRecord[], plan: WithdrawalPlan): ConsentRecord[] =>
  records.map((record) => {
    if (!plan.recordIds.includes(record.recordId) || appliedBy(record, plan.withdrawalId) || record.isWithdrawn) return record;
    const { newlyWithdrawn: _new, ...state } = afterWithdrawal(record, plan.requestedPurposeIds, plan.withdrawnAt);
    return { ...record, ...state, lastWithdrawalId: plan.withdrawalId };
  });

/**
 * One chunk as one transaction: each record's withdrawal fields (conditional on the version
 * read), the counter deltas and one consent.withdrawn event per record. Returns how many records
 * carry the withdrawal afterwards, whichever run applied them (a completer may have raced this
 * request). A record changed meanwhile (another withdrawal) is re-read and the chunk retried.
 */
const applyChunk = async (plan: WithdrawalPlan, recordIds: string[]): Promise<number> => {
  for (let attempt = 1; ; attempt += 1) {
    const found = (await Promise.all(recordIds.map((id) => getRecord(plan.tenantId, id, true)))).filter((record): record is ConsentRecord => record !== undefined);
    const alreadyApplied = found.filter((record) => appliedBy(record, plan.withdrawalId)).length;
    const affected = found
      .filter((record) => !appliedBy(record, plan.withdrawalId) && !record.isWithdrawn)
      .map((record) => ({ record, next: afterWithdrawal(record, plan.requestedPurposeIds, plan.withdrawnAt) }))
      .filter(({ next }) => next.newlyWithdrawn.length > 0);
    if (affected.length === 0) return alreadyApplied;
    const statusDeltas: Record<string, number> = {};
    const bump = (name: string, delta: number) => (statusDeltas[name] = (statusDeltas[name] ?? 0) + delta);
    for (const { record, next } of affected) {
      bump(derivedStatus(record), -1);
      bump(derivedStatus(next), 1);
      for (const purposeId of next.newlyWithdrawn) {
        if (consentInForce(record)[purposeId]) bump(counterNames.purposeWithdrawn(purposeId), 1);
      }
    }
    const counters: NamedItem[] = Object.values(statusDeltas).some((delta) => delta !== 0) ? [named('counters', addCounters(consentKeys.stats(plan.tenantId), statusDeltas))] : [];
    // Any failure is a concurrent change to one of these records: the chunk is re-read and retried.
    const items: NamedItem[] = [
      ...affected.map(({ record, next }) => named(`record ${record.recordId}`, recordWithdrawalUpdate(record, next, plan.withdrawalId))),
      ...counters,
      named('daily counters', addCounters(consentKeys.daily(plan.tenantId, plan.withdrawnAt.slice(0, 10)), { withdrawn: affected.length })),
      ...affected.map(({ record, next }) =>
        named(`event for ${record.recordId}`, outboxPut(
          newEvent(plan.tenantId, 'consent.withdrawn', {
            withdrawalId: plan.withdrawalId,
            consentRecordId: record.recordId,
            dataPrincipalHash: record.dataPrincipalHash,
            dataPrincipalEmail: plan.principalEmail,
            isFullWithdrawal: next.isWithdrawn,
            purposeIds: next.isWithdrawn ? [] : next.newlyWithdrawn,
            withdrawalMethod: plan.method,
            withdrawalReason: plan.reason,
            withdrawnAt: plan.withdrawnAt,
            attribution: plan.attribution,
          }),
        )),
      ),
    ];
    if ((await tryTransaction(items)) === 'ok') return affected.length + alreadyApplied;
    if (attempt >= maxAttemptsPerChunk) throw new Error(`withdrawal ${plan.withdrawalId}: a chunk kept conflicting`);
    await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
  }
};

/**
 * Applies a committed withdrawal to its records, chunk by chunk, then marks it COMPLETE and takes
 * it out of the pending index. Idempotent: safe to run again after a crash, or twice at once.
 */
export const applyWithdrawal = async (plan: WithdrawalPlan): Promise<{ withdrawnCount: number }> => {
  let withdrawnCount = 0;
  for (let start = 0; start < plan.recordIds.length; start += chunkSize) {
    withdrawnCount += await applyChunk(plan, plan.recordIds.slice(start, start + chunkSize));
  }
  // False when another run finished it first: the records are applied either way.
  await markWithdrawalComplete(plan.tenantId, plan.withdrawalId);
  return { withdrawnCount };
};

export const planOf = (item: Record<string, unknown>): WithdrawalPlan => ({
  withdrawalId: String(item.withdrawalId),
  tenantId: String(item.tenantId),
  recordIds: (item.recordIds as string[] | undefined) ?? [],
  requestedPurposeIds: (item.requestedPurposeIds as string[] | undefined) ?? [],
  method: item.method as WithdrawalMethod,
  reason: (item.reason as string | null | undefined) ?? null,
  principalEmail: (item.principalEmail as string | null | undefined) ?? null,
  withdrawnAt: String(item.withdrawnAt),
  attribution: (item.attribution as WithdrawalAttribution | undefined) ?? null,
});

/** Finishes one withdrawal by id, if it is still in progress (the stream trigger's entry point). */
export const completeWithdrawal = async (tenantId: string, withdrawalId: string): Promise<void> => {
  const item = await getWithdrawalItem(tenantId, withdrawalId);
  if (item?.state === 'IN_PROGRESS') await applyWithdrawal(planOf(item));
};

/**
 * Finishes withdrawals left IN_PROGRESS by a crash: one tenant's (before a new withdrawal of that
 * tenant, so counters and states are settled first) or everyone's (the completer loop). Only
 * those older than `olderThanMs` are taken, so a withdrawal still being applied by its own
 * request is left to it. Returns how many it finished.
 */
export const completePendingWithdrawals = async (options: { tenantId?: string; olderThanMs: number; now: Date }): Promise<number> => {
  const pending = await queryPendingWithdrawals(options.tenantId);
  const cutoff = new Date(options.now.getTime() - options.olderThanMs).toISOString();
  let finished = 0;
  for (const item of pending) {
    if (String(item.withdrawnAt) > cutoff) continue;
    try {
      await applyWithdrawal(planOf(item));
      finished += 1;
    } catch (error) {
      log.error('pending withdrawal could not be finished; will retry', { withdrawalId: item.withdrawalId, ...describeError(error) });
    }
  }
  return finished;
};
