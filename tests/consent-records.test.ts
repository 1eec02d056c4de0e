import canonicalize from 'canonicalize';
import { describe, expect, it, onTestFinished } from 'vitest';
import { newTenant, useApi } from './support/api';
import { waitForLog } from './support/evidence';
import { useEvidenceLog } from './support/workers';
import { publishedNotice, recordConsent, sha256 } from './support/consent';

const { call } = useApi();
// Counters (list totals, analytics, notice counts) count a record when the evidence log sequences it.
useEvidenceLog();

describe('recording consent', () => {
  it('records against the published notice and returns a proof anyone can recompute', async () => {
    const tenant = await newTenant(call);
    const { noticeId, required, optional } = await publishedNotice(call, tenant.token);
    const response = await recordConsent(call, tenant.token, {
      noticeId,
      dataPrincipalIdentifier: 'Asha@Example.com ',
      consentGiven: { [required]: true, [optional]: false },
      userAgent: 'test-agent/1.0',
      externalId: 'cust-42',
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual({
      consentRecordId: expect.any(String),
      proofHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      status: 'recorded',
      attribution: 'VERIFIED',
      receipt: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      // An adult's decision is in force at once and waits on no guardian (docs/children.md).
      consentState: 'ACTIVE',
      guardianRequestId: null,
    });

    const proof = (await call('GET', `/api/v1/consent/records/${response.body.data.consentRecordId}/proof`, { token: tenant.token })).body.data;
    // Independently: JCS of the payload, SHA-256, compared with the hash returned at creation.
    expect(canonicalize(proof.payload)).toBe(proof.canonicalPayload);
    expect(sha256(proof.canonicalPayload)).toBe(response.body.data.proofHash);
    expect(proof.payload).toMatchObject({
      tenantId: tenant.tenantId,
      noticeId,
      noticeVersionNumber: 1,
      dataPrincipalHash: sha256('asha@example.com'),
      externalId: 'cust-42',
      consentGiven: { [required]: true, [optional]: false },
      userAgent: 'test-agent/1.0',
      languageShown: 'EN',
      positionShown: 'api',
    });
    expect(proof.payload).not.toHaveProperty('chainSeq');
    expect(proof).toMatchObject({ proofVersion: 4, matches: true, log: { leafIndex: expect.toBeOneOf([null, 0]) } });
    // Format 4: the record's own random salt is evidence, shown with it, so the hash above is recomputed from the payload alone.
    expect(proof.payload).toMatchObject({ attribution: 'VERIFIED', attributionMethod: 'DASHBOARD', salt: expect.stringMatching(/^[\w-]{22}$/) });
  });

  it('refuses unknown purposes, system fields, other notices and a notice that is not published', async () => {
    const tenant = await newTenant(call);
    const { noticeId, required } = await publishedNotice(call, tenant.token);
    const base = { noticeId, dataPrincipalIdentifier: 'p@example.com', consentGiven: { [required]: true } };
    const unknown = await recordConsent(call, tenant.token, { ...base, consentGiven: { '0f8fad5b-d9cb-469f-a165-70867728950e': true } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields.consentGiven).toBeDefined();
    for (const field of ['proofHash', 'createdAt', 'tenantId', 'status']) {
      const response = await recordConsent(call, tenant.token, { ...base, [field]: 'x' });
      expect(response.body.error.fields[field]).toBe('Unknown field');
    }
    const tooLong = await recordConsent(call, tenant.token, { ...base, dataPrincipalIdentifier: 'x'.repeat(513) });
    expect(tooLong.body.error.fields.dataPrincipalIdentifier).toBeDefined();
    const missing = await recordConsent(call, tenant.token, { ...base, noticeId: '0f8fad5b-d9cb-469f-a165-70867728950e' });
    expect(missing.status).toBe(404);
    const viewer = await tenant.userToken('VIEWER');
    expect((await recordConsent(call, viewer, base)).status).toBe(403);
  });

  it('fills externalId from the principal\'s latest record and flags declined required purposes', async () => {
    const tenant = await newTenant(call);
    const { noticeId, required, optional } = await publishedNotice(call, tenant.token);
    await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: 'ravi@example.com', consentGiven: { [required]: true }, externalId: 'ravi-1' });
    const second = await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: 'ravi@example.com', consentGiven: { [required]: false, [optional]: true } });
    expect(second.status).toBe(201);
    const status = (await call('GET', `/api/v1/consent/status/${sha256('ravi@example.com')}`, { token: tenant.token })).body.data;
    expect(status).toHaveLength(2);
    expect(status[0]).toMatchObject({ consentRecordId: second.body.data.consentRecordId, consentGiven: { [required]: false, [optional]: true }, isWithdrawn: false, isPartiallyWithdrawn: false, withdrawnAt: null, withdrawnPurposes: [], noticeVersion: 1 });
    const byExternal = (await call('GET', '/api/v1/consent/by-external-id/ravi-1', { token: tenant.token })).body.data;
    expect(byExternal.map((record: { id: string }) => record.id)).toContain(second.body.data.consentRecordId);
    expect(byExternal[0]).toMatchObject({ externalId: 'ravi-1', noticeVersionNumber: 1, currentNoticeVersion: 1 });
    expect((await call('GET', '/api/v1/consent/by-external-id/nobody', { token: tenant.token })).body.data).toEqual([]);
    expect((await call('GET', `/api/v1/consent/status/${sha256('nobody@example.com')}`, { token: tenant.token })).body.data).toEqual([]);
    expect((await call('GET', '/api/v1/consent/status/NOT-A-HASH', { token: tenant.token })).status).toBe(400);
  });
});

