import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newTenant, useApi, type ApiResponse } from './support/api';
import { failWrites } from './support/storage';

const { call } = useApi();

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const expectError = (response: ApiResponse, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
};

const putConfig = (tenant: Tenant, body: unknown) => call('PUT', '/api/v1/cmp/config', { token: tenant.token, body });
const publicConfig = (tenantId: string, headers: Record<string, string> = {}) => call('GET', `/api/v1/cmp/config/${tenantId}`, { headers });
const putTrackers = (tenant: Tenant, trackers: unknown[]) => call('PUT', '/api/v1/cmp/trackers', { token: tenant.token, body: { trackers } });

describe('plan gating', () => {
  it('answers 404 CMP_NOT_CONFIGURED on every cookie-consent endpoint for a collect-only tenant', async () => {
    const tenant = await newTenant(call, { plan: 'collect-only' });
    const apiKey = await tenant.apiKey();
    const token = tenant.token;
    const visitorId = randomUUID();
    const responses = {
      'GET config/:tenantId': await publicConfig(tenant.tenantId),
      'PUT config': await putConfig(tenant, {}),
      'GET config/revisions/1': await call('GET', '/api/v1/cmp/config/revisions/1', { token }),
      'GET trackers': await call('GET', '/api/v1/cmp/trackers', { token }),
      'PUT trackers': await putTrackers(tenant, [{ domain: 'a.example', category: 'ANALYTICS' }]),
      'DELETE trackers': await call('DELETE', '/api/v1/cmp/trackers', { token, body: { domain: 'a.example' } }),
      'POST web-event': await call('POST', '/api/v1/cmp/web-event', {
        body: { tenantId: tenant.tenantId, event: 'COOKIE_CONSENT_GIVEN', categories: { ANALYTICS: true } },
      }),
      'GET consent-status': await call('GET', `/api/v1/cmp/consent-status?visitorId=${visitorId}`, { headers: { 'x-api-key': apiKey } }),
      'POST server-event-log': await call('POST', '/api/v1/cmp/server-event-log', {
        headers: { 'x-api-key': apiKey },
        body: { visitorId, trackerName: 'ga4', fired: true, category: 'ANALYTICS' },
      }),
      'GET analytics': await call('GET', '/api/v1/cmp/analytics', { token }),
      'GET translations': await call('GET', '/api/v1/cmp/translations', { token }),
      'POST translations/draft': await call('POST', '/api/v1/cmp/translations/draft', { token, body: { language: 'hi' } }),
      'POST translations/draft-all': await call('POST', '/api/v1/cmp/translations/draft-all', { token }),
      'PUT translations/:language': await call('PUT', '/api/v1/cmp/translations/hi', { token, body: { labels: { title: 'नमस्ते' } } }),
    };
    for (const [endpoint, response] of Object.entries(responses)) {
      expect({ endpoint, status: response.status, code: response.body?.error?.code }).toEqual({ endpoint, status: 404, code: 'CMP_NOT_CONFIGURED' });
    }
  });

  it('keeps the public config and the visitor endpoints closed for a standard tenant until a config is saved', async () => {
    const tenant = await newTenant(call);
    const apiKey = await tenant.apiKey();
    expectError(await publicConfig(tenant.tenantId), 404, 'CMP_NOT_CONFIGURED');
    const webEvent = { tenantId: tenant.tenantId, event: 'COOKIE_CONSENT_GIVEN', categories: { ANALYTICS: true } };
    expectError(await call('POST', '/api/v1/cmp/web-event', { body: webEvent }), 404, 'CMP_NOT_CONFIGURED');
    expectError(await call('GET', `/api/v1/cmp/consent-status?visitorId=${randomUUID()}`, { headers: { 'x-api-key': apiKey } }), 404, 'CMP_NOT_CONFIGURED');

    // Trackers can be prepared before the banner goes live; they stay private until then.
    expect((await putTrackers(tenant, [{ domain: 'cdn.example', category: 'FUNCTIONAL' }])).status).toBe(200);
    expectError(await publicConfig(tenant.tenantId), 404, 'CMP_NOT_CONFIGURED');

    expect((await putConfig(tenant, {})).status).toBe(200);
    const served = await publicConfig(tenant.tenantId);
    expect(served.status).toBe(200);
    expect(served.body.data.trackers).toEqual([{ domain: 'cdn.example', category: 'FUNCTIONAL', declaredByAdmin: true }]);
    expect((await call('POST', '/api/v1/cmp/web-event', { body: webEvent })).status).toBe(201);
  });

  it('answers an unknown tenant id as not configured, without telling whether the tenant exists', async () => {
    expectError(await publicConfig(randomUUID()), 404, 'CMP_NOT_CONFIGURED');
    expectError(await publicConfig('not-a-uuid'), 400, 'VALIDATION_ERROR');
  });
});

