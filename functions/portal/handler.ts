import { requestPortalLink } from '../../shared/consent/portal-link';
import { portalView, portalVisit, portalWithdraw } from '../../shared/consent/withdrawal-routes';
import { createGroupHandler } from '../../shared/http/handler';
import { portalRoutes } from '../../shared/http/routes/withdrawals';
import { ok } from '../../shared/http/operation';
import { publicWordsRoutes } from '../../shared/http/routes/words';
import { publicPageWords } from '../../shared/words/read';

export const handler = createGroupHandler('portal', { ...portalRoutes, ...publicWordsRoutes }, {
  portalView: async ({ params }) => ok(await portalView(params.token)),
  portalWithdraw: async ({ params, body }) => ok(await portalWithdraw(params.token, body)),
  portalVisit: async ({ params }) => ok(await portalVisit(params.token), 202),
  requestPortalLink: async ({ body }) => ok(await requestPortalLink(body), 202),
  getPublicWords: async ({ params, query }) => ok(await publicPageWords(params.tenantSlug, query.language)),
});
