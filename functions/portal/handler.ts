import { requestPortalLink } from '../../shared/consent/portal-link';
import { portalView, portalWithdraw } from '../../shared/consent/withdrawal-routes';
import { createGroupHandler } from '../../shared/http/handler';
import { withdrawalRoutes } from '../../shared/http/routes/withdrawals';
import { ok } from '../../shared/http/operation';

export const handler = createGroupHandler('portal', withdrawalRoutes, {
  portalView: async ({ params }) => ok(await portalView(params.token)),
  portalWithdraw: async ({ params, body }) => ok(await portalWithdraw(params.token, body)),
  requestPortalLink: async ({ body }) => ok(await requestPortalLink(body), 202),
});
