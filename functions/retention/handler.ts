import { createGroupHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/operation';
import { retentionRoutes } from '../../shared/http/routes/retention';
import { readRetentionSettings, saveRetentionSettings } from '../../shared/retention/settings';
import { thirdSchedule } from '../../shared/retention/third-schedule';

export const handler = createGroupHandler('retention', retentionRoutes, {
  getRetentionSettings: async ({ caller }) => ok(await readRetentionSettings(caller.tenantId)),
  saveRetentionSettings: async ({ caller, body }) => ok(await saveRetentionSettings(caller.tenantId, body, caller.userId)),
  getThirdSchedule: async () => ok(thirdSchedule()),
});
