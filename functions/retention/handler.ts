import { ForbiddenError } from '../../shared/errors';
import { createGroupHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/operation';
import { retentionRoutes } from '../../shared/http/routes/retention';
import { recordActivities } from '../../shared/retention/activity';
import { readRetentionSettings, saveRetentionSettings } from '../../shared/retention/settings';
import { listErasureTasks, readErasureTask, resolveErasureAsset } from '../../shared/retention/erasures';
import { listUpcoming, retentionSummary } from '../../shared/retention/upcoming';
import { thirdSchedule } from '../../shared/retention/third-schedule';

export const handler = createGroupHandler('retention', retentionRoutes, {
  getRetentionSettings: async ({ caller }) => ok(await readRetentionSettings(caller.tenantId)),
  saveRetentionSettings: async ({ caller, body }) => ok(await saveRetentionSettings(caller.tenantId, body, caller.userId)),
  getThirdSchedule: async () => ok(thirdSchedule()),
  recordActivity: async ({ caller, body }) => {
    if (caller.kind !== 'secret') throw new ForbiddenError('Activity is reported server to server, with a secret key');
    return ok(await recordActivities(caller.tenantId, body.activities));
  },
  listRetentionUpcoming: async ({ caller, query }) => ok(await listUpcoming(caller.tenantId, query)),
  getRetentionSummary: async ({ caller, query }) => ok(await retentionSummary(caller.tenantId, query)),
  listRetentionErasures: async ({ caller, query }) => ok(await listErasureTasks(caller.tenantId, query)),
  getRetentionErasure: async ({ caller, params }) => ok(await readErasureTask(caller.tenantId, params.id)),
  resolveRetentionErasureAsset: async ({ caller, params, body }) => ok(await resolveErasureAsset(caller.tenantId, caller.userId, params.id, params.assetId, body.note)),
});