describe('PUT /cmp/config', () => {
  it('fills the defaults on the first save and answers with the saved config', async () => {
    const tenant = await newTenant(call);
    const response = await putConfig(tenant, {});
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      tenantId: tenant.tenantId,
      categories: {
        NECESSARY: { enabled: true, toggleable: false },
        FUNCTIONAL: { enabled: true, toggleable: true },
        ANALYTICS: { enabled: true, toggleable: true },
        MARKETING: { enabled: true, toggleable: true },
        UNCLASSIFIED: { enabled: true, toggleable: true },
      },
      defaultDeny: true,
      childDirected: false,
      languages: ['en'],
      reconsentDays: 180,
      scanEnabled: false,
      scanUrls: [],
      bannerTheme: { position: 'bottom-right', borderRadius: 8, showLogo: false },
      showPoweredBy: true,
      logoUrl: null,
      revision: 1,
    });
    expect(response.body.data).not.toHaveProperty('trackers');
    expect(response.body.data).not.toHaveProperty('configured');
  });

  it('merges field by field, inside categories and the theme too, and stores languages in one case', async () => {
    const tenant = await newTenant(call);
    await putConfig(tenant, { reconsentDays: 365, bannerTheme: { primaryColor: '#AABBCC' } });
    const response = await putConfig(tenant, {
      categories: { MARKETING: { toggleable: false } },
      bannerTheme: { position: 'top-center' },
      languages: ['EN', 'hi', 'Brx'],
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      reconsentDays: 365,
      languages: ['en', 'hi', 'brx'],
      bannerTheme: { primaryColor: '#aabbcc', position: 'top-center', backgroundColor: '#ffffff' },
      categories: { MARKETING: { enabled: true, toggleable: false }, ANALYTICS: { enabled: true, toggleable: true } },
      revision: 2,
    });
  });

  it.each([
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['a system field', { tenantId: randomUUID() }, 'tenantId'],
    ['a revision', { revision: 9 }, 'revision'],
    ['an unknown category', { categories: { SOCIAL: { enabled: true } } }, 'categories.SOCIAL'],
    ['an unknown category field', { categories: { ANALYTICS: { visible: true } } }, 'categories.ANALYTICS.visible'],
    ['NECESSARY disabled', { categories: { NECESSARY: { enabled: false } } }, 'categories.NECESSARY.enabled'],
    ['NECESSARY toggleable', { categories: { NECESSARY: { toggleable: true } } }, 'categories.NECESSARY.toggleable'],
    ['a non-boolean toggle', { categories: { ANALYTICS: { enabled: 'yes' } } }, 'categories.ANALYTICS.enabled'],
    ['an unknown language', { languages: ['fr'] }, 'languages.0'],
    ['23 languages', { languages: Array.from({ length: 23 }, () => 'hi') }, 'languages'],
    ['a repeated language', { languages: ['hi', 'HI'] }, 'languages'],
    ['no language', { languages: [] }, 'languages'],
    ['reconsentDays below 30', { reconsentDays: 29 }, 'reconsentDays'],
    ['reconsentDays above 730', { reconsentDays: 731 }, 'reconsentDays'],
    ['a fractional reconsentDays', { reconsentDays: 90.5 }, 'reconsentDays'],
    ['six scan URLs', { scanUrls: Array.from({ length: 6 }, (_, index) => `https://example.com/${index}`) }, 'scanUrls'],
    ['an http scan URL', { scanUrls: ['http://example.com/'] }, 'scanUrls.0'],
    ['a relative scan URL', { scanUrls: ['/pricing'] }, 'scanUrls.0'],
    ['an unknown theme key', { bannerTheme: { fontFamily: 'serif' } }, 'bannerTheme.fontFamily'],
    ['a named colour', { bannerTheme: { primaryColor: 'red' } }, 'bannerTheme.primaryColor'],
    ['a five-digit hex colour', { bannerTheme: { textColor: '#12345' } }, 'bannerTheme.textColor'],
    ['a negative border radius', { bannerTheme: { borderRadius: -1 } }, 'bannerTheme.borderRadius'],
    ['a huge border radius', { bannerTheme: { borderRadius: 49 } }, 'bannerTheme.borderRadius'],
    ['an unknown position', { bannerTheme: { position: 'middle' } }, 'bannerTheme.position'],
    ['a non-boolean defaultDeny', { defaultDeny: 'true' }, 'defaultDeny'],
  ])('rejects %s with a field message and stores nothing', async (_label, body, field) => {
    const tenant = await newTenant(call);
    const response = await putConfig(tenant, body);
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(Object.keys(response.body.error.fields)).toContain(field);
    expectError(await publicConfig(tenant.tenantId), 404, 'CMP_NOT_CONFIGURED');
  });

  it('checks the child-directed rule on the merged state', async () => {
    const tenant = await newTenant(call);
    // childDirected alone against the stored defaults (ANALYTICS and MARKETING on) breaks the rule.
    const alone = await putConfig(tenant, { childDirected: true });
    expectError(alone, 400, 'CHILD_DIRECTED_VIOLATION');
    // fields belong to VALIDATION_ERROR only (the spec's envelope); the message names both categories.
    expect(alone.body.error).not.toHaveProperty('fields');
    expect(alone.body.error.message).toMatch(/categories\.ANALYTICS/);
    expect(alone.body.error.message).toMatch(/categories\.MARKETING/);

    const off = { enabled: false, toggleable: false };
    expect((await putConfig(tenant, { childDirected: true, categories: { ANALYTICS: off, MARKETING: off } })).status).toBe(200);
    // Each later change is checked against what is stored: turning one back on alone fails.
    expectError(await putConfig(tenant, { categories: { MARKETING: { toggleable: true } } }), 400, 'CHILD_DIRECTED_VIOLATION');
    expectError(await putConfig(tenant, { categories: { ANALYTICS: { enabled: true } } }), 400, 'CHILD_DIRECTED_VIOLATION');
    // Leaving child-directed mode makes them allowed again.
    const relaxed = await putConfig(tenant, { childDirected: false, categories: { ANALYTICS: { enabled: true, toggleable: true } } });
    expect(relaxed.status).toBe(200);
    expect(relaxed.body.data.categories.MARKETING).toEqual(off);
    expect((await publicConfig(tenant.tenantId)).body.data.childDirected).toBe(false);
  });

  it('lets only DPO and SUPER_ADMIN change it', async () => {
    const tenant = await newTenant(call);
    for (const role of ['ANALYST', 'VIEWER'] as const) {
      const token = await tenant.userToken(role);
      expectError(await call('PUT', '/api/v1/cmp/config', { token, body: {} }), 403, 'FORBIDDEN');
    }
    const dpo = await tenant.userToken('DPO');
    expect((await call('PUT', '/api/v1/cmp/config', { token: dpo, body: {} })).status).toBe(200);
  });

  it('loses no field when several PUTs land at once', async () => {
    const tenant = await newTenant(call);
    await putConfig(tenant, {});
    const changes = [
      { reconsentDays: 90 },
      { defaultDeny: false },
      { scanEnabled: true },
      { languages: ['en', 'ta'] },
      { bannerTheme: { borderRadius: 0 } },
      { categories: { UNCLASSIFIED: { enabled: false } } },
    ];
    const responses = await Promise.all(changes.map((body) => putConfig(tenant, body)));
    expect(responses.map((response) => response.status)).toEqual(changes.map(() => 200));
    const served = (await publicConfig(tenant.tenantId)).body.data;
    expect(served).toMatchObject({
      reconsentDays: 90,
      defaultDeny: false,
      scanEnabled: true,
      languages: ['en', 'ta'],
      bannerTheme: { borderRadius: 0 },
      categories: { UNCLASSIFIED: { enabled: false, toggleable: true } },
      revision: 1 + changes.length,
    });
  });

  it('answers a failed write with a 500 and keeps the stored config', async () => {
    const tenant = await newTenant(call);
    await putConfig(tenant, { reconsentDays: 60 });
    // The rate limiter's counter (an UpdateItem) still works; the config transaction fails.
    const storage = failWrites({ except: (command) => command === 'UpdateItem' });
    try {
      const response = await putConfig(tenant, { reconsentDays: 400 });
      expectError(response, 500, 'INTERNAL_ERROR');
    } finally {
      storage.restore();
    }
    expect((await publicConfig(tenant.tenantId)).body.data).toMatchObject({ reconsentDays: 60, revision: 1 });
  });
});

