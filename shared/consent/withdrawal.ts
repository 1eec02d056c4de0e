import { clock, dayMs } from '../clock';
import { ValidationError } from '../errors';
import { newId, newTimeOrderedId } from '../ids';
import { mailPut } from '../mail/outbox';
import { getPurposes } from '../purposes/store';
import { writeTransaction, type NamedItem } from '../db/transact';
import type { Tenant } from '../tenants/tenant';
import type { ConsentRecord } from './record';
import { getRecord } from './store';
import { taskPut } from './task-store';
import { afterWithdrawal, applyWithdrawal, completePendingWithdrawals, type WithdrawalMethod, type WithdrawalPlan } from './withdrawal-apply';
import { withdrawalPut } from './withdrawal-store';

export type { WithdrawalMethod };

export interface WithdrawalRequest {
  tenant: Tenant;
  records: ConsentRecord[];
  /** Empty: every purpose, a full withdrawal. */
  purposeIds: string[];
  method: WithdrawalMethod;
  reason: string | null;
  actor: string;
  /** Known only when the principal was identified by email; the confirmation goes there. */
  principalEmail: string | null;
  /** Redeemed in the same transaction, so a token is spent exactly when its withdrawal happens. */
  extraItems?: NamedItem[];
}

const complianceDays = 7;

/** A spent withdrawal link, whether found spent on reading or lost to a simultaneous redemption. */

const rereadRecords = async (records: ConsentRecord[]): Promise<ConsentRecord[]> =>
  (await Promise.all(records.map((record) => getRecord(record.tenantId, record.recordId, true)))).filter((record): record is ConsentRecord => record !== undefined);

/** Purposes by name, as the principal saw them in the notice; an id only for a purpose since deleted. */
const purposeNames = async (tenantId: string, purposeIds: string[]): Promise<string[]> => {
  const byId = new Map((await getPurposes(tenantId, purposeIds)).map((purpose) => [purpose.purposeId, purpose.name]));
  return purposeIds.map((id) => byId.get(id) ?? id);
};

const mailsFor = (request: WithdrawalRequest, withdrawalId: string, at: string, dueAt: string, full: boolean, purposes: string[]) => {
  const scope = full ? 'all purposes' : `these purposes: ${purposes.join(', ')}`;
  const mails: NamedItem[] = [];
  if (request.principalEmail) {
    mails.push({
      name: 'principal mail',
      item: mailPut(request.tenant.tenantId, {
        to: request.principalEmail,
        subject: `${request.tenant.name}: your consent withdrawal is confirmed`,
        text: `We have recorded the withdrawal of your consent for ${scope}, at ${at}.\nReference: ${withdrawalId}.\n${request.tenant.name} must stop processing your personal data for what you withdrew.`,
      }),
    });
  }
  if (request.tenant.dpoEmail) {
    mails.push({
      name: 'DPO mail',
      item: mailPut(request.tenant.tenantId, {
        to: request.tenant.dpoEmail,
        subject: `Consent withdrawn (${request.method}): act by ${dueAt.slice(0, 10)}`,
        text: `Withdrawal ${withdrawalId} at ${at} covers ${request.records.length} consent record(s), ${scope}.\nReason: ${request.reason ?? 'none given'}.\nA compliance task is due ${dueAt}: stop the processing and mark the task done.`,
      }),
    });
  }
  return mails;
};

/**
 * A withdrawal in two steps, so that any number of records can be withdrawn (a transaction holds
 * at most 100 items, and a principal behind a shared IP can have hundreds of records):
 *
 * 1. One transaction commits the withdrawal itself: the WithdrawalRecord (state IN_PROGRESS, with
 *    the ids of the records it covers, in a sparse pending index), the ComplianceTask due in 7
 *    days, the confirmation mails and, for a portal link, the spending of the token. From here on
 *    the withdrawal exists and cannot be lost: it will be applied.
 * 2. applyWithdrawal (withdrawal-apply.ts) updates the records in chunks, each chunk one
 *    transaction with its counters and consent.withdrawn events, then marks the withdrawal
 *    COMPLETE. It is idempotent (a record already carrying this withdrawal is skipped), so a
 *    crash halfway is finished by the completer (the table's stream in AWS, the worker loop
 *    locally) or by the next request of the same tenant, never left half-done.
 */
export const withdraw = async (request: WithdrawalRequest) => {
  const now = clock.now();
  const at = now.toISOString();
  const dueAt = new Date(now.getTime() + complianceDays * dayMs).toISOString();
  // Time-ordered, like record ids: the log's id-to-leaf map groups entries by creation time.
  const withdrawalId = newTimeOrderedId(now);
  const taskId = newId();
  const tenantId = request.tenant.tenantId;
  // A withdrawal of this tenant left half-applied by a crash is finished first, so the records
  // read below were read before it: re-read them if anything was finished.
  const finished = await completePendingWithdrawals({ tenantId, olderThanMs: 0, now });
  const records = finished > 0 ? await rereadRecords(request.records) : request.records;
  const affected = records
    .filter((record) => !record.isWithdrawn)
    .map((record) => ({ record, next: afterWithdrawal(record, request.purposeIds, at) }))
    .filter(({ next }) => next.newlyWithdrawn.length > 0);
  if (affected.length === 0) return undefined;
  const isFullWithdrawal = affected.every(({ next }) => next.isWithdrawn);
  const purposesWithdrawn = [...new Set(affected.flatMap(({ next }) => next.newlyWithdrawn))];
  const plan: WithdrawalPlan = {
    withdrawalId,
    tenantId,
    recordIds: affected.map(({ record }) => record.recordId),
    requestedPurposeIds: request.purposeIds,
    method: request.method,
    reason: request.reason,
    principalEmail: request.principalEmail,
    withdrawnAt: at,
  };
  const items: NamedItem[] = [
    withdrawalPut({ ...plan, state: 'IN_PROGRESS', dataPrincipalHash: affected[0]!.record.dataPrincipalHash, isFullWithdrawal, purposeIds: purposesWithdrawn, actor: request.actor, taskId }),
    taskPut({
      tenantId,
      taskId,
      withdrawalId,
      dueAt,
      createdAt: at,
      description: `Stop processing for withdrawal ${withdrawalId} (${isFullWithdrawal ? 'all purposes' : purposesWithdrawn.join(', ')})`,
    }),
    ...mailsFor(request, withdrawalId, at, dueAt, isFullWithdrawal, isFullWithdrawal ? [] : await purposeNames(tenantId, purposesWithdrawn)),
    ...(request.extraItems ?? []),
  ];
  await writeTransaction(items);
  const applied = await applyWithdrawal(plan);
  return {
    withdrawalId,
    withdrawnAt: at,
    withdrawnCount: applied.withdrawnCount,
    isFullWithdrawal,
    purposesWithdrawn,
    tenant: { name: request.tenant.name, slug: request.tenant.slug },
    complianceTask: { taskId, dueAt },
  };
};

/**
 * Purposes named in a partial withdrawal must have been granted in the records being withdrawn:
 * a purpose the principal declined (or that the notice never had) cannot be withdrawn, and must
 * not be listed as withdrawn.
 */
export const checkPurposes = (records: ConsentRecord[], purposeIds: string[], field: string) => {
  const granted = new Set(records.flatMap((record) => Object.keys(record.consentGiven).filter((id) => record.consentGiven[id] === true)));
  const refused = purposeIds.filter((id) => !granted.has(id));
  if (refused.length > 0) throw new ValidationError({ [field]: `not granted in this consent, so nothing to withdraw: ${refused.join(', ')}` });
};
