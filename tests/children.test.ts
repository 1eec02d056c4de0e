import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { sweepGuardianRequests, sweepMajority } from '../shared/children/sweeper';
import { verifyWebhookSignature } from '../shared/webhooks/signature';
import { newTenant, useApi } from './support/api';
import { useClockReset } from './support/clock';
import { sha256 } from './support/consent';
import { mailsTo } from './support/mail';
import { createNotice, createPurpose, publish } from './support/notices';
import { startReceiver, waitFor } from './support/receiver';
import { useTestWorkers } from './support/workers';
import { failWrites } from './support/storage';

/**
 * A child's decision end to end against the local engines (the API in this process, so the
 * injectable clock reaches it): it waits for the parent; the parent's mail leaves from the stream;
 * the page's routes approve it by each method, refuse it, or let it expire; events are delivered
 * and signed; the receipt's withdrawal link works; nobody holding only what the API, the page or
 * a receipt shows can decide in the parent's place.
 */
const { call } = useApi();
useTestWorkers();
useClockReset();

const hookSecret = 'children-hook-secret-0123456789';
const ownTenantsOnly = (tenantId: string) => (id: string) => id === tenantId;

/** A virtual-token issuer on loopback: its JWKS, and how often it was asked (the canary). */
let issuer: { server: Server; port: number; hits: number; sign: (claims: Record<string, unknown>) => Promise<string>; url: string };
beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  const state = { hits: 0 };
  const server = createServer((request, response) => {
    state.hits += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  issuer = {
    server,
    port,
    get hits() {
      return state.hits;
    },
    set hits(value) {
      state.hits = value;
    },
    url: `http://127.0.0.1:${port}/jwks.json`,
    sign: (claims) => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).sign(privateKey),
  };
  process.env.CHILDREN_JWKS_LOCAL_EXCEPTION = `127.0.0.1:${port}`;
});
afterAll(async () => {
  delete process.env.CHILDREN_JWKS_LOCAL_EXCEPTION;
  await new Promise<void>((resolve) => issuer.server.close(() => resolve()));
});

/** A published notice in English, Hindi and Urdu, with two purposes (the first required). */
const publishedNotice = async (token: string) => {
  const required = await createPurpose(call, token, { name: 'Order processing', dataCategories: ['email', 'address'] });
  const optional = await createPurpose(call, token, { name: 'Recommendations', dataCategories: ['email'] });
  const noticeId = await createNotice(call, token, [required, optional], {
    translations: {
      HI: { title: 'गोपनीयता सूचना', introText: 'हम आपका डेटा केवल नीचे दिए गए उद्देश्यों के लिए संसाधित करते हैं।' },
      UR: { title: 'رازداری کا نوٹس', introText: 'ہم آپ کا ڈیٹا صرف نیچے دیے گئے مقاصد کے لیے استعمال کرتے ہیں۔' },
    },
  });
  const published = await publish(call, token, noticeId);
  if (published.status !== 200) throw new Error(`publish: ${JSON.stringify(published.body)}`);
  return { noticeId, required, optional };
};

const setup = async (policy: Record<string, unknown> = {}) => {
  const tenant = await newTenant(call);
  const notice = await publishedNotice(tenant.token);
  const settings = await call('PUT', '/api/v1/children/settings', {
    token: tenant.token,
    body: { audience: 'MIXED', askAge: true, methods: ['TENANT_ATTESTED', 'SELF_DECLARED', 'VIRTUAL_TOKEN'], tokenIssuers: [{ issuer: 'https://issuer.test.example', jwksUrl: issuer.url, ageClaim: 'age_over_18' }], ...policy },
  });
  expect(settings.status).toBe(200);
  const [publishable, secret] = [await tenant.apiKey(), await tenant.apiKey('secret')];
  const child = `child-${Math.random().toString(36).slice(2)}@example.in`;
  const parent = `parent-${Math.random().toString(36).slice(2)}@example.in`;
  const sdkRecord = (body: Record<string, unknown>, apiKey = publishable) =>
    call('POST', '/api/v1/consent/sdk-record', { body: { apiKey, status: 'ACCEPTED', purposes: { [notice.required]: true, [notice.optional]: true }, identifierHash: sha256(child), language: 'HI', ...body } });
  const status = async () => (await call('GET', `/api/v1/consent/status/${sha256(child)}`, { token: tenant.token })).body.data[0];
  return { tenant, notice, publishable, secret, child, parent, sdkRecord, status };
};

