import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock, offsetClock, resetClock, setClock } from '../shared/clock';
import { newTenant, useApi, type ApiResponse } from './support/api';
import { failWrites } from './support/storage';

const { call } = useApi();

afterEach(() => resetClock());

const expectError = (response: ApiResponse, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
};

const dayMs = 24 * 60 * 60 * 1000;

/** A standard tenant with a saved cookie-consent config and an API key. */
const configuredTenant = async (config: Record<string, unknown> = {}) => {
  const tenant = await newTenant(call);
  const saved = await call('PUT', '/api/v1/cmp/config', { token: tenant.token, body: config });
  expect(saved.status).toBe(200);
  return { ...tenant, key: await tenant.apiKey() };
};

type Configured = Awaited<ReturnType<typeof configuredTenant>>;

const webEvent = (tenantId: string, fields: Record<string, unknown>, ip?: string) =>
  call('POST', '/api/v1/cmp/web-event', {
    body: { tenantId, event: 'COOKIE_CONSENT_GIVEN', categories: { NECESSARY: true, ANALYTICS: true }, ...fields },
    headers: { 'user-agent': 'Mozilla/5.0 (test)' },
    ...(ip ? { ip } : {}),
  });

const status = (tenant: Configured, visitorId: string) =>
  call('GET', `/api/v1/cmp/consent-status?visitorId=${visitorId}`, { headers: { 'x-api-key': tenant.key } });

const serverEvent = (tenant: Configured, body: Record<string, unknown>) =>
  call('POST', '/api/v1/cmp/server-event-log', { headers: { 'x-api-key': tenant.key }, body });

describe('POST /cmp/web-event', () => {
  it('generates the visitor id on a first visit and keeps the one it is given', async () => {
    const tenant = await configuredTenant();
    const first = await webEvent(tenant.tenantId, {});
    expect(first.status).toBe(201);
    expect(first.body.data.recorded).toBe(true);
    const visitorId = first.body.data.consentRecordId;
    expect(visitorId).toMatch(/^[0-9a-f-]{36}$/);
    const again = await webEvent(tenant.tenantId, { consentRecordId: visitorId, event: 'COOKIE_CONSENT_UPDATED', widgetVersion: '1.2.0' });
    expect(again.status).toBe(201);
    expect(again.body.data.consentRecordId).toBe(visitorId);
  });

  it.each([
    ['no tenantId', { tenantId: undefined }, 'tenantId'],
    ['a malformed tenantId', { tenantId: 'tenant-1' }, 'tenantId'],
    ['a malformed visitor id', { consentRecordId: '42' }, 'consentRecordId'],
    ['an unknown event', { event: 'COOKIE_CONSENT_MAYBE' }, 'event'],
    ['no categories', { categories: undefined }, 'categories'],
    ['a non-boolean category', { categories: { ANALYTICS: 'yes' } }, 'categories.ANALYTICS'],
    ['21 categories', { categories: Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`C${index}`, true])) }, 'categories'],
    ['an unknown field', { proofHash: 'abc' }, 'proofHash'],
  ])('rejects %s', async (_label, fields, field) => {
    const tenant = await configuredTenant();
    const body = { tenantId: tenant.tenantId, event: 'COOKIE_CONSENT_GIVEN', categories: { ANALYTICS: true }, ...fields };
    const response = await call('POST', '/api/v1/cmp/web-event', { body });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(Object.keys(response.body.error.fields)).toContain(field);
  });

  it('accepts 20 categories', async () => {
    const tenant = await configuredTenant();
    const categories = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`C${index}`, index % 2 === 0]));
    expect((await webEvent(tenant.tenantId, { categories })).status).toBe(201);
  });

  it('limits each (tenant, IP) pair to 60 a minute, with Retry-After', async () => {
    setClock(fixedClock('2026-11-22T10:00:05Z'));
    const tenant = await configuredTenant();
    const other = await configuredTenant();
    const ip = '203.0.113.7';
    const statuses = [];
    for (let index = 0; index < 60; index += 1) statuses.push((await webEvent(tenant.tenantId, {}, ip)).status);
    expect(statuses.every((code) => code === 201)).toBe(true);
    const over = await webEvent(tenant.tenantId, {}, ip);
    expectError(over, 429, 'CMP_RATE_LIMIT');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another IP for the same tenant, and the same IP for another tenant, have their own counters.
    expect((await webEvent(tenant.tenantId, {}, '203.0.113.8')).status).toBe(201);
    expect((await webEvent(other.tenantId, {}, ip)).status).toBe(201);
    setClock(fixedClock('2026-11-22T10:01:05Z'));
    expect((await webEvent(tenant.tenantId, {}, ip)).status).toBe(201);
  });

  it('answers a failed write with a 500 and leaves the visitor unknown', async () => {
    const tenant = await configuredTenant();
    const visitorId = randomUUID();
    const storage = failWrites({ except: (command) => command === 'UpdateItem' });
    try {
      expectError(await webEvent(tenant.tenantId, { consentRecordId: visitorId }), 500, 'INTERNAL_ERROR');
    } finally {
      storage.restore();
    }
    expect((await status(tenant, visitorId)).body.data.found).toBe(false);
  });
});

