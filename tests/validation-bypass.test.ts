import { describe, expect, it } from 'vitest';
import { newTenant, useApi } from './support/api';
import { createPurpose } from './support/notices';

const { call } = useApi();

/** Keys that name Object.prototype members: a plain message map already "has" them. */
const prototypeKeys = ['toString', 'constructor', '__proto__', 'valueOf', 'hasOwnProperty'];

/** JSON text with `key` as an own property (JSON.stringify cannot write an own __proto__). */
const withKey = (body: Record<string, unknown>, key: string, value: unknown = 1): string =>
  `${JSON.stringify(body).slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value)}}`;

const purpose = { name: 'p1', description: 'A purpose description', dataCategories: ['email'] };

describe('prototype-named keys', () => {
  it.each(prototypeKeys)('refuses a top-level %s key with 400 naming it, and stores nothing', async (key) => {
    const tenant = await newTenant(call);
    const response = await call('POST', '/api/v1/purposes', { token: tenant.token, rawBody: withKey(purpose, key) });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(response.body.error.fields)).toContain(key);
    const list = await call('GET', '/api/v1/purposes', { token: tenant.token });
    expect(list.body.data).toEqual([]);
  });

  it('refuses a prototype-named key nested in a body or as a map key', async () => {
    const tenant = await newTenant(call);
    const id = await createPurpose(call, tenant.token);
    const nested = await call('POST', '/api/v1/notices', {
      token: tenant.token,
      rawBody: JSON.stringify({ title: 'A notice', purposeIds: [id], purposeConfig: [{ purposeId: id, isRequired: false, displayOrder: 0 }] }).replace(
        '"displayOrder":0',
        '"displayOrder":0,"constructor":{"x":1}',
      ),
    });
    expect(nested.status).toBe(400);
    expect(Object.keys(nested.body.error.fields)).toContain('purposeConfig.0.constructor');
    const key = await tenant.apiKey();
    const inMap = await call('POST', '/api/v1/consent/sdk-record', {
      headers: { origin: 'http://localhost' },
      rawBody: JSON.stringify({ apiKey: key, status: 'ACCEPTED', purposes: { [id]: true } }).replace(`"${id}":true`, `"${id}":true,"__proto__":{"polluted":true}`),
    });
    expect(inMap.status).toBe(400);
    expect(Object.keys(inMap.body.error.fields)).toContain('purposes.__proto__');
  });

  it.each([
    ['/api/v1/auth/login', { email: 'a@b.example', password: 'x' }],
    ['/api/v1/auth/refresh', { refreshToken: 'x' }],
    ['/api/v1/consent/portal/abc/withdraw', { withdrawAll: true }],
  ])('answers a public route %s with 400, not 500', async (path, body) => {
    for (const key of prototypeKeys) {
      const response = await call('POST', path, { rawBody: withKey(body, key) });
      expect(response.status, `${path} ${key}`).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('answers the API-key routes with 400, not 500', async () => {
    const tenant = await newTenant(call);
    const apiKey = await tenant.apiKey();
    const routes: [string, Record<string, unknown>, Record<string, string>][] = [
      ['/api/v1/consent/sdk-record', { apiKey, status: 'ACCEPTED', purposes: {} }, { origin: 'http://localhost' }],
      ['/api/v1/consent/withdraw-public', { apiKey, email: 'a@b.example' }, { origin: 'http://localhost' }],
      ['/api/v1/cmp/web-event', { tenantId: tenant.tenantId, event: 'COOKIE_CONSENT_GIVEN', categories: {} }, {}],
      ['/api/v1/cmp/server-event-log', { visitorId: tenant.tenantId, trackerName: 't', fired: true, category: 'ANALYTICS' }, { 'x-api-key': apiKey }],
    ];
    for (const [path, body, headers] of routes) {
      const response = await call('POST', path, { rawBody: withKey(body, 'toString'), headers });
      expect(response.status, path).toBe(400);
      expect(response.body.error.fields, path).toHaveProperty('toString');
    }
  });
});

describe('paths that cannot be decoded', () => {
  it.each(['/api/v1/consent/portal/%C0%AF', '/api/v1/notices/%', '/api/v1/notices/%E0%A4'])('answers %s with 400 in the envelope and a request id', async (path) => {
    const tenant = await newTenant(call);
    const response = await call('GET', path, { token: tenant.token });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });
});
