import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../shared/http/route';
import { routeList } from '../shared/http/routes';
import { newTenant, useApi } from './support/api';
import { tenantDigest } from './support/storage';

const { call } = useApi();

beforeAll(() => {
  // Every body route from one tenant's dashboard: above the bearer limit's 100 a minute.
  process.env.RATE_LIMIT_BEARER_PER_MINUTE = '10000';
});
afterAll(() => {
  delete process.env.RATE_LIMIT_BEARER_PER_MINUTE;
});

const takesBody = (route: RouteDefinition) => route.request?.body !== undefined || (route.auth.kind === 'apiKey' && route.auth.in === 'body');
const bodyRoutes = routeList.filter(takesBody);

/** Ids that name nothing; the request must be refused before any of them is looked up. */
const pathOf = (path: string) => path.replace(/:([A-Za-z0-9]+)/g, (_match, name: string) => (['lang', 'language'].includes(name) ? 'HI' : '00000000-0000-4000-8000-000000000000'));

/** `levels` objects and arrays nested in one another, as JSON text. */
const nested = (levels: number) => '{"a":['.repeat(levels / 2) + '1' + ']}'.repeat(levels / 2);

describe('deeply nested JSON', () => {
  it('lists the body routes it checks (the route table changed if this fails)', () => {
    for (const operationId of ['login', 'setPassword', 'logout', 'requestPortalLink', 'recordCmpWebEvent', 'sdkRecord', 'saveCmpConfig']) {
      expect(bodyRoutes.map((route) => route.operationId)).toContain(operationId);
    }
  });

  it('answers every body route of the route table with 400 VALIDATION_ERROR at 5,000 levels, and stores nothing', async () => {
    const tenant = await newTenant(call);
    const apiKey = await tenant.apiKey();
    const before = await tenantDigest(tenant.tenantId);
    const failures: string[] = [];
    for (const route of bodyRoutes) {
      const fields = [
        ...(route.auth.kind === 'apiKey' && route.auth.in === 'body' ? [`"apiKey":${JSON.stringify(apiKey)}`] : []),
        ...(route.path.includes('/cmp/web-event') ? [`"tenantId":"${tenant.tenantId}"`] : []),
        `"deep":${nested(5000)}`,
      ];
      const query = route.auth.kind === 'apiKey' && route.auth.in === 'query' ? `?apiKey=${apiKey}` : '';
      const response = await call(route.method, `${pathOf(route.path)}${query}`, {
        token: route.auth.kind === 'bearer' ? tenant.token : undefined,
        headers: { origin: 'http://localhost', ...(route.auth.kind === 'apiKey' && route.auth.in === 'header' ? { 'x-api-key': apiKey } : {}) },
        rawBody: `{${fields.join(',')}}`,
      });
      if (response.status !== 400 || response.body?.error?.code !== 'VALIDATION_ERROR' || !response.body.error.fields?.deep) {
        failures.push(`${route.method} ${route.path}: ${response.status} ${JSON.stringify(response.body)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await tenantDigest(tenant.tenantId)).toBe(before);
  });
});
