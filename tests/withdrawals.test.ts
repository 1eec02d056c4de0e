import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { newTenant, useApi } from './support/api';
import { publishedNotice, recordConsent, sha256 } from './support/consent';
import { waitForLog } from './support/evidence';
import { useEvidenceLog } from './support/workers';
import { mailsTo } from './support/mail';

const { call } = useApi();
// Counters count a record when the log sequences it: in either order with its withdrawal, they converge.
useEvidenceLog();
afterEach(() => resetClock());

const setup = async () => {
  const tenant = await newTenant(call);
  const notice = await publishedNotice(call, tenant.token);
  const email = `principal-${Math.random().toString(36).slice(2)}@example.com`;
  const recorded = await recordConsent(call, tenant.token, {
    noticeId: notice.noticeId,
    dataPrincipalIdentifier: email,
    consentGiven: { [notice.required]: true, [notice.optional]: true },
  });
  return { tenant, ...notice, email, recordId: recorded.body.data.consentRecordId as string };
};

const statusOf = async (token: string, email: string) =>
  (await call('GET', `/api/v1/consent/status/${sha256(email)}`, { token })).body.data[0];

describe('dashboard withdrawal', () => {
  it('fully withdraws, opens a 7-day task, mails principal and DPO, and moves the counters', async () => {
    const { tenant, noticeId, email, recordId } = await setup();
    const response = await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId, reason: 'Closed my account' } });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ withdrawnCount: 1, isFullWithdrawal: true, withdrawalId: expect.any(String), complianceTask: { dueAt: expect.any(String) } });
    const due = Date.parse(response.body.data.complianceTask.dueAt) - Date.parse(response.body.data.withdrawnAt);
    expect(due).toBe(7 * 86_400_000);

    const status = await statusOf(tenant.token, email);
    expect(status).toMatchObject({ consentRecordId: recordId, isWithdrawn: true, isPartiallyWithdrawn: false, withdrawnAt: response.body.data.withdrawnAt });
    expect(status.withdrawnPurposes).toHaveLength(2);

    const again = await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId } });
    expect(again.status).toBe(409);
    const unknown = await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: 'nobody@example.com', noticeId } });
    expect(unknown.status).toBe(404);

    await waitForLog(tenant.tenantId, 2, { signed: false });
    const analytics = (await call('GET', '/api/v1/consent/analytics', { token: tenant.token })).body.data;
    expect(analytics).toMatchObject({ totalConsents: 1, consentGiven: 0, consentWithdrawn: 1, withdrawalRate: 100 });
    expect(analytics.byPurpose.every((purpose: { withdrawn: number }) => purpose.withdrawn === 1)).toBe(true);

    const tasks = (await call('GET', '/api/v1/compliance-tasks?status=OPEN', { token: tenant.token })).body.data;
    expect(tasks).toEqual([expect.objectContaining({ withdrawalId: response.body.data.withdrawalId, status: 'OPEN' })]);

    expect((await mailsTo(email)).some((mail) => mail.body.text?.includes(response.body.data.withdrawalId))).toBe(true);
    expect((await mailsTo(tenant.adminEmail)).some((mail) => mail.body.text?.includes(response.body.data.withdrawalId))).toBe(true);

    const viewer = await tenant.userToken('VIEWER');
    expect((await call('POST', '/api/v1/consent/withdraw', { token: viewer, body: { dataPrincipalIdentifier: email, noticeId } })).status).toBe(403);
  });

  it('tracks compliance tasks through OVERDUE to DONE', async () => {
    const { tenant, noticeId, email } = await setup();
    const { complianceTask } = (await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId } })).body.data;
    setClock(offsetClock(8 * 86_400_000));
    const token = (await call('POST', '/api/v1/auth/login', { body: { email: tenant.adminEmail, password: 'correct-horse-battery' } })).body.data.token;
    expect((await call('GET', '/api/v1/compliance-tasks?status=OVERDUE', { token })).body.data.map((task: { taskId: string }) => task.taskId)).toEqual([complianceTask.taskId]);
    expect((await call('GET', '/api/v1/compliance-tasks?status=OPEN', { token })).body.data).toEqual([]);
    const done = await call('POST', `/api/v1/compliance-tasks/${complianceTask.taskId}/complete`, { token });
    expect(done.body.data).toMatchObject({ status: 'DONE', completedAt: expect.any(String) });
    expect((await call('POST', `/api/v1/compliance-tasks/${complianceTask.taskId}/complete`, { token })).status).toBe(409);
    expect((await call('GET', '/api/v1/compliance-tasks?status=DONE', { token })).body.data).toHaveLength(1);
    expect((await call('POST', '/api/v1/compliance-tasks/0f8fad5b-d9cb-469f-a165-70867728950e/complete', { token })).status).toBe(404);
  });
});

