import { clock } from '../clock';
import type { WithdrawalAttribution } from './attribution-levels';
import { markTaskDone, queryTasks } from './task-store';
import type { WithdrawalMethod } from './withdrawal-apply';

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
  withdrawalMethod: (item.withdrawalMethod as WithdrawalMethod | undefined) ?? null,
  withdrawalAttribution: (item.attribution as WithdrawalAttribution | undefined) ?? null,
});

/**
 * Tasks by state from the task-state index, by due date. OVERDUE is not stored: it is an OPEN
 * task whose due date has passed, read as a key range (due date before now) of the OPEN partition.
 */
export const listComplianceTasks = async (tenantId: string, filter: TaskFilter | undefined) => {
  const now = clock.now().toISOString();
  const items =
    filter === 'OVERDUE'
      ? await queryTasks(tenantId, 'OPEN', { before: now })
      : filter === 'OPEN'
        ? await queryTasks(tenantId, 'OPEN', { from: now })
        : filter === 'DONE'
          ? await queryTasks(tenantId, 'DONE')
          : [...(await queryTasks(tenantId, 'OPEN')), ...(await queryTasks(tenantId, 'DONE'))];
  return items.map((item) => taskView(item, now));
};

export const completeComplianceTask = async (tenantId: string, taskId: string, actorUserId: string) => {
  const now = clock.now().toISOString();
  return taskView(await markTaskDone(tenantId, taskId, now, actorUserId), now);
};
