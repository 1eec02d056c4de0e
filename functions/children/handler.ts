import { approve, refuse } from '../../shared/children/decisions';
import { guardianView } from '../../shared/children/guardian';
import { readChildrenSettings, saveChildrenSettings } from '../../shared/children/policy';
import { fourthSchedule, listRequests, requestEvidence, resendRequest } from '../../shared/children/service';
import { createGroupHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/operation';
import { childrenRoutes } from '../../shared/http/routes/children';

export const handler = createGroupHandler('children', childrenRoutes, {
  getChildrenSettings: async ({ caller }) => ok(await readChildrenSettings(caller.tenantId)),
  saveChildrenSettings: async ({ caller, body }) => ok(await saveChildrenSettings(caller.tenantId, body, caller.userId)),
  getFourthSchedule: async () => ok(fourthSchedule()),
  listGuardianRequests: async ({ caller, query }) => ok(await listRequests(caller.tenantId, query)),
  getGuardianRequest: async ({ caller, params }) => ok(await requestEvidence(caller.tenantId, params.requestId)),
  resendGuardianRequest: async ({ caller, params }) => ok(await resendRequest(caller.tenantId, params.requestId)),
  getGuardianPage: async ({ params }) => ok(await guardianView(params.token)),
  approveGuardianRequest: async ({ params, body }) => ok(await approve(params.token, body)),
  refuseGuardianRequest: async ({ params, body }) => ok(await refuse(params.token, body)),
});
