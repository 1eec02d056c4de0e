import { clock } from '../clock';
import { sha256Hex } from '../crypto/hash';
import type { DataAsset } from '../data-map/data-map';
import { tryTransaction } from '../db/transact';
import { ConflictError, NotFoundError } from '../errors';
import { documentPut } from '../evidence/documents';
import { assetsOfPurposes } from '../rights/summary';
import { retentionDocumentTypes } from './documents';
import { firstTasks, getTask, taskCounts, taskCountsUpdate, taskReplace, type ErasureTask } from './store';
import type { TaskState } from './sweep-keys';

/**
 * Erasure tasks: what a run's lapse asks the tenant's team to do. Each run of the sweep (the
 * principals of one tenant whose purposes lapsed together) gets one task listing the data map's
 * assets that hold those purposes' data, as the rights erasure checklist does (rights/summary.ts
 * assetsOfPurposes); the team resolves each asset once it has erased the run's principals there.
 * A task whose run touches no mapped asset is RESOLVED when made (nothing to work through).
 */
export const newErasureTask = (input: { tenantId: string; runId: string; at: string; purposeIds: string[]; principalCount: number; assets: readonly DataAsset[] }): ErasureTask => {
  const assets = assetsOfPurposes(input.assets, new Set(input.purposeIds)).map((asset) => ({ assetId: asset.assetId, name: asset.name, ...(asset.system ? { system: asset.system } : {}), resolved: false }));
  return {
    tenantId: input.tenantId,
    id: input.runId,
    runId: input.runId,
    createdAt: input.at,
    purposeIds: input.purposeIds,
    principalCount: input.principalCount,
    assets,
    state: assets.length > 0 ? 'OPEN' : 'RESOLVED',
    ...(assets.length > 0 ? {} : { resolvedAt: input.at }),
    version: 0,
  };
};

const view = (task: ErasureTask) => ({
  id: task.id,
  runId: task.runId,
  createdAt: task.createdAt,
  purposeIds: task.purposeIds,
  principalCount: task.principalCount,
  assets: task.assets,
  state: task.state,
  ...(task.resolvedAt ? { resolvedAt: task.resolvedAt } : {}),
});

/** A page of one state's tasks, newest first; `total` from the counters kept with every change. */
export const listErasureTasks = async (tenantId: string, query: { state: TaskState; page: number; limit: number }) => {
  const [tasks, counts] = await Promise.all([firstTasks(tenantId, query.state, query.page * query.limit), taskCounts(tenantId)]);
  return { items: tasks.slice((query.page - 1) * query.limit).map(view), total: counts[query.state], page: query.page, limit: query.limit };
};

const requireTask = async (tenantId: string, taskId: string) => {
  const task = await getTask(tenantId, taskId);
  if (!task) throw new NotFoundError('Erasure task');
  return task;
};

export const readErasureTask = async (tenantId: string, taskId: string) => view(await requireTask(tenantId, taskId));

const resolveAttempts = 5;

/**
 * One asset of a task resolved (its data of the run's principals erased), logged in the evidence
 * log with the task's version (who, when, the note's hash); once every asset is, the task is
 * RESOLVED. Idempotent: an asset already resolved answers the task as it is and logs nothing. Two
 * resolves at once both land: each is written over the version it read, and applied again to the
 * new one when another landed first.
 */
export const resolveErasureAsset = async (tenantId: string, userId: string, taskId: string, assetId: string, note: string | undefined) => {
  for (let attempt = 1; ; attempt += 1) {
    const task = await requireTask(tenantId, taskId);
    const asset = task.assets.find((candidate) => candidate.assetId === assetId);
    if (!asset) throw new NotFoundError('Asset of this erasure task');
    if (asset.resolved) return view(task);
    const at = clock.now().toISOString();
    const by = `user:${userId}`;
    const assets = task.assets.map((candidate) => (candidate.assetId === assetId ? { ...candidate, resolved: true, resolvedAt: at, resolvedBy: by, ...(note ? { note } : {}) } : candidate));
    const done = assets.every((candidate) => candidate.resolved);
    const next: ErasureTask = { ...task, assets, version: task.version + 1, ...(done ? { state: 'RESOLVED', resolvedAt: at } : {}) };
    const outcome = await tryTransaction([
      taskReplace(next, task.version),
      documentPut({ tenantId, documentType: retentionDocumentTypes.assetResolved, subjectId: `retention-task:${taskId}`, at, content: { taskId, runId: task.runId, assetId, resolvedBy: by, noteHash: note ? sha256Hex(note) : null, taskResolved: done } }).item,
      ...(done ? [taskCountsUpdate(tenantId, { OPEN: -1, RESOLVED: 1 })] : []),
    ]);
    if (outcome === 'ok') return view(next);
    if (attempt === resolveAttempts) throw new ConflictError('The erasure task kept changing; reload and retry');
  }
};
