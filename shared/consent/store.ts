import { GetCommand, PutCommand, QueryCommand, type PutCommandInput, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client';
import { isConditionFailure } from '../db/errors';
import { queryAll } from '../db/query';
import type { NamedItem } from '../db/transact';
import { ConflictError } from '../errors';
import { consentKeys } from './keys';
import type { ConsentRecord } from './record';
import { recordItem, recordOf } from './record-item';

/** The new record, once: a retry with the same id (or an id collision) cannot overwrite evidence. */
export const recordPut = (record: ConsentRecord): PutCommandInput => ({
  TableName: tableName(),
  Item: recordItem(record),
  ConditionExpression: 'attribute_not_exists(PK)',
});

export const putRecord = async (record: ConsentRecord): Promise<void> => {
  try {
    await db().send(new PutCommand(recordPut(record)));
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError(`Consent record ${record.recordId} already exists`);
    throw error;
  }
};

export const getRecord = async (tenantId: string, recordId: string, consistent = false): Promise<ConsentRecord | undefined> => {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: consentKeys.record(tenantId, recordId), ConsistentRead: consistent }),
  );
  return Item ? recordOf(Item) : undefined;
};

export interface Page {
  records: ConsentRecord[];
  lastKey: Record<string, unknown> | undefined;
}

/** One page of an index or base-table range of records. */
export const queryRecords = async (input: Omit<QueryCommandInput, 'TableName'>): Promise<Page> => {
  const { Items = [], LastEvaluatedKey } = await db().send(new QueryCommand({ ...input, TableName: tableName() }));
  return { records: Items.map(recordOf), lastKey: LastEvaluatedKey };
};

/** Every record of one principal (a small set: one per notice they were shown), newest first. */
export const principalRecords = async (tenantId: string, principalHash: string, limit?: number): Promise<ConsentRecord[]> => {
  const records: ConsentRecord[] = [];
  let lastKey: Record<string, unknown> | undefined;
  do {
    const page = await queryRecords({
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': consentKeys.principalPartition(tenantId, principalHash) },
      ScanIndexForward: false,
      ...(limit ? { Limit: limit } : {}),
      ExclusiveStartKey: lastKey,
    });
    records.push(...page.records);
    lastKey = limit && records.length >= limit ? undefined : page.lastKey;
  } while (lastKey);
  return records;
};

export interface ConsentStats {
  total: number;
  active: number;
  partial: number;
  withdrawn: number;
  counters: Record<string, number>;
  /**
   * New records are counted when the log sequences them (shared/evidence/sequencer.ts), seconds
   * after they were written: the time of the last count, so a reader knows how current they are.
   */
  asOf: string | null;
}

export const readStats = async (tenantId: string): Promise<ConsentStats> => {
  const { Item = {} } = await db().send(new GetCommand({ TableName: tableName(), Key: consentKeys.stats(tenantId) }));
  const counters = Object.fromEntries(Object.entries(Item).filter(([, value]) => typeof value === 'number')) as Record<string, number>;
  return { total: counters.total ?? 0, active: counters.active ?? 0, partial: counters.partial ?? 0, withdrawn: counters.withdrawn ?? 0, counters, asOf: typeof Item.asOf === 'string' ? Item.asOf : null };
};

/** Counter attribute names on the stats item. */
export const counterNames = {
  noticeConsents: (noticeId: string) => `nc_${noticeId}`,
  purposeGiven: (purposeId: string) => `pg_${purposeId}`,
  purposeWithdrawn: (purposeId: string) => `pw_${purposeId}`,
};

export const consentCountOf = (stats: ConsentStats, noticeId: string): number => stats.counters[counterNames.noticeConsents(noticeId)] ?? 0;

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

/** A fresh id's condition fails only if a concurrent change got there first: worth a retry. */
const changedWhileWithdrawing = () => new ConflictError('The consent changed while it was being withdrawn; retry');

/** The WithdrawalRecord, in the sparse pending index until every record carries it (withdrawal-apply.ts). */
export const withdrawalPut = (withdrawal: { tenantId: string; withdrawalId: string; withdrawnAt: string } & Record<string, unknown>): NamedItem => ({
  name: 'withdrawal',
  item: {
    Put: {
      TableName: tableName(),
      Item: {
        ...consentKeys.withdrawal(withdrawal.tenantId, withdrawal.withdrawalId),
        ...consentKeys.withdrawalPending(withdrawal.tenantId, withdrawal.withdrawnAt, withdrawal.withdrawalId),
        type: 'WithdrawalRecord',
        ...withdrawal,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  },
  onConditionFailure: changedWhileWithdrawing,
});

/** The DPO's compliance task for a withdrawal, OPEN in the task-state index. */
export const taskPut = (task: { tenantId: string; taskId: string; withdrawalId: string; dueAt: string; createdAt: string; description: string }): NamedItem => ({
  name: 'compliance task',
  item: {
    Put: {
      TableName: tableName(),
      Item: { ...consentKeys.task(task.tenantId, task.taskId), ...consentKeys.taskState(task.tenantId, 'OPEN', task.dueAt, task.taskId), type: 'ComplianceTask', ...task, state: 'OPEN' },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  },
  onConditionFailure: changedWhileWithdrawing,
});
