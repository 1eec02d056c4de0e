import { GetCommand, UpdateCommand, type UpdateCommandInput } from '../db/commands';
import { batchGetAll } from '../db/batch';
import { db, tableName } from '../db/client';
import { writtenUnlessRaced } from '../db/errors';
import { queryAll } from '../db/query';
import type { NamedItem, TransactItem } from '../db/transact';
import { ConflictError } from '../errors';
import { consentKeys } from './keys';
import type { ConsentRecord } from './record';
import { recordKeyOf } from './store';

/** A fresh id's condition fails only if a concurrent change got there first: worth a retry. */
export const changedWhileWithdrawing = () => new ConflictError('The consent changed while it was being withdrawn; retry');

/**
 * The WithdrawalRecord, in the sparse pending index until every record carries it
 * (withdrawal-apply.ts), and listed under its principal for evidence packs.
 */
export const withdrawalPut = (withdrawal: { tenantId: string; withdrawalId: string; withdrawnAt: string; dataPrincipalHash: string } & Record<string, unknown>): NamedItem => ({
  name: 'withdrawal',
  item: {
    Put: {
      TableName: tableName(),
      Item: {
        ...consentKeys.withdrawal(withdrawal.tenantId, withdrawal.withdrawalId),
        ...consentKeys.withdrawalPending(withdrawal.tenantId, withdrawal.withdrawnAt, withdrawal.withdrawalId),
        ...consentKeys.principalWithdrawal(withdrawal.tenantId, withdrawal.dataPrincipalHash, withdrawal.withdrawnAt, withdrawal.withdrawalId),
        type: 'WithdrawalRecord',
        ...withdrawal,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  },
  onConditionFailure: changedWhileWithdrawing,
});

/** A principal's last committed withdrawal and how many there were: the claim every new one is conditional on. */
export interface WithdrawalClaim {
  seq: number;
  lastWithdrawalId: string | null;
}

/** Another withdrawal of the same principal committed since the claim was read: re-read and decide again. */
export class ClaimLostError extends ConflictError {
  constructor() {
    super('Another withdrawal of this principal was committed at the same moment; retry');
  }
}

export const readWithdrawalClaim = async (tenantId: string, principalHash: string): Promise<WithdrawalClaim> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: consentKeys.withdrawalClaim(tenantId, principalHash), ConsistentRead: true }));
  return { seq: Number(Item?.seq ?? 0), lastWithdrawalId: typeof Item?.lastWithdrawalId === 'string' ? Item.lastWithdrawalId : null };
};

/**
 * Moves the principal's claim on from the sequence that was read, in the withdrawal's own commit:
 * of withdrawals decided from the same state, exactly one commits.
 */
export const claimPut = (tenantId: string, principalHash: string, read: WithdrawalClaim, withdrawalId: string): NamedItem => ({
  name: 'withdrawal claim',
  item: {
    Put: {
      TableName: tableName(),
      Item: { ...consentKeys.withdrawalClaim(tenantId, principalHash), type: 'WithdrawalClaim', tenantId, seq: read.seq + 1, lastWithdrawalId: withdrawalId },
      ConditionExpression: read.seq === 0 ? 'attribute_not_exists(PK)' : 'seq = :seq',
      ...(read.seq === 0 ? {} : { ExpressionAttributeValues: { ':seq': read.seq } }),
    },
  },
  onConditionFailure: () => new ClaimLostError(),
});

/** A record's withdrawal fields after a withdrawal, as withdrawal-apply.ts computes them. */
export interface WithdrawnState {
  withdrawnPurposes: string[];
  isWithdrawn: boolean;
  isPartiallyWithdrawn: boolean;
  withdrawnAt: string | null;
}

