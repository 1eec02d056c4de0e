import { describe, expect, it } from 'vitest';
import { errorCodesOf } from '../shared/http/openapi';
import { routeList } from '../shared/http/routes';

/** The spec's Errors table, copied from ../shared/spec/interface.md: a spec route answers only these. */
const specCodes = new Set([
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'TOKEN_INVALID',
  'FORBIDDEN',
  'PLAN_LIMIT_REACHED',
  'FEATURE_NOT_AVAILABLE',
  'PLAN_REQUIRED',
  'ORIGIN_NOT_ALLOWED',
  'ORIGIN_MISSING',
  'NOT_FOUND',
  'CMP_NOT_CONFIGURED',
  'CONFLICT',
  'ASSET_LINKED_TO_PUBLISHED_NOTICE',
  'PROCESSOR_HAS_LINKED_ASSETS',
  'SCAN_ALREADY_RUNNING',
  'CHILD_DIRECTED_VIOLATION',
  'NO_SCAN_URLS',
  'RATE_LIMIT',
  'SDK_RATE_LIMIT',
  'MONTHLY_LIMIT_REACHED',
  'CMP_RATE_LIMIT',
  'SCAN_RATE_LIMIT',
  'INTERNAL_ERROR',
]);

/** Every endpoint the spec names (its endpoint tables and "Which endpoints use which method"); the rest are extensions. */
const specRoutes = [
  'POST /api/v1/auth/login',
  'POST /api/v1/auth/refresh',
  'GET /api/v1/consent/analytics',
  'GET /api/v1/consent/records',
  'GET /api/v1/consent/status/:hash',
  'GET /api/v1/consent/by-external-id/:externalId',
  'POST /api/v1/consent/record',
  'POST /api/v1/consent/withdraw',
  'POST /api/v1/consent/withdrawal-token',
  'GET /api/v1/consent/portal/:token',
  'POST /api/v1/consent/portal/:token/withdraw',
  'GET /api/v1/consent/public-notice',
  'POST /api/v1/consent/sdk-record',
  'POST /api/v1/consent/withdraw-public',
  'GET /api/v1/notices',
  'POST /api/v1/notices',
  'GET /api/v1/notices/active',
  'GET /api/v1/notices/:id',
  'PUT /api/v1/notices/:id',
  'POST /api/v1/notices/:id/publish',
  'POST /api/v1/notices/:id/archive',
  'GET /api/v1/notices/:id/versions',
  'GET /api/v1/notices/:id/versions/diff',
  'GET /api/v1/notices/:id/preview',
  'POST /api/v1/notices/:id/translations',
  'GET /api/v1/notices/:id/translations',
  'PUT /api/v1/notices/:id/translations/:lang',
  'DELETE /api/v1/notices/:id/translations/:lang',
  'POST /api/v1/notices/:id/auto-translate',
  'PATCH /api/v1/notices/:id/withdrawal-url',
  'GET /api/v1/webhooks',
  'POST /api/v1/webhooks',
  'PUT /api/v1/webhooks/:id',
  'DELETE /api/v1/webhooks/:id',
  'GET /api/v1/webhooks/:id/deliveries',
  'POST /api/v1/webhooks/:id/test',
  'GET /api/v1/cmp/config/:tenantId',
  'POST /api/v1/cmp/web-event',
  'PUT /api/v1/cmp/config',
  'GET /api/v1/cmp/trackers',
  'PUT /api/v1/cmp/trackers',
  'GET /api/v1/cmp/analytics',
  'GET /api/v1/cmp/consent-status',
  'POST /api/v1/cmp/server-event-log',
  'POST /api/v1/cmp/scan-now',
  'GET /api/v1/cmp/scan-runs',
  'GET /api/v1/cmp/translations',
  'POST /api/v1/cmp/translations/draft',
  'POST /api/v1/cmp/translations/draft-all',
  'PUT /api/v1/cmp/translations/:language',
  'GET /api/v1/api-keys/:keyId/domains',
  'POST /api/v1/api-keys/:keyId/domains',
  'DELETE /api/v1/api-keys/:keyId/domains/:domainId',
];

describe('error codes on spec routes', () => {
  it('serves every spec endpoint from the route table', () => {
    const served = new Set(routeList.map((route) => `${route.method} ${route.path}`));
    expect(specRoutes.filter((route) => !served.has(route))).toEqual([]);
  });

  it('declares, on every spec route, only codes of the spec\'s Errors table (reasons go in error.details)', () => {
    const outside = routeList
      .filter((route) => specRoutes.includes(`${route.method} ${route.path}`))
      .flatMap((route) => errorCodesOf(route).filter((code) => !specCodes.has(code)).map((code) => `${route.method} ${route.path}: ${code}`));
    expect(outside).toEqual([]);
  });
});
