import type { RouteDefinition } from './route';
import { apiKeyRoutes } from './routes/api-keys';
import { authRoutes } from './routes/auth';
import { breachRoutes } from './routes/breaches';
import { childrenRoutes } from './routes/children';
import { cmpRoutes } from './routes/cmp';
import { cmpPublicRoutes } from './routes/cmp-public';
import { consentRoutes, consentStaffRoutes } from './routes/consent';
import { evidenceExportRoutes } from './routes/evidence-exports';
import { evidenceLogRoutes } from './routes/evidence-log';
import { evidenceVerifyRoutes } from './routes/evidence-verify';
import { dataMapRoutes } from './routes/data-map';
import { documentRoutes } from './routes/documents';
import { metaRoutes } from './routes/meta';
import { noticeRoutes } from './routes/notices';
import { purposeRoutes } from './routes/purposes';
import { retentionRoutes } from './routes/retention';
import { rightsRoutes } from './routes/rights';
import { sdkRoutes } from './routes/sdk';
import { userRoutes } from './routes/users';
import { webhookRoutes } from './routes/webhooks';
import { widgetRoutes } from './routes/widget';
import { complianceTaskRoutes, portalRoutes, publicWithdrawalRoutes, withdrawalStaffRoutes } from './routes/withdrawals';
import { publicWordsRoutes, wordsRoutes } from './routes/words';

/**
 * The route table: the one description of the HTTP interface. The CDK stack makes an API Gateway
 * route and picks the Lambda from `group`; the local server dispatches with it; the OpenAPI
 * document is generated from it; each group's handler validates and authorises by it.
 * Keys are operation ids.
 */
export const routes = {
  ...authRoutes,
  ...userRoutes,
  ...apiKeyRoutes,
  ...purposeRoutes,
  ...noticeRoutes,
  ...consentStaffRoutes,
  ...consentRoutes,
  ...evidenceExportRoutes,
  ...evidenceVerifyRoutes,
  ...evidenceLogRoutes,
  ...withdrawalStaffRoutes,
  ...portalRoutes,
  ...publicWithdrawalRoutes,
  ...complianceTaskRoutes,
  ...webhookRoutes,
  ...sdkRoutes,
  ...widgetRoutes,
  ...cmpRoutes,
  ...cmpPublicRoutes,
  ...breachRoutes,
  ...dataMapRoutes,
  ...rightsRoutes,
  ...wordsRoutes,
  ...publicWordsRoutes,
  ...childrenRoutes,
  ...retentionRoutes,
  ...metaRoutes,
  ...documentRoutes,
} as const satisfies Record<string, RouteDefinition>;

export type Routes = typeof routes;
export type OperationId = keyof Routes;

export const routeList = (Object.keys(routes) as OperationId[]).map((operationId) => ({
  operationId,
  ...(routes[operationId] as RouteDefinition),
}));