describe('consent counts on notices', () => {
  it('shows the records of a notice wherever the notice is returned', async () => {
    const tenant = await newTenant(call);
    const { noticeId, required } = await publishedNotice(call, tenant.token);
    await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: 'count@example.com', consentGiven: { [required]: true } });
    // Counted when the log sequences the record.
    await waitForLog(tenant.tenantId, 1, { signed: false });
    expect((await call('GET', `/api/v1/notices/${noticeId}`, { token: tenant.token })).body.data.consentCount).toBe(1);
    const patched = await call('PATCH', `/api/v1/notices/${noticeId}/withdrawal-url`, { token: tenant.token, body: { withdrawalUrl: 'https://shop.example/stop' } });
    expect(patched.body.data).toMatchObject({ consentCount: 1, withdrawalUrl: 'https://shop.example/stop' });
    const archived = await call('POST', `/api/v1/notices/${noticeId}/archive`, { token: tenant.token });
    expect(archived.body.data).toMatchObject({ action: 'ARCHIVED', consentCount: 1 });
  });
});

describe('sdk-record', () => {
  it('attributes by identifierHash as is, by identifier hashed, or by the client IP', async () => {
    const tenant = await newTenant(call);
    const { required } = await publishedNotice(call, tenant.token);
    const apiKey = await tenant.apiKey();
    const serverKey = await tenant.apiKey('secret');
    const sdk = (body: Record<string, unknown>, ip = '203.0.113.9') =>
      call('POST', '/api/v1/consent/sdk-record', { ip, body: { apiKey, status: 'ACCEPTED', purposes: { [required]: true }, ...body } });
    const given = 'a'.repeat(64);
    // A raw identifier is server-to-server: the secret key's (identifierHash wins when both come).
    const byHash = await sdk({ apiKey: serverKey, identifierHash: given, identifier: 'ignored@example.com' });
    expect(byHash.status).toBe(201);
    const byIdentifier = await sdk({ apiKey: serverKey, identifier: 'meera@example.com' });
    const byIp = await sdk({});
    const hashOf = async (recordId: string) =>
      (await call('GET', `/api/v1/consent/records/${recordId}/proof`, { token: tenant.token })).body.data.payload;
    expect((await hashOf(byHash.body.data.consentRecordId)).dataPrincipalHash).toBe(given);
    expect((await hashOf(byIdentifier.body.data.consentRecordId)).dataPrincipalHash).toBe(sha256('meera@example.com'));
    const ipRecord = await hashOf(byIp.body.data.consentRecordId);
    expect(ipRecord.dataPrincipalHash).toBe(sha256('ip:203.0.113.9'));
    expect(ipRecord).toMatchObject({ ipAddress: '203.0.113.9', positionShown: 'bottom-right', languageShown: 'EN' });
    const badHash = await sdk({ identifierHash: 'A'.repeat(64) });
    expect(badHash.body.error.fields.identifierHash).toBeDefined();
    const badStatus = await sdk({ status: 'MAYBE' });
    expect(badStatus.body.error.fields.status).toBeDefined();
  });

  it('stops at the monthly consent volume with 429 MONTHLY_LIMIT_REACHED and opens next month', async () => {
    const { setClock, resetClock, fixedClock } = await import('../shared/clock');
    // Everything, tokens included, happens in the last minutes of a month.
    setClock(fixedClock('2026-11-30T23:59:00Z'));
    const tenant = await newTenant(call);
    const { noticeId, required } = await publishedNotice(call, tenant.token);
    const apiKey = await tenant.apiKey();
    const { UpdateCommand } = await import('../shared/db/commands');
    const { db, tableName } = await import('../shared/db/client');
    await db().send(new UpdateCommand({ TableName: tableName(), Key: { PK: `TENANT#${tenant.tenantId}`, SK: 'TENANT' }, UpdateExpression: 'SET limits.monthlyConsentLimit = :two', ExpressionAttributeValues: { ':two': 2 } }));
    const sdk = () => call('POST', '/api/v1/consent/sdk-record', { body: { apiKey, status: 'ACCEPTED', purposes: { [required]: true } } });
    try {
      expect((await sdk()).status).toBe(201);
      expect((await sdk()).status).toBe(201);
      const limited = await sdk();
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('MONTHLY_LIMIT_REACHED');
      expect(Number(limited.headers.get('retry-after'))).toBe(60);
      // Dashboard records are not SDK volume.
      expect((await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: 'x@example.com', consentGiven: { [required]: true } })).status).toBe(201);
      setClock(fixedClock('2026-12-01T00:00:01Z'));
      expect((await sdk()).status).toBe(201);
    } finally {
      resetClock();
    }
  });
});