describe('GET /cmp/config/:tenantId', () => {
  it('serves every spec field with the cache headers, and 304 for a matching If-None-Match', async () => {
    const tenant = await newTenant(call);
    await putConfig(tenant, { languages: ['en', 'hi'] });
    const first = await publicConfig(tenant.tenantId);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    for (const field of ['tenantId', 'categories', 'defaultDeny', 'childDirected', 'bannerTheme', 'languages', 'reconsentDays', 'scanEnabled', 'scanUrls', 'trackers', 'labelSets', 'showPoweredBy', 'brandName', 'logoUrl']) {
      expect(first.body.data, field).toHaveProperty(field);
    }
    expect(first.body.data.labelSets.en.status).toBe('DEFAULT');
    expect(first.body.data.labelSets.en.labels.acceptAll).toBe('Accept all');

    const again = await publicConfig(tenant.tenantId, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
    expect(again.headers.get('etag')).toBe(etag);
    expect((await publicConfig(tenant.tenantId, { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    expect((await publicConfig(tenant.tenantId, { 'if-none-match': '"stale"' })).status).toBe(200);

    // Saving the same values again is no change: same ETag.
    await putConfig(tenant, { languages: ['EN', 'HI'] });
    expect((await publicConfig(tenant.tenantId)).headers.get('etag')).toBe(etag);

    await putConfig(tenant, { reconsentDays: 200 });
    const changed = await publicConfig(tenant.tenantId, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body.data.reconsentDays).toBe(200);
  });

  it('keeps every revision, so what a banner showed can be produced later', async () => {
    const tenant = await newTenant(call);
    await putConfig(tenant, { reconsentDays: 100 });
    await putConfig(tenant, { reconsentDays: 300 });
    const first = await call('GET', '/api/v1/cmp/config/revisions/1', { token: tenant.token });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ reconsentDays: 100, revision: 1 });
    expect((await call('GET', '/api/v1/cmp/config/revisions/2', { token: tenant.token })).body.data.reconsentDays).toBe(300);
    expectError(await call('GET', '/api/v1/cmp/config/revisions/3', { token: tenant.token }), 404, 'NOT_FOUND');
    const other = await newTenant(call);
    expectError(await call('GET', '/api/v1/cmp/config/revisions/1', { token: other.token }), 404, 'NOT_FOUND');
  });
});

describe('trackers', () => {
  it('upserts by domain and cookieName, idempotently, as declared by an admin', async () => {
    const tenant = await newTenant(call);
    await putConfig(tenant, {});
    const trackers = [
      { domain: '.Google-Analytics.com', cookieName: '_ga', category: 'ANALYTICS', vendor: 'Google' },
      { domain: 'google-analytics.com', cookieName: '_gid', category: 'ANALYTICS', declaredByAdmin: false },
      { domain: 'cdn.example', category: 'NECESSARY' },
    ];
    const first = await putTrackers(tenant, trackers);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ created: 3, updated: 0, unchanged: 0 });
    const etag = (await publicConfig(tenant.tenantId)).headers.get('etag');

    const second = await putTrackers(tenant, trackers);
    expect(second.body.data).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect((await publicConfig(tenant.tenantId)).headers.get('etag')).toBe(etag);

    const listed = await call('GET', '/api/v1/cmp/trackers', { token: await tenant.userToken('VIEWER') });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      { domain: 'cdn.example', category: 'NECESSARY', declaredByAdmin: true },
      { domain: 'google-analytics.com', cookieName: '_ga', category: 'ANALYTICS', vendor: 'Google', declaredByAdmin: true },
      { domain: 'google-analytics.com', cookieName: '_gid', category: 'ANALYTICS', declaredByAdmin: true },
    ]);

    const reclassified = await putTrackers(tenant, [{ domain: 'cdn.example', category: 'FUNCTIONAL' }]);
    expect(reclassified.body.data).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    expect((await publicConfig(tenant.tenantId)).body.data.trackers).toEqual(reclassified.body.data.trackers);
  });

  it('validates each tracker and the batch size', async () => {
    const tenant = await newTenant(call);
    const tracker = (index: number) => ({ domain: `t${index}.example`, category: 'MARKETING' });
    const tooMany = await putTrackers(tenant, Array.from({ length: 201 }, (_, index) => tracker(index)));
    expectError(tooMany, 400, 'VALIDATION_ERROR');
    expect(tooMany.body.error.fields).toHaveProperty('trackers');
    expect((await putTrackers(tenant, Array.from({ length: 200 }, (_, index) => tracker(index)))).body.data.created).toBe(200);

    const cases: [unknown[], string][] = [
      [[], 'trackers'],
      [[{ domain: 'a.example', category: 'SOCIAL' }], 'trackers.0.category'],
      [[{ domain: 'https://a.example/', category: 'ANALYTICS' }], 'trackers.0.domain'],
      [[{ domain: 'a.example', category: 'ANALYTICS', cookieName: 'x'.repeat(201) }], 'trackers.0.cookieName'],
      [[{ domain: 'a.example', category: 'ANALYTICS', firstSeen: 'yesterday' }], 'trackers.0.firstSeen'],
      [[{ domain: 'a.example', category: 'ANALYTICS' }, { domain: 'A.example', category: 'MARKETING' }], 'trackers.1'],
    ];
    for (const [trackers, field] of cases) {
      const response = await putTrackers(tenant, trackers);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(Object.keys(response.body.error.fields), field).toContain(field);
    }
    expect((await call('GET', '/api/v1/cmp/trackers', { token: tenant.token })).body.data).toHaveLength(200);
  });

  it('removes one tracker by its key', async () => {
    const tenant = await newTenant(call);
    await putTrackers(tenant, [
      { domain: 'ads.example', cookieName: 'id', category: 'MARKETING' },
      { domain: 'ads.example', category: 'MARKETING' },
    ]);
    const removed = await call('DELETE', '/api/v1/cmp/trackers', { token: tenant.token, body: { domain: 'ADS.example', cookieName: 'id' } });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ domain: 'ads.example', cookieName: 'id', category: 'MARKETING', declaredByAdmin: true });
    expectError(await call('DELETE', '/api/v1/cmp/trackers', { token: tenant.token, body: { domain: 'ads.example', cookieName: 'id' } }), 404, 'NOT_FOUND');
    expect((await call('GET', '/api/v1/cmp/trackers', { token: tenant.token })).body.data).toEqual([
      { domain: 'ads.example', category: 'MARKETING', declaredByAdmin: true },
    ]);
    expectError(await call('DELETE', '/api/v1/cmp/trackers', { token: await tenant.userToken('ANALYST'), body: { domain: 'ads.example' } }), 403, 'FORBIDDEN');
  });
});
