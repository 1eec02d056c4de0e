import { clock, dayMs } from '../clock';
import { randomToken } from '../crypto/hash';
import { ValidationError } from '../errors';
import { newId, newTimeOrderedId } from '../ids';
import { mailPut } from '../mail/outbox';
import { getPurposes } from '../purposes/store';
import { formatDate, formatTime } from '../time/format';
import { withdrawalConfirmationMail } from './withdrawal-mails';
import { writeTransaction, type NamedItem } from '../db/transact';
import type { Tenant } from '../tenants/tenant';
import { consentInForce, inForce, type ConsentRecord } from './record';
import { batchGetAll } from '../db/batch';
import { ContentionError } from '../db/errors';
import { recordOf } from './record-item';
import { recordKeyOf } from './store';
import { taskPut } from './task-store';
import { afterWithdrawal, applyWithdrawal, completePendingWithdrawals, planOf, settledBy, type WithdrawalMethod, type WithdrawalPlan } from './withdrawal-apply';
import { withdrawalAttributionLabel, withdrawalAttributionText, type WithdrawalAttribution } from './attribution-levels';
import { claimPut, ClaimLostError, getWithdrawalItem, readWithdrawalClaim, withdrawalPut, type WithdrawalClaim } from './withdrawal-store';

export type { WithdrawalMethod };

export interface WithdrawalRequest {
  tenant: Tenant;
  records: ConsentRecord[];
  /** Empty: every purpose, a full withdrawal. */
  purposeIds: string[];
  method: WithdrawalMethod;
  reason: string | null;
  actor: string;
  /** A withdrawal by email at withdraw-public says how far its principal is known (withdrawal-attribution.ts). */
  attribution?: WithdrawalAttribution;
  /** Known only when the principal was identified by email; the confirmation goes there. */
  principalEmail: string | null;
  /** Redeemed in the same transaction, so a token is spent exactly when its withdrawal happens. */
  extraItems?: NamedItem[];
}

const complianceDays = 7;


/** Purposes by name, as the team knows them; an id only for a purpose since deleted. */
const purposeNames = async (tenantId: string, purposeIds: string[]): Promise<string[]> => {
  if (purposeIds.length === 0) return [];
  const byId = new Map((await getPurposes(tenantId, purposeIds)).map((purpose) => [purpose.purposeId, purpose.name]));
  return purposeIds.map((id) => byId.get(id) ?? id);
};

/** How the team's words name where a withdrawal was made. */
const methodWords: Record<WithdrawalMethod, string> = {
  DASHBOARD: 'by your team, in the dashboard',
  WEB_PORTAL: 'by the principal, on the withdrawal page',
  PUBLIC_API: 'through your systems',
  WIDGET: 'by the principal, in the consent banner',
  RIGHTS_REQUEST: 'by fulfilling an erasure request',
};

/**
 * The team's mail (in English, like the dashboard): what to stop, by when, with the purposes by
 * name and times in the tenant's zone (issue 37, defect 6).
 */
const dpoMail = (request: WithdrawalRequest, withdrawalId: string, at: string, dueAt: string, full: boolean, names: string[]): NamedItem[] => {
  if (!request.tenant.dpoEmail) return [];
  const zone = { timeZone: request.tenant.timeZone };
  return [
    {
      name: 'DPO mail',
      item: mailPut(request.tenant.tenantId, {
        to: request.tenant.dpoEmail,
        subject: `Consent withdrawn: stop the processing by ${formatDate(dueAt, zone)}`,
        text: [
          `Consent was withdrawn ${methodWords[request.method]} on ${formatTime(at, zone)}, for ${full ? 'every purpose' : names.join(', ')} (${request.records.length} consent record(s)).`,
          request.reason ? `The principal's reason: ${request.reason}` : 'No reason was given.',
          ...(request.attribution ? [`How it was made: ${withdrawalAttributionLabel(request.attribution)}. ${withdrawalAttributionText(request.attribution)}`] : []),
          `A compliance task is due by ${formatTime(dueAt, zone)}: stop the processing and mark the task done under Withdrawals.`,
          `Reference: withdrawal ${withdrawalId}.`,
        ].join('\n'),
      }),
    },
  ];
};

/** A principal's records as stored now (the callers read them from an eventually consistent index). */
const rereadRecords = async (records: ConsentRecord[]): Promise<ConsentRecord[]> => {
  const items = await batchGetAll(records.map(recordKeyOf), { consistent: true });
  const byId = new Map(items.map(recordOf).map((record) => [record.recordId, record]));
  return records.flatMap((record) => byId.get(record.recordId) ?? []);
};

/** The principal's last committed withdrawal, when it may not be applied to every record yet. */
const unappliedClaim = async (tenantId: string, claim: WithdrawalClaim): Promise<WithdrawalPlan | undefined> => {
  if (!claim.lastWithdrawalId) return undefined;
  const item = await getWithdrawalItem(tenantId, claim.lastWithdrawalId);
  return item?.state === 'IN_PROGRESS' ? planOf(item) : undefined;
};

const maxCommitAttempts = 6;