describe('counters', () => {
  it('count 100 concurrent records exactly once the log has sequenced them, and say how current they are', async () => {
    // 100 writes plus the setup would pass the dashboard's 100 a minute.
    process.env.RATE_LIMIT_BEARER_PER_MINUTE = '1000';
    onTestFinished(() => {
      delete process.env.RATE_LIMIT_BEARER_PER_MINUTE;
    });
    const tenant = await newTenant(call);
    const { noticeId, required, optional } = await publishedNotice(call, tenant.token);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: `user${index}@example.com`, consentGiven: { [required]: true, [optional]: index % 2 === 0 } }),
      ),
    );
    expect(results.filter((result) => result.status === 201)).toHaveLength(100);
    await waitForLog(tenant.tenantId, 100, { signed: false });
    const analytics = (await call('GET', '/api/v1/consent/analytics', { token: tenant.token })).body.data;
    expect(analytics).toMatchObject({ totalConsents: 100, consentGiven: 100, consentWithdrawn: 0, withdrawalRate: 0, recentConsents: 100 });
    expect(analytics.byPurpose).toEqual(
      expect.arrayContaining([
        { purposeId: required, name: 'Order processing', given: 100, withdrawn: 0 },
        { purposeId: optional, name: 'Marketing', given: 50, withdrawn: 0 },
      ]),
    );
    const listed = (await call('GET', '/api/v1/consent/records?limit=50&page=2', { token: tenant.token })).body.data;
    expect(listed.total).toBe(100);
    expect(listed.items).toHaveLength(50);
    expect(Date.parse(listed.countsAsOf)).toBeGreaterThan(Date.now() - 60_000);
    const active = (await call('GET', '/api/v1/consent/records?limit=50&status=active', { token: tenant.token })).body.data;
    expect(active.items).toHaveLength(50);
    const notices = (await call('GET', '/api/v1/notices', { token: tenant.token })).body.data;
    expect(notices[0].consentCount).toBe(100);
  });
});

describe('records-list cursor', () => {
  it('accepts only an unmodified cursor issued for the same tenant and listing: anything else is 400 on cursor', async () => {
    const setUp = async () => {
      const tenant = await newTenant(call);
      const { noticeId, required } = await publishedNotice(call, tenant.token);
      for (let i = 0; i < 3; i += 1) {
        expect((await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: `cursor-${i}@example.com`, consentGiven: { [required]: true } })).status).toBe(201);
      }
      return tenant;
    };
    const [tenant, other] = await Promise.all([setUp(), setUp()]);
    const list = (token: string, query: string) => call('GET', `/api/v1/consent/records?${query}`, { token });
    const first = await list(tenant.token, 'limit=1');
    const cursor: string = first.body.data.nextCursor;
    const second = await list(tenant.token, `limit=1&cursor=${cursor}`);
    expect(second.status).toBe(200);
    expect(second.body.data.items[0].id).toEqual(expect.any(String));
    expect(second.body.data.items[0].id).not.toBe(first.body.data.items[0].id);

    const [payload, tag] = cursor.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const otherKey = Buffer.from(JSON.stringify({ ...decoded, key: { ...decoded.key, PK: `TENANT#${other.tenantId}` } })).toString('base64url');
    const refused: Array<[string, string, string]> = [
      ['another tenant', other.token, cursor],
      ['another order', tenant.token, `${cursor}&sortOrder=asc`],
      ['another filter', tenant.token, `${cursor}&status=active`],
      ['a modified key with the old tag', tenant.token, `${otherKey}.${tag}`],
      ['an unsigned key (the old format)', tenant.token, Buffer.from(JSON.stringify({ segment: 0, key: { PK: 'x', SK: 'y' } })).toString('base64url')],
      ['a flipped tag', tenant.token, `${payload}.${tag.startsWith('A') ? 'B' : 'A'}${tag.slice(1)}`],
      ['a negative segment', tenant.token, `${Buffer.from(JSON.stringify({ segment: -1 })).toString('base64url')}.${tag}`],
      ['garbage', tenant.token, '%%%.!!!'],
      ['an empty tag', tenant.token, `${payload}.`],
    ];
    for (const [label, token, value] of refused) {
      const response = await list(token, `limit=1&cursor=${value.includes('&') ? value : encodeURIComponent(value)}`);
      expect(response.status, label).toBe(400);
      expect(response.body.error.code, label).toBe('VALIDATION_ERROR');
      expect(Object.keys(response.body.error.fields).some((key) => key.endsWith('cursor')), label).toBe(true);
    }
  });
});
