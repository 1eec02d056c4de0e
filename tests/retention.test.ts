import { describe, expect, it } from 'vitest';
import { newTenant, useApi } from './support/api';
import { createPurpose } from './support/notices';
import { failWrites, tenantDigest } from './support/storage';

/**
 * Retention (issue 34) against the local engines: each purpose's retention, the tenant's Third
 * Schedule class and notice, and the rule that binds them (rule 8(1)): a Third Schedule tenant
 * keeps no purpose's data longer than three years from the last activity unless it is excepted.
 */
const { call } = useApi();

const retention = (period: string, from = 'LAST_ACTIVITY') => ({ period, from });

describe('retention settings and purposes', () => {
  it('keeps each purpose\'s retention and exception, validated, and removes it with null', async () => {
    const tenant = await newTenant(call);
    const id = await createPurpose(call, tenant.token, { retention: { ...retention('P3Y'), legalHold: 'Companies Act, 2013, s.128(5): books of account for eight years' } });
    const read = (await call('GET', `/api/v1/purposes/${id}`, { token: tenant.token })).body.data;
    expect(read.retention).toEqual({ period: 'P3Y', from: 'LAST_ACTIVITY', legalHold: 'Companies Act, 2013, s.128(5): books of account for eight years' });
    expect(read.thirdScheduleException).toBeNull();
    for (const bad of [{ period: 'PT59S', from: 'CONSENT' }, { period: '3 years', from: 'CONSENT' }, { period: 'P1Y', from: 'SOMETIME' }, { period: 'P1Y', from: 'CONSENT', extra: 1 }]) {
      const response = await call('PUT', `/api/v1/purposes/${id}`, { token: tenant.token, body: { retention: bad } });
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(response.body.error.fields ?? response.body.error.details?.fields ?? {}).join(' '), JSON.stringify(response.body.error)).toContain('retention');
    }
    expect((await call('PUT', `/api/v1/purposes/${id}`, { token: tenant.token, body: { thirdScheduleException: 'NOT_ONE' } })).status).toBe(400);
    const cleared = await call('PUT', `/api/v1/purposes/${id}`, { token: tenant.token, body: { retention: null, thirdScheduleException: 'USER_ACCOUNT_ACCESS' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ retention: null, thirdScheduleException: 'USER_ACCOUNT_ACCESS' });
    const plain = await createPurpose(call, tenant.token);
    expect((await call('GET', `/api/v1/purposes/${plain}`, { token: tenant.token })).body.data).toMatchObject({ retention: null, thirdScheduleException: null });
  });

  it('reads the settings with defaults for every role, and lets only DPO and SUPER_ADMIN change them, logged', async () => {
    const tenant = await newTenant(call);
    const viewer = await tenant.userToken('VIEWER');
    expect((await call('GET', '/api/v1/retention/settings', { token: viewer })).body.data).toEqual({ thirdScheduleClass: null, noticeHours: 0, updatedAt: null, updatedBy: null });
    expect((await call('PUT', '/api/v1/retention/settings', { token: viewer, body: { noticeHours: 24 } })).status).toBe(403);
    expect((await call('PUT', '/api/v1/retention/settings', { token: await tenant.userToken('ANALYST'), body: { noticeHours: 24 } })).status).toBe(403);
    const saved = await call('PUT', '/api/v1/retention/settings', { token: await tenant.userToken('DPO'), body: { noticeHours: 24 } });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ thirdScheduleClass: null, noticeHours: 24 });
    for (const body of [{ noticeHours: -1 }, { noticeHours: 1.5 }, { noticeHours: 721 }, { thirdScheduleClass: 'BANKING' }, { other: true }]) {
      expect((await call('PUT', '/api/v1/retention/settings', { token: tenant.token, body })).status, JSON.stringify(body)).toBe(400);
    }
    const changes = (await call('GET', '/api/v1/consent/settings/changes', { token: tenant.token })).body.data;
    expect(JSON.stringify(changes)).toContain('retention.noticeHours');
    const schedule = (await call('GET', '/api/v1/retention/third-schedule', { token: viewer })).body.data;
    expect(schedule.classes.map((entry: { id: string }) => entry.id)).toEqual(['ECOMMERCE', 'ONLINE_GAMING', 'SOCIAL_MEDIA']);
  });

  it('gives a Third Schedule tenant 48 hours\' notice at least, and refuses it less', async () => {
    const tenant = await newTenant(call);
    const entered = await call('PUT', '/api/v1/retention/settings', { token: tenant.token, body: { thirdScheduleClass: 'ECOMMERCE' } });
    expect(entered.body.data).toMatchObject({ thirdScheduleClass: 'ECOMMERCE', noticeHours: 48 });
    const less = await call('PUT', '/api/v1/retention/settings', { token: tenant.token, body: { noticeHours: 24 } });
    expect(less.status).toBe(400);
    expect(less.body.error.fields).toHaveProperty('noticeHours');
    expect((await call('PUT', '/api/v1/retention/settings', { token: tenant.token, body: { noticeHours: 72 } })).body.data.noticeHours).toBe(72);
  });

  it('refuses a Third Schedule tenant a P5Y retention from LAST_ACTIVITY on a purpose that is not excepted, and changes nothing', async () => {
    const tenant = await newTenant(call);
    await call('PUT', '/api/v1/retention/settings', { token: tenant.token, body: { thirdScheduleClass: 'SOCIAL_MEDIA' } });
    const before = await tenantDigest(tenant.tenantId);
    const refused = await call('POST', '/api/v1/purposes', { token: tenant.token, body: { name: 'Feed', description: 'Your feed', dataCategories: ['posts'], retention: retention('P5Y') } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    expect(refused.body.error.fields).toHaveProperty('retention');
    expect(await tenantDigest(tenant.tenantId)).toBe(before);
    // The same period from CONSENT, on an excepted purpose, or P3Y: allowed.
    expect((await call('POST', '/api/v1/purposes', { token: tenant.token, body: { name: 'Wallet', description: 'Your wallet', dataCategories: ['balance'], retention: retention('P5Y'), thirdScheduleException: 'VIRTUAL_TOKEN_ACCESS' } })).status).toBe(201);
    const id = await createPurpose(call, tenant.token, { retention: retention('P3Y') });
    const longer = await call('PUT', `/api/v1/purposes/${id}`, { token: tenant.token, body: { retention: retention('P1096D') } });
    expect(longer.status).toBe(400);
    expect(longer.body.error.fields).toHaveProperty('retention');
    expect((await call('GET', `/api/v1/purposes/${id}`, { token: tenant.token })).body.data.retention).toEqual(retention('P3Y'));
    expect((await call('PUT', `/api/v1/purposes/${id}`, { token: tenant.token, body: { retention: retention('P5Y', 'CONSENT') } })).status).toBe(200);
    // Taking the exception away from the wallet would leave it past the schedule: refused too.
    const wallet = (await call('GET', '/api/v1/purposes', { token: tenant.token })).body.data.find((purpose: { name: string }) => purpose.name === 'Wallet').id;
    expect((await call('PUT', `/api/v1/purposes/${wallet}`, { token: tenant.token, body: { thirdScheduleException: null } })).status).toBe(400);
  });

  it('refuses to enter the Third Schedule while a purpose keeps data past three years, until it is shortened', async () => {
    const tenant = await newTenant(call);
    const id = await createPurpose(call, tenant.token, { retention: retention('P5Y') });
    const refused = await call('PUT', '/api/v1/retention/settings', { token: tenant.token, body: { thirdScheduleClass: 'ONLINE_GAMING' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields.retention).toContain(id);
    expect((await call('GET', '/api/v1/retention/settings', { token: tenant.token })).body.data.thirdScheduleClass).toBeNull();
    expect((await call('PUT', `/api/v1/purposes/${id}`, { token: tenant.token, body: { retention: retention('P2Y') } })).status).toBe(200);
    expect((await call('PUT', '/api/v1/retention/settings', { token: tenant.token, body: { thirdScheduleClass: 'ONLINE_GAMING' } })).status).toBe(200);
  });

  it('keeps a purpose\'s childProhibited and retention marks in one write of the settings item, created or changed together', async () => {
    const tenant = await newTenant(call);
    // Two marks on one item are one operation of the purpose's transaction (DynamoDB refuses two on one item).
    const ads = await call('POST', '/api/v1/purposes', { token: tenant.token, body: { name: 'Ads', description: 'Ads', dataCategories: ['browsing'], childProhibited: true, retention: retention('P5Y') } });
    expect(ads.status).toBe(201);
    const feed = await createPurpose(call, tenant.token);
    expect((await call('PUT', `/api/v1/purposes/${feed}`, { token: tenant.token, body: { childProhibited: true, retention: retention('P1Y', 'CONSENT') } })).status).toBe(200);
    expect((await call('GET', '/api/v1/children/settings', { token: tenant.token })).body.data.childProhibitedPurposes.sort()).toEqual([ads.body.data.id, feed].sort());
    // The long retention's mark holds too: the schedule is refused, naming it.
    const refused = await call('PUT', '/api/v1/retention/settings', { token: tenant.token, body: { thirdScheduleClass: 'SOCIAL_MEDIA' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields.retention).toContain(ads.body.data.id);
  });

  it('lets only one of a long retention and entering the schedule win when both come at once', async () => {
    const tenant = await newTenant(call);
    const id = await createPurpose(call, tenant.token, { retention: retention('P1Y') });
    const [purpose, settings] = await Promise.all([
      call('PUT', `/api/v1/purposes/${id}`, { token: tenant.token, body: { retention: retention('P5Y') } }),
      call('PUT', '/api/v1/retention/settings', { token: tenant.token, body: { thirdScheduleClass: 'ECOMMERCE' } }),
    ]);
    expect([purpose.status, settings.status].sort()).toEqual([200, 400]);
  });

  it('answers a failed write with no 2xx and changes nothing', async () => {
    const tenant = await newTenant(call);
    const id = await createPurpose(call, tenant.token, { retention: retention('P1Y') });
    const before = await tenantDigest(tenant.tenantId);
    const failing = failWrites();
    try {
      expect((await call('PUT', '/api/v1/retention/settings', { token: tenant.token, body: { noticeHours: 12 } })).status).toBeGreaterThanOrEqual(500);
      expect((await call('PUT', `/api/v1/purposes/${id}`, { token: tenant.token, body: { retention: retention('P2Y') } })).status).toBeGreaterThanOrEqual(500);
    } finally {
      failing.restore();
    }
    expect(await tenantDigest(tenant.tenantId)).toBe(before);
  });
});
