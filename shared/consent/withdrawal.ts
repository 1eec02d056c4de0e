import { clock, dayMs } from '../clock';
import { tableName } from '../db/client';
import { ConflictError, ValidationError } from '../errors';
import { newEvent, outboxPut } from '../events/outbox';
import { newId } from '../ids';
import { mailPut } from '../mail/outbox';
import { addCounters, type TransactItem } from '../db/transact';
import type { Tenant } from '../tenants/tenant';
import { consentKeys } from './keys';
import { derivedStatus, type ConsentRecord } from './record';
import { counterNames, tryTransaction } from './store';

export type WithdrawalMethod = 'DASHBOARD' | 'WEB_PORTAL' | 'PUBLIC_API';

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
  extraItems?: TransactItem[];
}

const complianceDays = 7;

/** What a record looks like after the withdrawal: purposes accumulate; full once none remain. */
const afterWithdrawal = (record: ConsentRecord, purposeIds: string[], at: string) => {
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

const recordUpdate = (record: ConsentRecord, next: ReturnType<typeof afterWithdrawal>, withdrawalId: string): TransactItem => {
  const status = next.isWithdrawn ? 'withdrawn' : next.isPartiallyWithdrawn ? 'partial' : 'active';
  const statusKeys = consentKeys.status(record.tenantId, status, record.createdAt, record.recordId);
  const withdrawnKeys = next.withdrawnAt ? consentKeys.withdrawn(record.tenantId, next.withdrawnAt, record.recordId) : undefined;
  return {
    Update: {
      TableName: tableName(),
      Key: consentKeys.record(record.tenantId, record.recordId),
      UpdateExpression: [
        'SET withdrawnPurposes = :purposes, isWithdrawn = :full, isPartiallyWithdrawn = :partial, withdrawnAt = :at,',
        'GSI2PK = :statusPk, GSI2SK = :statusSk, lastWithdrawalId = :withdrawal, withdrawalVersion = withdrawalVersion + :one',
        withdrawnKeys ? ', GSI4PK = :withdrawnPk, GSI4SK = :withdrawnSk' : '',
      ].join(' '),
      // Evidence never changes; only these fields do, and only from the state that was read.
      ConditionExpression: 'withdrawalVersion = :version',
      ExpressionAttributeValues: {
        ':purposes': next.withdrawnPurposes,
        ':full': next.isWithdrawn,
        ':partial': next.isPartiallyWithdrawn,
        ':at': next.withdrawnAt,
        ':statusPk': statusKeys.GSI2PK,
        ':statusSk': statusKeys.GSI2SK,
        ':withdrawal': withdrawalId,
        ':one': 1,
        ':version': record.withdrawalVersion,
        ...(withdrawnKeys ? { ':withdrawnPk': withdrawnKeys.GSI4PK, ':withdrawnSk': withdrawnKeys.GSI4SK } : {}),
      },
    },
  };
};

const mailsFor = (request: WithdrawalRequest, withdrawalId: string, at: string, dueAt: string, full: boolean, purposes: string[]) => {
  const scope = full ? 'all purposes' : `these purposes: ${purposes.join(', ')}`;
  const mails: TransactItem[] = [];
  if (request.principalEmail) {
    mails.push(
      mailPut(request.tenant.tenantId, {
        to: request.principalEmail,
        subject: `${request.tenant.name}: your consent withdrawal is confirmed`,
        text: `We have recorded the withdrawal of your consent for ${scope}, at ${at}.\nReference: ${withdrawalId}.\n${request.tenant.name} must stop processing your personal data for what you withdrew.`,
      }),
    );
  }
  if (request.tenant.dpoEmail) {
    mails.push(
      mailPut(request.tenant.tenantId, {
        to: request.tenant.dpoEmail,
        subject: `Consent withdrawn (${request.method}): act by ${dueAt.slice(0, 10)}`,
        text: `Withdrawal ${withdrawalId} at ${at} covers ${request.records.length} consent record(s), ${scope}.\nReason: ${request.reason ?? 'none given'}.\nA compliance task is due ${dueAt}: stop the processing and mark the task done.`,
      }),
    );
  }
  return mails;
};

/**
 * One withdrawal, all in one transaction: each affected record's withdrawal fields (conditional
 * on the state read), the immutable WithdrawalRecord, the ComplianceTask due in 7 days, the
 * counters, the consent.withdrawn events and the confirmation mails. A crash leaves all or
 * nothing; a concurrent change to the same record fails it as a CONFLICT to retry.
 */
export const withdraw = async (request: WithdrawalRequest) => {
  const now = clock.now();
  const at = now.toISOString();
  const dueAt = new Date(now.getTime() + complianceDays * dayMs).toISOString();
  const withdrawalId = newId();
  const taskId = newId();
  const tenantId = request.tenant.tenantId;
  const affected = request.records
    .filter((record) => !record.isWithdrawn)
    .map((record) => ({ record, next: afterWithdrawal(record, request.purposeIds, at) }))
    .filter(({ next }) => next.newlyWithdrawn.length > 0);
  if (affected.length === 0) return undefined;
  const isFullWithdrawal = affected.every(({ next }) => next.isWithdrawn);
  const purposesWithdrawn = [...new Set(affected.flatMap(({ next }) => next.newlyWithdrawn))];

  const statusDeltas: Record<string, number> = {};
  const bump = (name: string, delta: number) => (statusDeltas[name] = (statusDeltas[name] ?? 0) + delta);
  for (const { record, next } of affected) {
    bump(derivedStatus(record), -1);
    bump(derivedStatus(next), 1);
    for (const purposeId of next.newlyWithdrawn) {
      if (record.consentGiven[purposeId]) bump(counterNames.purposeWithdrawn(purposeId), 1);
    }
  }
  const items: TransactItem[] = [
    ...affected.map(({ record, next }) => recordUpdate(record, next, withdrawalId)),
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...consentKeys.withdrawal(tenantId, withdrawalId),
          type: 'WithdrawalRecord',
          withdrawalId,
          tenantId,
          recordIds: affected.map(({ record }) => record.recordId),
          dataPrincipalHash: affected[0]!.record.dataPrincipalHash,
          isFullWithdrawal,
          purposeIds: purposesWithdrawn,
          method: request.method,
          reason: request.reason,
          actor: request.actor,
          withdrawnAt: at,
          taskId,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...consentKeys.task(tenantId, taskId),
          ...consentKeys.taskState(tenantId, 'OPEN', dueAt, taskId),
          type: 'ComplianceTask',
          taskId,
          withdrawalId,
          state: 'OPEN',
          dueAt,
          createdAt: at,
          description: `Stop processing for withdrawal ${withdrawalId} (${isFullWithdrawal ? 'all purposes' : purposesWithdrawn.join(', ')})`,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    addCounters(consentKeys.stats(tenantId), statusDeltas),
    addCounters(consentKeys.daily(tenantId, at.slice(0, 10)), { withdrawn: affected.length }),
    ...affected.map(({ record, next }) =>
      outboxPut(
        newEvent(tenantId, 'consent.withdrawn', {
          withdrawalId,
          consentRecordId: record.recordId,
          dataPrincipalHash: record.dataPrincipalHash,
          dataPrincipalEmail: request.principalEmail,
          isFullWithdrawal: next.isWithdrawn,
          purposeIds: next.isWithdrawn ? [] : next.newlyWithdrawn,
          withdrawalMethod: request.method,
          withdrawalReason: request.reason,
          withdrawnAt: at,
        }),
      ),
    ),
    ...mailsFor(request, withdrawalId, at, dueAt, isFullWithdrawal, purposesWithdrawn),
    ...(request.extraItems ?? []),
  ];
  const outcome = await tryTransaction(items);
  if (outcome !== 'ok') {
    const failedIndex = outcome === 'contended' ? -1 : outcome.failedIndex;
    throw new ConflictError(
      failedIndex >= items.length - (request.extraItems?.length ?? 0) ? 'This withdrawal link was already used' : 'The consent changed while it was being withdrawn; retry',
    );
  }
  return {
    withdrawalId,
    withdrawnAt: at,
    withdrawnCount: affected.length,
    isFullWithdrawal,
    purposesWithdrawn,
    tenant: { name: request.tenant.name, slug: request.tenant.slug },
    complianceTask: { taskId, dueAt },
  };
};

/** Purposes named in a partial withdrawal must belong to the records being withdrawn. */
export const checkPurposes = (records: ConsentRecord[], purposeIds: string[], field: string) => {
  const known = new Set(records.flatMap((record) => Object.keys(record.consentGiven)));
  const unknown = purposeIds.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new ValidationError({ [field]: `not purposes of this consent: ${unknown.join(', ')}` });
};
