import { tenantPartition } from '../tenants/keys';

/**
 * Keys of what the retention sweep writes besides a principal's schedule (keys.ts holds that and
 * the due index). Every list below is a Query of a tenant's own key range, never a Scan.
 *
 * Access patterns:
 * - upcoming erasures by due time . Query PK=RETUP#<tid>#<YYYY-MM> SK BETWEEN <from> AND <to>~ (one
 *   (GET /retention/upcoming)       partition per tenant per month of dueAt, at most 13 for the
 *                                   366 days a listing may span; SK <dueAt>#<identifierHash>).
 *                                   One item per principal per due time: SCHEDULED, NOTICE_SENT,
 *                                   then CANCELLED or EXPIRED, which stay `entryKeptDays` (TTL)
 * - the day counters .............. Query PK=RETDAY#<tid> SK BETWEEN <from day> AND <to day> (one
 *   (GET /retention/summary)        item per tenant per UTC day: due, noticesSent, cancelled,
 *                                   expired; a sweep pass adds once per day it touched, so a large
 *                                   day is a few writes a pass, never a hot key)
 * - erasure task by id ............ GetItem PK=TENANT#<tid> SK=RETERASURE#<taskId>
 * - erasure tasks by state ........ Query GSI1 RETERASURE#<tid>#<OPEN|RESOLVED>, newest first (ids are
 *                                   time-ordered); totals from the counters item RETERASURES
 *                                   (open, resolved), kept in the same transactions
 */
export const sweepKeys = {
  upcomingPartition: (tenantId: string, month: string) => `RETUP#${tenantId}#${month}`,
  upcoming: (tenantId: string, dueAt: string, identifierHash: string) => ({ PK: sweepKeys.upcomingPartition(tenantId, dueAt.slice(0, 7)), SK: `${dueAt}#${identifierHash}` }),
  dayPartition: (tenantId: string) => `RETDAY#${tenantId}`,
  day: (tenantId: string, day: string) => ({ PK: sweepKeys.dayPartition(tenantId), SK: day }),
  task: (tenantId: string, taskId: string) => ({ PK: tenantPartition(tenantId), SK: `RETERASURE#${taskId}` }),
  taskState: (tenantId: string, state: TaskState, taskId: string) => ({ GSI1PK: sweepKeys.taskStatePartition(tenantId, state), GSI1SK: taskId }),
  taskStatePartition: (tenantId: string, state: TaskState) => `RETERASURE#${tenantId}#${state}`,
  taskCounts: (tenantId: string) => ({ PK: tenantPartition(tenantId), SK: 'RETERASURES' }),
};

export const taskStates = ['OPEN', 'RESOLVED'] as const;
export type TaskState = (typeof taskStates)[number];

/** How long a CANCELLED or EXPIRED entry of the upcoming list stays: a year's look-back (rule 8(3)) and a month. */
export const entryKeptDays = 400;