/** One record's withdrawal fields and status index entries, moved on from the version that was read. */
export const recordWithdrawalUpdate = (record: ConsentRecord, next: WithdrawnState, withdrawalId: string): TransactItem => {
  const status = next.isWithdrawn ? 'withdrawn' : next.isPartiallyWithdrawn ? 'partial' : 'active';
  const statusKeys = consentKeys.status(record.tenantId, status, record.createdAt, record.recordId);
  const withdrawnKeys = next.withdrawnAt ? consentKeys.withdrawn(record.tenantId, next.withdrawnAt, record.recordId) : undefined;
  return {
    Update: {
      TableName: tableName(),
      Key: recordKeyOf(record),
      UpdateExpression: [
        'SET withdrawnPurposes = :purposes, isWithdrawn = :full, isPartiallyWithdrawn = :partial, withdrawnAt = :at,',
        'GSI2PK = :statusPk, GSI2SK = :statusSk, lastWithdrawalId = :withdrawal, withdrawalVersion = if_not_exists(withdrawalVersion, :zero) + :one',
        withdrawnKeys ? ', GSI4PK = :withdrawnPk, GSI4SK = :withdrawnSk' : '',
      ].join(' '),
      // Evidence never changes; only these fields do, and only from the state that was read (a
      // record never withdrawn from has no withdrawal fields at all).
      ConditionExpression: record.withdrawalVersion === 0 ? 'attribute_not_exists(withdrawalVersion) OR withdrawalVersion = :version' : 'withdrawalVersion = :version',
      ExpressionAttributeValues: {
        ':purposes': next.withdrawnPurposes,
        ':full': next.isWithdrawn,
        ':partial': next.isPartiallyWithdrawn,
        ':at': next.withdrawnAt,
        ':statusPk': statusKeys.GSI2PK,
        ':statusSk': statusKeys.GSI2SK,
        ':withdrawal': withdrawalId,
        ':one': 1,
        ':zero': 0,
        ':version': record.withdrawalVersion,
        ...(withdrawnKeys ? { ':withdrawnPk': withdrawnKeys.GSI4PK, ':withdrawnSk': withdrawnKeys.GSI4SK } : {}),
      },
    },
  };
};

/** IN_PROGRESS → COMPLETE, leaving the pending index. */
export const withdrawalCompleteUpdate = (tenantId: string, withdrawalId: string): UpdateCommandInput => ({
  TableName: tableName(),
  Key: consentKeys.withdrawal(tenantId, withdrawalId),
  UpdateExpression: 'SET #state = :complete REMOVE GSI1PK, GSI1SK',
  ConditionExpression: '#state = :inProgress',
  ExpressionAttributeNames: { '#state': 'state' },
  ExpressionAttributeValues: { ':complete': 'COMPLETE', ':inProgress': 'IN_PROGRESS' },
});

/** False when another run completed it first (the records are applied either way). */
export const markWithdrawalComplete = (tenantId: string, withdrawalId: string): Promise<boolean> =>
  writtenUnlessRaced(() => db().send(new UpdateCommand(withdrawalCompleteUpdate(tenantId, withdrawalId))));

/**
 * A principal's withdrawal items, oldest first: those listed under the principal (GSI2), plus
 * those named in `alsoIds` that are not (withdrawals written before that index existed, found
 * through their records' lastWithdrawalId).
 */
export const principalWithdrawalItems = async (tenantId: string, principalHash: string, alsoIds: readonly string[]): Promise<Record<string, unknown>[]> => {
  const listed = await queryAll({
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': consentKeys.principalWithdrawalsPartition(tenantId, principalHash) },
  });
  const seen = new Set(listed.map((item) => String(item.withdrawalId)));
  const unlisted = [...new Set(alsoIds)].filter((id) => !seen.has(id));
  const older = await batchGetAll(unlisted.map((id) => consentKeys.withdrawal(tenantId, id)));
  const timeOf = (item: Record<string, unknown>) => `${String(item.withdrawnAt)}#${String(item.withdrawalId)}`;
  return [...listed, ...older].sort((a, b) => timeOf(a).localeCompare(timeOf(b)));
};

export const getWithdrawalItem = async (tenantId: string, withdrawalId: string): Promise<Record<string, unknown> | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: consentKeys.withdrawal(tenantId, withdrawalId), ConsistentRead: true }));
  return Item;
};

/**
 * Withdrawals committed but not yet applied to all their records (a sparse GSI1 partition: only
 * IN_PROGRESS withdrawals carry the keys), one tenant's or everyone's, oldest first. Normally
 * empty: a withdrawal leaves it within its own request.
 */
export const queryPendingWithdrawals = (tenantId?: string): Promise<Record<string, unknown>[]> =>
  queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: tenantId ? 'GSI1PK = :pk AND begins_with(GSI1SK, :tenant)' : 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': consentKeys.withdrawalPendingPartition, ...(tenantId ? { ':tenant': `${tenantId}#` } : {}) },
  });
