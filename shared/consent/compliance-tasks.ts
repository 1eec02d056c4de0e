import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock';
import { db, tableName } from '../db/client';
import { isConditionFailure } from '../db/errors';
import { queryAll } from '../db/query';
import { ConflictError, NotFoundError } from '../errors';
import { consentKeys } from './keys';

export type TaskFilter = 'OPEN' | 'DONE' | 'OVERDUE';

const taskView = (item: Record<string, unknown>, now: string) => ({
  taskId: String(item.taskId),
  withdrawalId: String(item.withdrawalId),
  status: item.state === 'DONE' ? 'DONE' : String(item.dueAt) < now ? 'OVERDUE' : 'OPEN',
  dueAt: String(item.dueAt),
  createdAt: String(item.createdAt),
  completedAt: (item.completedAt as string | undefined) ?? null,
  completedBy: (item.completedBy as string | undefined) ?? null,
  description: String(item.description),
});

/**
 * Tasks by state from the task-state index, by due date. OVERDUE is not stored: it is an OPEN
 * task whose due date has passed, read as a key range (due date before now) of the OPEN partition.
 */
export const listComplianceTasks = async (tenantId: string, filter: TaskFilter | undefined) => {
  const now = clock.now().toISOString();
  const range = (state: 'OPEN' | 'DONE', condition = '', values: Record<string, unknown> = {}) =>
    queryAll({
      IndexName: 'GSI2',
      KeyConditionExpression: `GSI2PK = :pk${condition}`,
      ExpressionAttributeValues: { ':pk': consentKeys.taskStatePartition(tenantId, state), ...values },
    });
  const items =
    filter === 'OVERDUE'
      ? await range('OPEN', ' AND GSI2SK < :now', { ':now': now })
      : filter === 'OPEN'
        ? await range('OPEN', ' AND GSI2SK >= :now', { ':now': now })
        : filter === 'DONE'
          ? await range('DONE')
          : [...(await range('OPEN')), ...(await range('DONE'))];
  return items.map((item) => taskView(item, now));
};

export const completeComplianceTask = async (tenantId: string, taskId: string, actorUserId: string) => {
  const now = clock.now().toISOString();
  try {
    const { Attributes = {} } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: consentKeys.task(tenantId, taskId),
        UpdateExpression: 'SET #state = :done, completedAt = :now, completedBy = :actor, GSI2PK = :pk',
        ConditionExpression: 'attribute_exists(PK) AND #state = :open',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':done': 'DONE', ':open': 'OPEN', ':now': now, ':actor': actorUserId, ':pk': consentKeys.taskStatePartition(tenantId, 'DONE') },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return taskView(Attributes, now);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const exists = (await queryAll({ KeyConditionExpression: 'PK = :pk AND SK = :sk', ExpressionAttributeValues: { ':pk': consentKeys.task(tenantId, taskId).PK, ':sk': consentKeys.task(tenantId, taskId).SK } })).length > 0;
    throw exists ? new ConflictError('The task is already done', error) : new NotFoundError('Compliance task', error);
  }
};
