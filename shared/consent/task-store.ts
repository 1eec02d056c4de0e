import { UpdateCommand, type QueryCommandInput, type UpdateCommandInput } from '../db/commands';
import { db, tableName } from '../db/client';
import { isConditionFailure } from '../db/errors';
import { queryAll } from '../db/query';
import type { NamedItem } from '../db/transact';
import { ConflictError, NotFoundError } from '../errors';
import { consentKeys } from './keys';
import type { WithdrawalMethod } from './withdrawal-apply';
import type { WithdrawalAttribution } from './withdrawal-attribution';
import { changedWhileWithdrawing } from './withdrawal-store';

export interface TaskInput {
  tenantId: string;
  taskId: string;
  withdrawalId: string;
  dueAt: string;
  createdAt: string;
  description: string;
  /** How the withdrawal was made, and for one by email at withdraw-public its attribution: shown with the task. */
  withdrawalMethod: WithdrawalMethod;
  attribution?: WithdrawalAttribution;
}

/** The DPO's compliance task for a withdrawal, OPEN in the task-state index. */
export const taskPut = (task: TaskInput): NamedItem => ({
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

/** Due-date bounds within a state's range of the task-state index (sorted by due date). */
export type DueRange = { before: string } | { from: string } | undefined;

/** A state's tasks by due date; OVERDUE is the OPEN range due before now. */
export const tasksQuery = (tenantId: string, state: 'OPEN' | 'DONE', due?: DueRange): Omit<QueryCommandInput, 'TableName'> => ({
  IndexName: 'GSI2',
  KeyConditionExpression: `GSI2PK = :pk${due ? ('before' in due ? ' AND GSI2SK < :due' : ' AND GSI2SK >= :due') : ''}`,
  ExpressionAttributeValues: { ':pk': consentKeys.taskStatePartition(tenantId, state), ...(due ? { ':due': 'before' in due ? due.before : due.from } : {}) },
});

export const queryTasks = (tenantId: string, state: 'OPEN' | 'DONE', due?: DueRange): Promise<Record<string, unknown>[]> =>
  queryAll(tasksQuery(tenantId, state, due));

/** OPEN → DONE, moving the task to the DONE range of the task-state index. */
export const taskDoneUpdate = (tenantId: string, taskId: string, at: string, actorUserId: string): UpdateCommandInput => ({
  TableName: tableName(),
  Key: consentKeys.task(tenantId, taskId),
  UpdateExpression: 'SET #state = :done, completedAt = :now, completedBy = :actor, GSI2PK = :pk',
  ConditionExpression: 'attribute_exists(PK) AND #state = :open',
  ExpressionAttributeNames: { '#state': 'state' },
  ExpressionAttributeValues: { ':done': 'DONE', ':open': 'OPEN', ':now': at, ':actor': actorUserId, ':pk': consentKeys.taskStatePartition(tenantId, 'DONE') },
  ReturnValues: 'ALL_NEW',
});

/** The task as completed; a task already done is a CONFLICT, a missing one NOT_FOUND. */
export const markTaskDone = async (tenantId: string, taskId: string, at: string, actorUserId: string): Promise<Record<string, unknown>> => {
  try {
    const { Attributes = {} } = await db().send(new UpdateCommand(taskDoneUpdate(tenantId, taskId, at, actorUserId)));
    return Attributes;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const key = consentKeys.task(tenantId, taskId);
    const exists = (await queryAll({ KeyConditionExpression: 'PK = :pk AND SK = :sk', ExpressionAttributeValues: { ':pk': key.PK, ':sk': key.SK } })).length > 0;
    throw exists ? new ConflictError('The task is already done', error) : new NotFoundError('Compliance task', error);
  }
};