/** The link in the newest request mail to `address` (the mail leaves from the stream within seconds). */
const linkIn = async (address: string, previous?: string): Promise<string> =>
  waitFor(async () => {
    const links = (await mailsTo(address)).flatMap((mail) => [...(mail.body.text ?? '').matchAll(/\/portal\/g\/(g[0-9a-f]{32}[A-Za-z0-9_-]{43})/g)].map((match) => match[1]!));
    return links.find((link) => link !== previous);
  }, 30_000);

const childBody = (parent: string, extra: Record<string, unknown> = {}) => ({ principalStatus: 'CHILD', guardianEmail: parent, ...extra });

describe('a child\'s consent waits for the parent', () => {
  it('refuses every child for an ADULTS audience, and a prohibited purpose for a child', async () => {
    const { tenant, notice, sdkRecord, parent } = await setup({ audience: 'ADULTS' });
    const refused = await sdkRecord(childBody(parent));
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toHaveProperty('principalStatus');
    expect((await call('PUT', '/api/v1/children/settings', { token: tenant.token, body: { audience: 'CHILD_DIRECTED' } })).status).toBe(200);
    expect((await call('PUT', `/api/v1/purposes/${notice.optional}`, { token: tenant.token, body: { childProhibited: true } })).status).toBe(200);
    const prohibited = await sdkRecord(childBody(parent));
    expect(prohibited.status).toBe(400);
    expect(prohibited.body.error.fields.purposes).toContain(notice.optional);
    // Declined, it may be recorded; an adult may still grant it; a child must name a guardian.
    expect((await sdkRecord(childBody(parent, { purposes: { [notice.required]: true, [notice.optional]: false } }))).status).toBe(201);
    expect((await sdkRecord({})).status).toBe(201);
    expect((await sdkRecord({ principalStatus: 'CHILD' })).body.error.fields).toHaveProperty('guardianEmail');
    const settings = (await call('GET', '/api/v1/children/settings', { token: await tenant.userToken('VIEWER') })).body.data;
    expect(settings).toMatchObject({ audience: 'CHILD_DIRECTED', childProhibitedPurposes: [notice.optional] });
  });

  it('self-declared: the mail in the child\'s language, the page, approval, events, receipt, withdrawal by the parent', async () => {
    const { tenant, notice, sdkRecord, parent, status } = await setup();
    const receiver = await startReceiver(() => ({ status: 200 }));
    const hooked = await call('POST', '/api/v1/webhooks', {
      token: tenant.token,
      body: { label: 'r', url: receiver.url, secret: hookSecret, events: ['consent.recorded', 'consent.guardian_requested', 'consent.guardian_verified', 'consent.withdrawn'] },
    });
    expect(hooked.status).toBe(201);
    const recorded = await sdkRecord(childBody(parent));
    expect(recorded.status).toBe(201);
    expect(recorded.body.data).toMatchObject({ consentState: 'AWAITING_GUARDIAN', guardianRequestId: expect.any(String) });
    const recordId = recorded.body.data.consentRecordId as string;
    // No consent anywhere until the parent approves.
    expect(await status()).toMatchObject({ consentRecordId: recordId, consentState: 'AWAITING_GUARDIAN', consentGiven: { [notice.required]: false, [notice.optional]: false } });

    const token = await linkIn(parent);
    const mail = (await mailsTo(parent))[0]!;
    expect(mail.body.html).toContain('lang="hi"');
    const page = await call('GET', `/api/v1/children/guardian/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toContain('no-store');
    expect(page.body.data).toMatchObject({ language: 'HI', principalStatus: 'CHILD', methods: ['SELF_DECLARED', 'VIRTUAL_TOKEN'] });
    expect(JSON.stringify(page.body)).not.toContain(token);

    const young = await call('POST', `/api/v1/children/guardian/${token}/approve`, { body: { method: 'SELF_DECLARED', name: 'Asha', birthYear: new Date().getUTCFullYear() - 17, declaration: true } });
    expect(young.status).toBe(400);
    expect(young.body.error.fields).toHaveProperty('birthYear');
    const approved = await call('POST', `/api/v1/children/guardian/${token}/approve`, {
      body: { method: 'SELF_DECLARED', name: 'Asha Rao', birthYear: 1985, declaration: true, consentGiven: { [notice.optional]: false } },
    });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'VERIFIED', consentState: 'ACTIVE', consentGiven: { [notice.required]: true, [notice.optional]: false } });
    expect(await status()).toMatchObject({ consentState: 'ACTIVE', guardianVerification: { attribution: 'GUARDIAN_VERIFIED', method: 'SELF_DECLARED' }, consentGiven: { [notice.required]: true, [notice.optional]: false } });
    // The link is spent: the same 404 as a link that never was.
    const again = await call('POST', `/api/v1/children/guardian/${token}/approve`, { body: { method: 'SELF_DECLARED', name: 'Asha Rao', birthYear: 1985, declaration: true } });
    const unknown = await call('GET', `/api/v1/children/guardian/g${'0'.repeat(32)}${'A'.repeat(43)}`);
    expect(again.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(again.body).toEqual(unknown.body);

    // The request's logged document: one, holding the guardian's hash, the method, the proof's hash, the decision.
    const evidence = (await call('GET', `/api/v1/children/guardian-requests/${recorded.body.data.guardianRequestId}`, { token: tenant.token })).body.data;
    expect(evidence.request).toMatchObject({ status: 'VERIFIED', method: 'SELF_DECLARED' });
    expect(evidence.documents).toHaveLength(1);
    expect(JSON.parse(evidence.documents[0].canonical).content).toMatchObject({ decision: 'APPROVED', method: 'SELF_DECLARED', guardianHash: sha256(parent), proofHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(evidence.documents[0].canonical).not.toContain('Asha');

    // Events: requested, verified, then consent.recorded with the consents in force; each signed.
    const byType = await waitFor(() => {
      const types = new Map(receiver.received.map((entry) => [JSON.parse(entry.rawBody.toString()).type as string, entry]));
      return ['consent.guardian_requested', 'consent.guardian_verified', 'consent.recorded'].every((type) => types.has(type)) ? types : undefined;
    }, 40_000);
    for (const entry of byType.values()) expect(verifyWebhookSignature(entry.rawBody, entry.headers['x-service-signature'] as string, hookSecret)).toBe(true);
    expect(JSON.parse(byType.get('consent.recorded')!.rawBody.toString()).data).toMatchObject({ consentRecordId: recordId, consents: { [notice.required]: true, [notice.optional]: false } });

    // The receipt carries a withdrawal link that works like the others.
    const receipt = await waitFor(async () => (await mailsTo(parent)).find((entry) => /\/portal\/[A-Za-z0-9_-]{43}\b/.test(entry.body.text ?? '') && !entry.body.text!.includes('/portal/g/')), 20_000);
    const withdrawalToken = /\/portal\/([A-Za-z0-9_-]{43})\b/.exec(receipt.body.text!)![1]!;
    const withdrawn = await call('POST', `/api/v1/consent/portal/${withdrawalToken}/withdraw`, { body: {} });
    expect(withdrawn.status).toBe(200);
    expect(await status()).toMatchObject({ isWithdrawn: true });
    await receiver.close();
  });

  it('nobody holding only what the API, the page or a receipt shows can approve', async () => {
    const { tenant, sdkRecord, parent } = await setup();
    const recorded = (await sdkRecord(childBody(parent))).body.data;
    const token = await linkIn(parent);
    const page = (await call('GET', `/api/v1/children/guardian/${token}`)).body.data;
    const listed = (await call('GET', '/api/v1/children/guardian-requests?status=PENDING', { token: tenant.token })).body.data;
    const shown = [recorded.guardianRequestId, recorded.consentRecordId, recorded.proofHash, recorded.receipt, recorded.withdrawalKey, JSON.stringify(page), JSON.stringify(listed)].join(' ');
    expect(shown).not.toContain(token.slice(33));
    const hex = (recorded.guardianRequestId as string).replaceAll('-', '');
    for (const guess of [`g${hex}${(recorded.proofHash as string).slice(0, 43)}`, `g${hex}${Buffer.from(recorded.withdrawalKey as string).toString('base64url').slice(0, 43)}`, `g${hex}${'A'.repeat(43)}`]) {
      const attempt = await call('POST', `/api/v1/children/guardian/${guess}/approve`, { body: { method: 'SELF_DECLARED', name: 'Not the parent', birthYear: 1980, declaration: true } });
      expect(attempt.status).toBe(404);
    }
    // TENANT_ATTESTED is not offered without the tenant's attestation; the team cannot approve either.
    expect((await call('POST', `/api/v1/children/guardian/${token}/approve`, { body: { method: 'TENANT_ATTESTED' } })).status).toBe(400);
    expect((await call('GET', `/api/v1/consent/status/${recorded.consentRecordId}`, { token: tenant.token })).status).toBe(400);
  });

  it('virtual token: verified against the issuer\'s JWKS; an unknown issuer, no age claim, the wrong audience, or the local exception off are refused', async () => {
    const { tenant, sdkRecord, parent, status } = await setup();
    await sdkRecord(childBody(parent));
    const token = await linkIn(parent);
    const claims = { iss: 'https://issuer.test.example', aud: tenant.tenantId, exp: Math.floor(Date.now() / 1000) + 600, age_over_18: true };
    const approveWith = async (jws: string) => call('POST', `/api/v1/children/guardian/${token}/approve`, { body: { method: 'VIRTUAL_TOKEN', token: jws } });
    expect((await approveWith(await issuer.sign({ ...claims, iss: 'https://other.example' }))).body.error?.fields?.token).toContain('not one this organisation accepts');
    expect((await approveWith(await issuer.sign({ ...claims, age_over_18: false }))).body.error?.fields?.token).toContain('age_over_18');
    expect((await approveWith(await issuer.sign({ ...claims, aud: 'someone-else' }))).status).toBe(400);
    expect((await approveWith(await issuer.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 }))).status).toBe(400);
    const approved = await approveWith(await issuer.sign(claims));
    expect(approved.status).toBe(200);
    expect(await status()).toMatchObject({ consentState: 'ACTIVE', guardianVerification: { method: 'VIRTUAL_TOKEN' } });
  });

  it('refuses a loopback JWKS without the local exception, never connecting to it', async () => {
    const { tenant, sdkRecord, parent } = await setup({ tokenIssuers: [{ issuer: 'https://issuer.test.example', jwksUrl: `http://127.0.0.1:${issuer.port}/other-path.json`, ageClaim: 'age_over_18' }] });
    await sdkRecord(childBody(parent));
    const token = await linkIn(parent);
    const saved = process.env.CHILDREN_JWKS_LOCAL_EXCEPTION;
    delete process.env.CHILDREN_JWKS_LOCAL_EXCEPTION;
    const before = issuer.hits;
    try {
      const jws = await issuer.sign({ iss: 'https://issuer.test.example', aud: tenant.tenantId, exp: Math.floor(Date.now() / 1000) + 600, age_over_18: true });
      const refused = await call('POST', `/api/v1/children/guardian/${token}/approve`, { body: { method: 'VIRTUAL_TOKEN', token: jws } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.fields.token).toContain('could not be fetched');
      expect(issuer.hits).toBe(before);
    } finally {
      process.env.CHILDREN_JWKS_LOCAL_EXCEPTION = saved;
    }
  });

  it('tenant attested: signed by a live secret key, for this guardian, within 15 minutes', async () => {
    const { sdkRecord, parent, secret, status, child } = await setup();
    const issuedAt = Math.floor(Date.now() / 1000);
    const guardianIdentifierHash = sha256(parent);
    const sign = (key: string, at: number) => createHmac('sha256', key).update(`${guardianIdentifierHash}.${at}`).digest('hex');
    const attested = (attestation: Record<string, unknown>, apiKey = secret) => sdkRecord(childBody(parent, { identifier: child, identifierHash: undefined, guardianAttestation: attestation }), apiKey);
    expect((await attested({ guardianIdentifierHash, issuedAt, signature: sign('not-the-key', issuedAt) })).body.error.fields).toHaveProperty('guardianAttestation');
    expect((await attested({ guardianIdentifierHash, issuedAt: issuedAt - 16 * 60, signature: sign(secret, issuedAt - 16 * 60) })).body.error.fields.guardianAttestation).toContain('expired');
    expect((await attested({ guardianIdentifierHash: sha256('someone@else.in'), issuedAt, signature: sign(secret, issuedAt) })).status).toBe(400);
    const recorded = await attested({ guardianIdentifierHash, issuedAt, signature: sign(secret, issuedAt) });
    expect(recorded.status).toBe(201);
    const token = await linkIn(parent);
    const approved = await call('POST', `/api/v1/children/guardian/${token}/approve`, { body: { method: 'TENANT_ATTESTED' } });
    expect(approved.status).toBe(200);
    expect(await status()).toMatchObject({ consentState: 'ACTIVE', guardianVerification: { method: 'TENANT_ATTESTED' } });
  });

  it('refusal, expiry and resend: the record never comes into force; a resent link voids the old one', async () => {
    const { tenant, sdkRecord, parent, status } = await setup();
    await sdkRecord(childBody(parent));
    const first = await linkIn(parent);
    const requestId = (await call('GET', '/api/v1/children/guardian-requests', { token: tenant.token })).body.data.items[0].requestId as string;
    const resent = await call('POST', `/api/v1/children/guardian-requests/${requestId}/resend`, { token: tenant.token });
    expect(resent.status).toBe(200);
    expect(resent.body.data.linksSent).toBe(2);
    const second = await linkIn(parent, first);
    expect((await call('GET', `/api/v1/children/guardian/${first}`)).status).toBe(404);
    const refused = await call('POST', `/api/v1/children/guardian/${second}/refuse`, { body: { reason: 'Not now' } });
    expect(refused.status).toBe(200);
    expect(await status()).toMatchObject({ consentState: 'GUARDIAN_REFUSED' });
    expect((await call('GET', '/api/v1/children/guardian-requests?status=REFUSED', { token: tenant.token })).body.data.items).toEqual([expect.objectContaining({ requestId, status: 'REFUSED' })]);

    const other = `other-${Math.random().toString(36).slice(2)}@example.in`;
    const waiting = (await sdkRecord(childBody(other, { identifierHash: sha256(other) }))).body.data;
    const link = await linkIn(other);
    setClock(offsetClock(7 * 86_400_000 + 1000));
    expect(await sweepGuardianRequests({ accept: ownTenantsOnly(tenant.tenantId) })).toBe(1);
    // Back to now, so the access token (15 minutes) is valid again; the expiry stays.
    resetClock();
    expect((await call('GET', `/api/v1/consent/status/${sha256(other)}`, { token: tenant.token })).body.data[0]).toMatchObject({ consentRecordId: waiting.consentRecordId, consentState: 'GUARDIAN_EXPIRED' });
    expect((await call('GET', `/api/v1/children/guardian/${link}`)).status).toBe(404);
    expect((await call('POST', `/api/v1/children/guardian-requests/${waiting.guardianRequestId}/resend`, { token: tenant.token })).status).toBe(409);
    // Neither decision came into force, so the counters never counted them: the records list, whose total is the counters', leaves both out, with or without status=active (the Children screen lists them).
    for (const query of ['', '?status=active', '?sortBy=withdrawnAt']) {
      const listed = (await call('GET', `/api/v1/consent/records${query}`, { token: tenant.token })).body.data;
      expect({ query, total: listed.total, items: listed.items }).toEqual({ query, total: 0, items: [] });
    }
  });

  it('an exempt purpose is in force at once, its exemption and condition in the evidence; majority is announced', async () => {
    const { tenant, notice, sdkRecord, parent, status } = await setup();
    expect((await call('PUT', '/api/v1/children/settings', { token: tenant.token, body: { purposeExemptions: [{ purposeId: notice.required, exemption: 'EMAIL_ACCOUNT' }] } })).status).toBe(200);
    const majorityAt = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const recorded = await sdkRecord(childBody(parent, { purposes: { [notice.required]: true, [notice.optional]: false }, majorityAt }));
    expect(recorded.body.data).toMatchObject({ consentState: 'ACTIVE', guardianRequestId: null });
    const proof = (await call('GET', `/api/v1/consent/records/${recorded.body.data.consentRecordId}/proof`, { token: tenant.token })).body.data;
    expect(proof.matches).toBe(true);
    expect(proof.payload.child).toMatchObject({
      principalStatus: 'CHILD',
      guardianHash: sha256(parent),
      majorityAt,
      exemptions: [{ purposeId: notice.required, exemption: 'B3:EMAIL_ACCOUNT', condition: expect.stringContaining('communication by email'), source: expect.stringContaining('schedule4-B') }],
    });
    expect(await status()).toMatchObject({ consentState: 'ACTIVE', consentGiven: { [notice.required]: true } });
    setClock(offsetClock(2 * 86_400_000));
    expect(await sweepMajority({ accept: ownTenantsOnly(tenant.tenantId) })).toBe(1);
    expect(await sweepMajority({ accept: ownTenantsOnly(tenant.tenantId) })).toBe(0);
  });

  it('a guarded person (rule 11): the lawful guardian names the court or authority and the order', async () => {
    const { sdkRecord, parent, status } = await setup();
    expect((await sdkRecord({ principalStatus: 'GUARDED', guardianEmail: parent, majorityAt: '2099-01-01' })).body.error.fields).toHaveProperty('majorityAt');
    expect((await sdkRecord({ principalStatus: 'GUARDED', guardianEmail: parent })).body.data.consentState).toBe('AWAITING_GUARDIAN');
    const token = await linkIn(parent);
    expect((await call('GET', `/api/v1/children/guardian/${token}`)).body.data.principalStatus).toBe('GUARDED');
    const declaration = { method: 'SELF_DECLARED', name: 'Ravi Iyer', birthYear: 1970, declaration: true };
    const without = await call('POST', `/api/v1/children/guardian/${token}/approve`, { body: declaration });
    expect(without.body.error.fields).toHaveProperty('guardianship');
    const approved = await call('POST', `/api/v1/children/guardian/${token}/approve`, { body: { ...declaration, guardianship: { authority: 'Local Level Committee, Pune (National Trust Act, s.14)', orderReference: 'LLC/PN/2024/117' } } });
    expect(approved.status).toBe(200);
    expect(await status()).toMatchObject({ consentState: 'ACTIVE', guardianVerification: { method: 'SELF_DECLARED' } });
  });

  it('a failed write never answers 2xx, and leaves the request and the record as they were', async () => {
    const { tenant, sdkRecord, parent, status } = await setup();
    await sdkRecord(childBody(parent));
    const token = await linkIn(parent);
    const requestId = (await call('GET', '/api/v1/children/guardian-requests', { token: tenant.token })).body.data.items[0].requestId as string;
    const failing = failWrites();
    try {
      expect((await sdkRecord(childBody(`other-${parent}`, { identifierHash: sha256(`other-${parent}`) }))).status).toBeGreaterThanOrEqual(500);
      expect((await call('POST', `/api/v1/children/guardian/${token}/approve`, { body: { method: 'SELF_DECLARED', name: 'Asha Rao', birthYear: 1985, declaration: true } })).status).toBeGreaterThanOrEqual(500);
      expect((await call('POST', `/api/v1/children/guardian/${token}/refuse`, { body: {} })).status).toBeGreaterThanOrEqual(500);
      expect((await call('POST', `/api/v1/children/guardian-requests/${requestId}/resend`, { token: tenant.token })).status).toBeGreaterThanOrEqual(500);
      expect((await call('PUT', '/api/v1/children/settings', { token: tenant.token, body: { askAge: false } })).status).toBeGreaterThanOrEqual(500);
    } finally {
      failing.restore();
    }
    expect(await status()).toMatchObject({ consentState: 'AWAITING_GUARDIAN' });
    expect((await call('GET', `/api/v1/children/guardian/${token}`)).status).toBe(200);
    expect((await call('GET', '/api/v1/children/settings', { token: tenant.token })).body.data.askAge).toBe(true);
    expect((await call('GET', '/api/v1/children/guardian-requests?status=PENDING', { token: tenant.token })).body.data.items).toEqual([expect.objectContaining({ requestId, linksSent: 1 })]);
  });

  it('GET /cmp/consent-status grants a child visitor no optional category, and her choice is not counted as an opt-in', async () => {
    const { tenant, publishable } = await setup();
    expect((await call('PUT', '/api/v1/cmp/config', { token: tenant.token, body: {} })).status).toBe(200);
    const posted = await call('POST', '/api/v1/cmp/web-event', { body: { tenantId: tenant.tenantId, event: 'COOKIE_CONSENT_GIVEN', categories: { NECESSARY: true, FUNCTIONAL: true, ANALYTICS: true }, principalStatus: 'CHILD' } });
    expect(posted.status).toBe(201);
    const visitorId = posted.body.data.consentRecordId as string;
    const answered = (await call('GET', `/api/v1/cmp/consent-status?visitorId=${visitorId}`, { headers: { 'x-api-key': publishable } })).body.data;
    expect(answered).toMatchObject({ found: true, principalStatus: 'CHILD', categories: { NECESSARY: true, FUNCTIONAL: false, ANALYTICS: false, MARKETING: false } });
  });

  it('a childProhibited purpose can be created, and a new purpose shows childProhibited false', async () => {
    const { tenant } = await setup();
    const id = await createPurpose(call, tenant.token, { name: 'Ads', childProhibited: true });
    expect((await call('GET', `/api/v1/purposes/${id}`, { token: tenant.token })).body.data.childProhibited).toBe(true);
    expect((await call('GET', '/api/v1/children/settings', { token: tenant.token })).body.data.childProhibitedPurposes).toContain(id);
  });
});