describe('withdrawal links', () => {
  it('shows the consent, withdraws chosen purposes once, and refuses reuse', async () => {
    const { tenant, noticeId, email, optional, required } = await setup();
    const link = await call('POST', '/api/v1/consent/withdrawal-token', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId } });
    expect(link.status).toBe(201);
    const { token, portalUrl, expiresAt } = link.body.data;
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(portalUrl).toContain(token);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);

    const view = await call('GET', `/api/v1/consent/portal/${token}`);
    expect(view.status).toBe(200);
    expect(view.body.data.purposes.map((purpose: { id: string; granted: boolean }) => [purpose.id, purpose.granted])).toEqual([
      [required, true],
      [optional, true],
    ]);

    const partial = await call('POST', `/api/v1/consent/portal/${token}/withdraw`, { body: { withdrawAll: false, purposeIds: [optional], reason: 'No more marketing' } });
    expect(partial.status).toBe(200);
    expect(partial.body.data).toMatchObject({ isFullWithdrawal: false, purposesWithdrawn: [optional], withdrawnCount: 1 });
    // The confirmation names the purpose as the principal saw it, not by its id.
    const confirmation = (await mailsTo(email)).find((mail) => mail.body.text?.includes(partial.body.data.withdrawalId));
    expect(confirmation?.body.text).toContain('these purposes: Marketing');
    expect(confirmation?.body.text).not.toContain(optional);
    const status = await statusOf(tenant.token, email);
    expect(status).toMatchObject({ isWithdrawn: false, isPartiallyWithdrawn: true, withdrawnAt: null, withdrawnPurposes: [optional] });

    const reuse = await call('POST', `/api/v1/consent/portal/${token}/withdraw`, { body: {} });
    expect(reuse.status).toBe(409);
    expect(reuse.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'USED', usedAt: expect.any(String), tenant: { slug: tenant.slug } } });
    const reopened = await call('GET', `/api/v1/consent/portal/${token}`);
    expect(reopened.status).toBe(409);
    expect(reopened.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'USED' } });
    const unknown = await call('GET', `/api/v1/consent/portal/${'x'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND', details: { reason: 'NOT_FOUND' } });
    // The link is a secret: no answer about it, success or error, may be kept by a cache.
    for (const response of [view, partial, reuse, reopened, unknown]) expect(response.headers.get('cache-control')).toBe('no-store');
    const noPurposes = await call('POST', '/api/v1/consent/withdrawal-token', { token: tenant.token, body: { dataPrincipalIdentifier: 'nobody@example.com', noticeId } });
    expect(noPurposes.status).toBe(404);
  });

  it('refuses an expired link with 409 CONFLICT, reason EXPIRED', async () => {
    const { tenant, noticeId, email } = await setup();
    const { token } = (await call('POST', '/api/v1/consent/withdrawal-token', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId } })).body.data;
    setClock(offsetClock(7 * 86_400_000 + 1000));
    for (const response of [await call('POST', `/api/v1/consent/portal/${token}/withdraw`, { body: {} }), await call('GET', `/api/v1/consent/portal/${token}`)]) {
      expect(response.status).toBe(409);
      expect(response.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'EXPIRED', expiredAt: expect.any(String), tenant: { slug: tenant.slug }, newLinkUrl: expect.any(String) } });
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('refuses withdrawAll with purposeIds, and purposes the record never granted, naming purposeIds', async () => {
    const tenant = await newTenant(call);
    const { noticeId, required, optional } = await publishedNotice(call, tenant.token);
    const email = `partial-${Math.random().toString(36).slice(2)}@example.com`;
    await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: email, consentGiven: { [required]: true, [optional]: false } });
    const { token } = (await call('POST', '/api/v1/consent/withdrawal-token', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId } })).body.data;
    const both = await call('POST', `/api/v1/consent/portal/${token}/withdraw`, { body: { withdrawAll: true, purposeIds: [optional] } });
    const defaulted = await call('POST', `/api/v1/consent/portal/${token}/withdraw`, { body: { purposeIds: [required] } });
    const neverGranted = await call('POST', `/api/v1/consent/portal/${token}/withdraw`, { body: { withdrawAll: false, purposeIds: [optional] } });
    for (const response of [both, defaulted, neverGranted]) {
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.fields).toHaveProperty('purposeIds');
    }
    expect(neverGranted.body.error.fields.purposeIds).toContain(optional);
    // Nothing was withdrawn and the link still works.
    expect((await statusOf(tenant.token, email)).withdrawnPurposes).toEqual([]);
    expect((await call('POST', `/api/v1/consent/portal/${token}/withdraw`, { body: { withdrawAll: false, purposeIds: [required] } })).status).toBe(200);
  });

  it('lets exactly one of 50 simultaneous redemptions through', async () => {
    const { tenant, noticeId, email } = await setup();
    const { token } = (await call('POST', '/api/v1/consent/withdrawal-token', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId } })).body.data;
    const results = await Promise.all(Array.from({ length: 50 }, () => call('POST', `/api/v1/consent/portal/${token}/withdraw`, { body: {} })));
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);
    expect(new Set(results.filter((result) => result.status === 409).map((result) => `${result.body.error.code} ${result.body.error.details?.reason}`))).toEqual(new Set(['CONFLICT USED']));
    const tasks = (await call('GET', '/api/v1/compliance-tasks', { token: tenant.token })).body.data;
    expect(tasks).toHaveLength(1);
  });
});

describe('public withdrawal', () => {
  it('answers known and unknown emails alike, and withdraws only for the known one', async () => {
    process.env.WITHDRAW_PUBLIC_MIN_MS = '50';
    onTestFinished(() => {
      delete process.env.WITHDRAW_PUBLIC_MIN_MS;
    });
    const { tenant, email } = await setup();
    const apiKey = await tenant.apiKey();
    const known = await call('POST', '/api/v1/consent/withdraw-public', { ip: '203.0.113.50', body: { apiKey, email } });
    const unknown = await call('POST', '/api/v1/consent/withdraw-public', { ip: '203.0.113.51', body: { apiKey, email: 'stranger@example.com' } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(Object.keys(known.body.data).sort()).toEqual(Object.keys(unknown.body.data).sort());
    expect(Object.keys(known.body.data).sort()).toEqual(['confirmationRequired', 'isFullWithdrawal', 'purposesWithdrawn', 'tenant', 'withdrawalId', 'withdrawnAt', 'withdrawnCount']);
    expect([...known.headers.keys()].filter((name) => name !== 'x-request-id' && name !== 'date').sort()).toEqual(
      [...unknown.headers.keys()].filter((name) => name !== 'x-request-id' && name !== 'date').sort(),
    );
    expect(known.body.data).toMatchObject({ withdrawnCount: 1, isFullWithdrawal: true, withdrawalId: expect.any(String) });
    expect(unknown.body.data).toMatchObject({ withdrawnCount: 0, withdrawalId: null, purposesWithdrawn: [] });
    expect((await statusOf(tenant.token, email)).isWithdrawn).toBe(true);
    expect((await mailsTo(email)).length).toBeGreaterThan(0);
    expect(await mailsTo('stranger@example.com')).toEqual([]);
  });

  it('with publicWithdrawal CONFIRM_BY_EMAIL, answers every address alike and mails a single-use link that withdraws when the person confirms', async () => {
    process.env.WITHDRAW_PUBLIC_MIN_MS = '300';
    onTestFinished(() => {
      delete process.env.WITHDRAW_PUBLIC_MIN_MS;
    });
    const { tenant, email } = await setup();
    const apiKey = await tenant.apiKey();
    expect((await call('PUT', '/api/v1/consent/settings', { token: tenant.token, body: { publicWithdrawal: 'CONFIRM_BY_EMAIL' } })).status).toBe(200);
    const timed = async (address: string, ip: string) => {
      const started = Date.now();
      const response = await call('POST', '/api/v1/consent/withdraw-public', { ip, body: { apiKey, email: address } });
      return { response, elapsed: Date.now() - started };
    };
    const stranger = `stranger-${Math.random().toString(36).slice(2)}@example.com`;
    const known = await timed(email, '203.0.113.60');
    const unknown = await timed(stranger, '203.0.113.61');
    for (const { response, elapsed } of [known, unknown]) {
      expect(response.status).toBe(200);
      expect(elapsed).toBeGreaterThanOrEqual(300);
    }
    const { withdrawnAt: _known, ...knownBody } = known.response.body.data;
    const { withdrawnAt: _unknown, ...unknownBody } = unknown.response.body.data;
    expect(knownBody).toEqual(unknownBody);
    expect(knownBody).toMatchObject({ withdrawalId: null, withdrawnCount: 0, confirmationRequired: true, tenant: { slug: tenant.slug } });
    // Nothing is withdrawn until the person confirms.
    expect((await statusOf(tenant.token, email)).isWithdrawn).toBe(false);
    expect(await mailsTo(stranger)).toEqual([]);
    const link = (await mailsTo(email)).map((mail) => /\/portal\/([\w-]{43})\b/.exec(mail.body.text ?? '')?.[1]).find(Boolean);
    expect(link).toBeDefined();
    const confirmed = await call('POST', `/api/v1/consent/portal/${link}/withdraw`, { body: {} });
    expect(confirmed.status).toBe(200);
    expect((await statusOf(tenant.token, email)).isWithdrawn).toBe(true);
    expect((await call('POST', `/api/v1/consent/portal/${link}/withdraw`, { body: {} })).body.error.details.reason).toBe('USED');
  });

  it('allows 5 requests per hour per IP', async () => {
    const { tenant } = await setup();
    const apiKey = await tenant.apiKey();
    const ip = '203.0.113.77';
    // At the start of an hour, so the six requests share one window.
    setClock(offsetClock(3_600_000 - (Date.now() % 3_600_000) + 1_000));
    process.env.WITHDRAW_PUBLIC_MIN_MS = '0';
    onTestFinished(() => {
      delete process.env.WITHDRAW_PUBLIC_MIN_MS;
    });
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await call('POST', '/api/v1/consent/withdraw-public', { ip, body: { apiKey, email: `n${i}@example.com` } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('listing by status', () => {
  it('filters and sorts with exact totals', async () => {
    const tenant = await newTenant(call);
    const { noticeId, required, optional } = await publishedNotice(call, tenant.token);
    const emails = ['a', 'b', 'c', 'd', 'e'].map((name) => `${name}-${Math.random().toString(36).slice(2)}@example.com`);
    for (const email of emails) {
      await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: email, consentGiven: { [required]: true, [optional]: true } });
    }
    await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: emails[0], noticeId } });
    await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: emails[3], noticeId } });
    const { token } = (await call('POST', '/api/v1/consent/withdrawal-token', { token: tenant.token, body: { dataPrincipalIdentifier: emails[1], noticeId } })).body.data;
    await call('POST', `/api/v1/consent/portal/${token}/withdraw`, { body: { withdrawAll: false, purposeIds: [optional] } });

    const list = async (query: string) => (await call('GET', `/api/v1/consent/records?${query}`, { token: tenant.token })).body.data;
    const hashes = (page: { items: { dataPrincipalHash: string }[] }) => page.items.map((item) => emails.findIndex((email) => sha256(email) === item.dataPrincipalHash));

    // Five records and three withdrawals, each a leaf of the log.
    await waitForLog(tenant.tenantId, 8, { signed: false });
    expect((await list('status=active')).total).toBe(2);
    expect((await list('status=partial')).total).toBe(1);
    expect((await list('status=withdrawn')).total).toBe(2);
    expect(hashes(await list('sortBy=createdAt&sortOrder=asc'))).toEqual([0, 1, 2, 3, 4]);
    expect(hashes(await list('sortBy=createdAt&sortOrder=desc'))).toEqual([4, 3, 2, 1, 0]);
    expect(hashes(await list('status=withdrawn&sortBy=withdrawnAt&sortOrder=desc'))).toEqual([3, 0]);
    expect(hashes(await list('sortBy=withdrawnAt&sortOrder=desc'))).toEqual([3, 0, 1, 4, 2]);
    const paged = await list('limit=2&page=2');
    expect(paged).toMatchObject({ total: 5, page: 2, limit: 2 });
    expect(hashes(paged)).toEqual([2, 1]);
    const first = await list('limit=2');
    const next = await list(`limit=2&cursor=${first.nextCursor}`);
    expect(hashes(next)).toEqual([2, 1]);
    const searched = await list(`search=${encodeURIComponent(emails[1]!.toUpperCase())}`);
    expect(searched.total).toBe(1);
    expect(searched.items[0]).toMatchObject({ isPartiallyWithdrawn: true, consentGiven: true, currentNoticeVersion: 1, noticeVersionNumber: 1 });
    expect((await call('GET', '/api/v1/consent/records?limit=51', { token: tenant.token })).status).toBe(400);
    expect((await call('GET', '/api/v1/consent/records?search=partial', { token: tenant.token })).status).toBe(400);
  });
});
