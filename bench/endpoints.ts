import { randomUUID } from 'node:crypto';
import { principalHash } from '../shared/consent/principal';
import type { HttpMethod } from '../shared/http/route';
import { saveCookieConfig, type BenchTenant } from './fixtures';
import { expectData, findRoute, handlerOf, invoke, isSuccess, type Call, type Route } from './invoke';

/** The endpoints measured for throughput and work, each compared with the raw operation it comes down to. */
export interface Endpoint {
  name: string;
  method: HttpMethod;
  path: string;
  /** The raw operation it is compared with: PutItem for writes, GetItem for reads. */
  kind: 'write' | 'read';
  /** Undefined while the route (or its group's handler) is not built. */
  route: Route | undefined;
  call: () => Call;
}

/** Route and handler both present. */
const built = async (method: HttpMethod, path: string): Promise<Route | undefined> => {
  const route = findRoute(method, path);
  if (!route) return undefined;
  return handlerOf(route.group).then(
    () => route,
    () => undefined,
  );
};

/** One request: undefined when it answered 2xx, else what it answered. */
export const send = async (route: Route, call: Call): Promise<string | undefined> => {
  const answer = await invoke(route, call);
  return isSuccess(answer) ? undefined : `${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
};

/**
 * Builds the endpoint list for `tenant`, after giving it what the reads need: a principal with
 * records for status/:hash, a cookie-consent config and one visitor's cookie consent for the cmp routes.
 */
export const prepareEndpoints = async (tenant: BenchTenant): Promise<Endpoint[]> => {
  const [sdkRecord, publicNotice, status, cmpStatus, webEvent] = await Promise.all([
    built('POST', '/api/v1/consent/sdk-record'),
    built('GET', '/api/v1/consent/public-notice'),
    built('GET', '/api/v1/consent/status/:hash'),
    built('GET', '/api/v1/cmp/consent-status'),
    built('POST', '/api/v1/cmp/web-event'),
  ]);
  const [required, optional] = tenant.purposeIds as [string, string];
  const sdkBody = () => ({ apiKey: tenant.apiKey, status: 'ACCEPTED', purposes: { [required]: true, [optional]: true } });

  // A known principal with a few records, as a tenant's backend would look up.
  const knownIdentifier = 'returning-visitor@bench.example';
  if (sdkRecord) {
    // As the tenant's server sends it: a raw identifier needs a secret key.
    for (let index = 0; index < 3; index += 1) await expectData(sdkRecord, { body: { ...sdkBody(), apiKey: tenant.serverKey, identifier: knownIdentifier } });
  }

  const categories = { NECESSARY: true, ANALYTICS: true };
  let visitorId: string = randomUUID();
  if (webEvent) {
    if (!(await saveCookieConfig(tenant))) throw new Error('cmp web-event is built but PUT /api/v1/cmp/config is not');
    const recorded = await expectData<{ consentRecordId: string }>(webEvent, {
      body: { tenantId: tenant.tenantId, consentRecordId: visitorId, event: 'COOKIE_CONSENT_GIVEN', categories },
    });
    visitorId = recorded.consentRecordId;
  }

  return [
    {
      name: 'sdk-record',
      method: 'POST',
      path: '/api/v1/consent/sdk-record',
      kind: 'write',
      route: sdkRecord,
      // No identifier: the widget's case, attributed to the (per-call) client address.
      call: () => ({ body: sdkBody() }),
    },
    {
      name: 'public-notice',
      method: 'GET',
      path: '/api/v1/consent/public-notice',
      kind: 'read',
      route: publicNotice,
      call: () => ({ query: { apiKey: tenant.apiKey } }),
    },
    {
      name: 'consent status/:hash',
      method: 'GET',
      path: '/api/v1/consent/status/:hash',
      kind: 'read',
      route: status,
      call: () => ({ params: { hash: principalHash(knownIdentifier) }, bearer: tenant.token }),
    },
    {
      name: 'cmp consent-status',
      method: 'GET',
      path: '/api/v1/cmp/consent-status',
      kind: 'read',
      route: cmpStatus,
      call: () => ({ query: { visitorId }, headers: { 'x-api-key': tenant.apiKey } }),
    },
    {
      name: 'cmp web-event',
      method: 'POST',
      path: '/api/v1/cmp/web-event',
      kind: 'write',
      route: webEvent,
      // A new visitor each time; the per-(tenant, IP) limit is raised and the address differs per call anyway.
      call: () => ({ body: { tenantId: tenant.tenantId, consentRecordId: randomUUID(), event: 'COOKIE_CONSENT_GIVEN', categories } }),
    },
  ];
};