describe('GET /cmp/consent-status', () => {
  const allOff = { NECESSARY: true, FUNCTIONAL: false, ANALYTICS: false, MARKETING: false, UNCLASSIFIED: false };

  it('answers unknown, accepted, updated and withdrawn visitors', async () => {
    const tenant = await configuredTenant();
    const visitorId = randomUUID();
    const unknown = await status(tenant, visitorId);
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toEqual({ visitorId, found: false, categories: allOff, lastUpdated: null, withdrawn: false });

    await webEvent(tenant.tenantId, { consentRecordId: visitorId, categories: { NECESSARY: false, FUNCTIONAL: true, ANALYTICS: true, MARKETING: true, UNCLASSIFIED: true } });
    const accepted = (await status(tenant, visitorId)).body.data;
    expect(accepted).toMatchObject({ found: true, withdrawn: false, categories: { NECESSARY: true, FUNCTIONAL: true, ANALYTICS: true, MARKETING: true, UNCLASSIFIED: true } });
    expect(Date.parse(accepted.lastUpdated)).not.toBeNaN();

    await webEvent(tenant.tenantId, { consentRecordId: visitorId, event: 'COOKIE_CONSENT_UPDATED', categories: { FUNCTIONAL: true, MARKETING: false } });
    expect((await status(tenant, visitorId)).body.data).toMatchObject({
      found: true,
      withdrawn: false,
      categories: { NECESSARY: true, FUNCTIONAL: true, ANALYTICS: false, MARKETING: false, UNCLASSIFIED: false },
    });

    await webEvent(tenant.tenantId, { consentRecordId: visitorId, event: 'COOKIE_CONSENT_WITHDRAWN', categories: { FUNCTIONAL: true } });
    expect((await status(tenant, visitorId)).body.data).toMatchObject({ found: true, withdrawn: true, categories: allOff });
  });

  it('treats a state older than reconsentDays as not found', async () => {
    const tenant = await configuredTenant({ reconsentDays: 30 });
    const visitorId = randomUUID();
    await webEvent(tenant.tenantId, { consentRecordId: visitorId });
    setClock(offsetClock(29 * dayMs));
    expect((await status(tenant, visitorId)).body.data.found).toBe(true);
    setClock(offsetClock(31 * dayMs));
    expect((await status(tenant, visitorId)).body.data).toEqual({ visitorId, found: false, categories: allOff, lastUpdated: null, withdrawn: false });
    // Raising reconsentDays applies to states already stored.
    resetClock();
    await call('PUT', '/api/v1/cmp/config', { token: tenant.token, body: { reconsentDays: 60 } });
    setClock(offsetClock(31 * dayMs));
    expect((await status(tenant, visitorId)).body.data.found).toBe(true);
  });

  it("never shows another tenant's visitor, and checks its key and query", async () => {
    const tenant = await configuredTenant();
    const other = await configuredTenant();
    const visitorId = (await webEvent(tenant.tenantId, {})).body.data.consentRecordId;
    expect((await status(other, visitorId)).body.data.found).toBe(false);
    expectError(await call('GET', `/api/v1/cmp/consent-status?visitorId=${visitorId}`), 401, 'UNAUTHORIZED');
    expectError(await call('GET', `/api/v1/cmp/consent-status?visitorId=${visitorId}`, { headers: { 'x-api-key': 'cms_live_wrong' } }), 401, 'UNAUTHORIZED');
    const malformed = await status(tenant, 'visitor-1');
    expectError(malformed, 400, 'VALIDATION_ERROR');
    expect(malformed.body.error.fields).toHaveProperty('visitorId');
    expectError(await call('GET', '/api/v1/cmp/consent-status', { headers: { 'x-api-key': tenant.key } }), 400, 'VALIDATION_ERROR');
  });
});

describe('POST /cmp/server-event-log', () => {
  it("stores each call with what the visitor's state allowed, flagging a tracker fired without consent", async () => {
    const tenant = await configuredTenant();
    const visitorId = (await webEvent(tenant.tenantId, { categories: { ANALYTICS: true, MARKETING: false } })).body.data.consentRecordId;
    const allowed = await serverEvent(tenant, { visitorId, trackerName: 'ga4-measurement-protocol', fired: true, category: 'ANALYTICS' });
    expect(allowed.status).toBe(201);
    expect(allowed.body.data).toMatchObject({ visitorId, trackerName: 'ga4-measurement-protocol', fired: true, category: 'ANALYTICS', allowed: true, firedWithoutConsent: false });
    expect(allowed.body.data.id).toMatch(/^[0-9a-f-]{36}$/);

    const denied = await serverEvent(tenant, { visitorId, trackerName: 'meta-capi', fired: true, category: 'MARKETING' });
    expect(denied.body.data).toMatchObject({ allowed: false, firedWithoutConsent: true });
    const suppressed = await serverEvent(tenant, { visitorId, trackerName: 'meta-capi', fired: false, category: 'MARKETING' });
    expect(suppressed.body.data).toMatchObject({ allowed: false, firedWithoutConsent: false });
    const unknownVisitor = await serverEvent(tenant, { visitorId: randomUUID(), trackerName: 'session', fired: true, category: 'NECESSARY' });
    expect(unknownVisitor.body.data).toMatchObject({ allowed: true, firedWithoutConsent: false });

    const analytics = await call('GET', '/api/v1/cmp/analytics', { token: tenant.token });
    expect(analytics.body.data.serverSide).toEqual({ events: 4, fired: 3, suppressed: 1, firedWithoutConsent: 1 });
  });

  it.each([
    ['a long trackerName', { trackerName: 'x'.repeat(201) }, 'trackerName'],
    ['an unknown category', { category: 'SOCIAL' }, 'category'],
    ['no fired', { fired: undefined }, 'fired'],
    ['a malformed visitor id', { visitorId: 'v' }, 'visitorId'],
    ['an unknown field', { tenantId: randomUUID() }, 'tenantId'],
  ])('rejects %s', async (_label, fields, field) => {
    const tenant = await configuredTenant();
    const response = await serverEvent(tenant, { visitorId: randomUUID(), trackerName: 'pixel', fired: true, category: 'MARKETING', ...fields });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(Object.keys(response.body.error.fields)).toContain(field);
  });
});