/**
 * A withdrawal in two steps, so that any number of records can be withdrawn (a transaction holds
 * at most 100 items, and a principal behind a shared IP can have hundreds of records):
 *
 * 1. One transaction commits the withdrawal itself: the WithdrawalRecord (state IN_PROGRESS, with
 *    the ids of the records it covers, in a sparse pending index), the ComplianceTask due in 7
 *    days, the confirmation mails, for a portal link the spending of the token, and the
 *    principal's withdrawal claim moved on from the sequence that was read. From here on the
 *    withdrawal exists and cannot be lost: it will be applied.
 * 2. applyWithdrawal (withdrawal-apply.ts) updates the records in chunks, each chunk one
 *    transaction with its counters and consent.withdrawn events, then marks the withdrawal
 *    COMPLETE. It is idempotent (a record already carrying this withdrawal is skipped), so a
 *    crash halfway is finished by the completer (the table's stream in AWS, the worker loop
 *    locally) or by the next request of the same tenant, never left half-done.
 *
 * Exactly one withdrawal per decision: every withdrawal of a principal is conditional on the
 * principal's claim (one item, `WCLAIM#<principal hash>`), so of simultaneous withdrawals decided
 * from the same state one commits; the others read the claim again, see the records as that
 * withdrawal leaves them (it may still be being applied by its own request) and, asking for
 * nothing more, get undefined (the routes answer 409 CONFLICT). One asking for more (other
 * purposes) first finishes the committed one, so a principal never has two unapplied withdrawals.
 */
export const withdraw = async (request: WithdrawalRequest) => {
  const tenantId = request.tenant.tenantId;
  const principal = request.records[0]?.dataPrincipalHash;
  if (!principal) return undefined;
  // A withdrawal of this tenant left half-applied by a crash is finished first.
  await completePendingWithdrawals({ tenantId, olderThanMs: 0, now: clock.now() });
  for (let attempt = 1; ; attempt += 1) {
    const claim = await readWithdrawalClaim(tenantId, principal);
    const unapplied = await unappliedClaim(tenantId, claim);
    const stored = await rereadRecords(request.records);
    const records = unapplied ? settledBy(stored, unapplied) : stored;
    const now = clock.now();
    const affected = records
      // A decision not in force (a child's awaiting the parent, or refused) has nothing to withdraw.
      .filter((record) => !record.isWithdrawn && inForce(record))
      .map((record) => ({ record, next: afterWithdrawal(record, request.purposeIds, now.toISOString()) }))
      .filter(({ next }) => next.newlyWithdrawn.length > 0);
    if (affected.length === 0) return undefined;
    if (unapplied) {
      await applyWithdrawal(unapplied);
      continue;
    }
    try {
      return await commitAndApply(request, affected, claim, now);
    } catch (error) {
      const raced = error instanceof ClaimLostError || error instanceof ContentionError;
      if (!raced || attempt >= maxCommitAttempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 40));
    }
  }
};

type Affected = { record: ConsentRecord; next: ReturnType<typeof afterWithdrawal> }[];

const commitAndApply = async (request: WithdrawalRequest, affected: Affected, claim: WithdrawalClaim, now: Date) => {
  const at = now.toISOString();
  const dueAt = new Date(now.getTime() + complianceDays * dayMs).toISOString();
  // Time-ordered, like record ids: the log's id-to-leaf map groups entries by creation time.
  const withdrawalId = newTimeOrderedId(now);
  const taskId = newId();
  const tenantId = request.tenant.tenantId;
  const dataPrincipalHash = affected[0]!.record.dataPrincipalHash;
  const isFullWithdrawal = affected.every(({ next }) => next.isWithdrawn);
  const purposesWithdrawn = [...new Set(affected.flatMap(({ next }) => next.newlyWithdrawn))];
  const names = await purposeNames(tenantId, isFullWithdrawal ? [] : purposesWithdrawn);
  const plan: WithdrawalPlan = {
    withdrawalId,
    tenantId,
    recordIds: affected.map(({ record }) => record.recordId),
    requestedPurposeIds: request.purposeIds,
    method: request.method,
    reason: request.reason,
    principalEmail: request.principalEmail,
    withdrawnAt: at,
    attribution: request.attribution ?? null,
  };
  const { attribution, ...stored } = plan;
  const items: NamedItem[] = [
    claimPut(tenantId, dataPrincipalHash, claim, withdrawalId),
    // The attribution only where there is one: the evidence of every other withdrawal is as it always was.
    // A reason she typed gets a salt of its own in the evidence (128 random bits): once retention erases the reason, its hash is keyed by it (withdrawal-evidence.ts).
    withdrawalPut({ ...stored, ...(attribution ? { attribution } : {}), ...(request.reason ? { salt: randomToken(16) } : {}), state: 'IN_PROGRESS', dataPrincipalHash, isFullWithdrawal, purposeIds: purposesWithdrawn, actor: request.actor, taskId }),
    taskPut({
      tenantId,
      taskId,
      withdrawalId,
      dueAt,
      createdAt: at,
      // Named as the DPO knows the purposes (their ids stay on the withdrawal).
      description: `Stop processing for ${isFullWithdrawal ? 'every purpose' : names.join(', ')} (withdrawal ${withdrawalId})`,
      withdrawalMethod: request.method,
      ...(attribution ? { attribution } : {}),
    }),
    ...(await withdrawalConfirmationMail({ tenant: request.tenant, records: request.records, principalEmail: request.principalEmail, withdrawalId, at, full: isFullWithdrawal, purposeIds: purposesWithdrawn })),
    ...dpoMail(request, withdrawalId, at, dueAt, isFullWithdrawal, names),
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
  const granted = new Set(records.flatMap((record) => Object.entries(consentInForce(record)).filter(([, given]) => given).map(([id]) => id)));
  const refused = purposeIds.filter((id) => !granted.has(id));
  if (refused.length > 0) throw new ValidationError({ [field]: `not granted in this consent, so nothing to withdraw: ${refused.join(', ')}` });
};