describe('GET /cmp/analytics', () => {
  it('computes rates and the daily series from a known mix of events on two days', async () => {
    const tenant = await configuredTenant();
    const all = { FUNCTIONAL: true, ANALYTICS: true, MARKETING: true };
    const none = { FUNCTIONAL: false, ANALYTICS: false, MARKETING: false };
    const some = { FUNCTIONAL: true, ANALYTICS: false, MARKETING: false };
    setClock(fixedClock('2026-03-10T09:00:00Z'));
    for (const categories of [all, all, all, none, some]) await webEvent(tenant.tenantId, { categories: { NECESSARY: true, ...categories } });
    setClock(fixedClock('2026-03-11T23:59:00Z'));
    for (const categories of [all, none, none]) await webEvent(tenant.tenantId, { event: 'COOKIE_CONSENT_UPDATED', categories });
    await webEvent(tenant.tenantId, { event: 'COOKIE_CONSENT_WITHDRAWN', categories: none });

    const response = await call('GET', '/api/v1/cmp/analytics?from=2026-03-09&to=2026-03-12', { token: await tenant.userToken('ANALYST') });
    expect(response.status).toBe(200);
    const analytics = response.body.data;
    expect(analytics.totals).toEqual({ decisions: 8, accept: 4, reject: 3, partial: 1, withdrawals: 1 });
    expect(analytics.rates).toEqual({ accept: 0.5, reject: 0.375, partial: 0.125 });
    expect(analytics.categories.FUNCTIONAL).toEqual({ seen: 8, optedIn: 5, optInRate: 0.625 });
    expect(analytics.categories.ANALYTICS).toEqual({ seen: 8, optedIn: 4, optInRate: 0.5 });
    expect(analytics.categories.UNCLASSIFIED).toEqual({ seen: 0, optedIn: 0, optInRate: 0 });
    expect(analytics.daily).toEqual([
      { date: '2026-03-09', decisions: 0, accept: 0, reject: 0, partial: 0, withdrawals: 0 },
      { date: '2026-03-10', decisions: 5, accept: 3, reject: 1, partial: 1, withdrawals: 0 },
      { date: '2026-03-11', decisions: 3, accept: 1, reject: 2, partial: 0, withdrawals: 1 },
      { date: '2026-03-12', decisions: 0, accept: 0, reject: 0, partial: 0, withdrawals: 0 },
    ]);

    const oneDay = (await call('GET', '/api/v1/cmp/analytics?from=2026-03-11&to=2026-03-11', { token: tenant.token })).body.data;
    expect(oneDay.totals).toEqual({ decisions: 3, accept: 1, reject: 2, partial: 0, withdrawals: 1 });

    // Default range: the 30 days up to today.
    const recent = (await call('GET', '/api/v1/cmp/analytics', { token: tenant.token })).body.data;
    expect(recent).toMatchObject({ from: '2026-02-10', to: '2026-03-11' });
    expect(recent.daily).toHaveLength(30);
    expect(recent.totals.decisions).toBe(8);
  });

  it('checks the range', async () => {
    const tenant = await configuredTenant();
    const get = (query: string) => call('GET', `/api/v1/cmp/analytics?${query}`, { token: tenant.token });
    expect((await get('from=2025-01-01&to=2026-01-01')).status).toBe(200);
    expect((await get('from=2025-01-01&to=2026-01-01')).body.data.daily).toHaveLength(366);
    const tooLong = await get('from=2025-01-01&to=2026-01-02');
    expectError(tooLong, 400, 'VALIDATION_ERROR');
    expect(tooLong.body.error.fields).toHaveProperty('to');
    expectError(await get('from=2026-02-01&to=2026-01-01'), 400, 'VALIDATION_ERROR');
    const malformed = await get('from=yesterday');
    expectError(malformed, 400, 'VALIDATION_ERROR');
    expect(malformed.body.error.fields).toHaveProperty('from');
  });
});
