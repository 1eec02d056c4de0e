import { describe, expect, it } from 'vitest';
import { verifyReceipt } from '../shared/evidence/receipt';
import { newTenant, useApi } from './support/api';
import { publishedNotice, recordConsent, sha256, signedIdentity } from './support/consent';
import { failWrites } from './support/storage';
import { passInstanceCacheBound, useClockReset } from './support/clock';

/**
 * Who may put a decision on record: a publishable key (public: read off any page) never names a
 * principal by a raw identifier; a secret key (the tenant's servers) does, and signs hashes for the
 * widget; every record states its attribution in its evidence, proof and receipt.
 */
const { call } = useApi();
useClockReset();

const setup = async () => {
  const tenant = await newTenant(call);
  const notice = await publishedNotice(call, tenant.token);
  const [publishable, secret] = [await tenant.apiKey(), await tenant.apiKey('secret')];
  const sdkRecord = (apiKey: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    call('POST', '/api/v1/consent/sdk-record', { headers, body: { apiKey, status: 'ACCEPTED', purposes: { [notice.required]: true }, ...body } });
  const proofOf = async (recordId: string) => (await call('GET', `/api/v1/consent/records/${recordId}/proof`, { token: tenant.token })).body.data;
  return { tenant, notice, publishable, secret, sdkRecord, proofOf };
};

describe('two kinds of API key', () => {
  it('creates publishable keys by default and secret keys on request, and lists the kind', async () => {
    const { tenant, publishable, secret } = await setup();
    expect(publishable).toMatch(/^cms_[0-9a-f]{32}_/);
    expect(secret).toMatch(/^cms_sk_[0-9a-f]{32}_/);
    const created = await call('POST', '/api/v1/api-keys', { token: tenant.token, body: { kind: 'secret' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ kind: 'secret', apiKey: expect.stringMatching(/^cms_sk_/) });
    expect((await call('POST', '/api/v1/api-keys', { token: tenant.token, body: { kind: 'other' } })).body.error.fields).toHaveProperty('kind');
    const listed = (await call('GET', '/api/v1/api-keys', { token: tenant.token })).body.data as { kind: string; maskedKey: string }[];
    expect(listed.map((key) => key.kind).sort()).toEqual(['publishable', 'secret', 'secret']);
    for (const key of listed) expect(key.maskedKey.startsWith(key.kind === 'secret' ? 'cms_sk_' : 'cms_')).toBe(true);
    // A secret key is refused from every browser: it has no allowed domains.
    const secretId = created.body.data.keyId;
    expect((await call('POST', `/api/v1/api-keys/${secretId}/domains`, { token: tenant.token, body: { domain: 'shop.example' } })).status).toBe(409);
  });

  it('refuses a raw identifier with the publishable key, naming the field, and records nothing', async () => {
    const { tenant, publishable, sdkRecord } = await setup();
    const forged = await sdkRecord(publishable, { identifier: 'someone@example.in' }, { origin: 'https://attacker.example' });
    expect(forged.status).toBe(400);
    expect(forged.body.error.code).toBe('VALIDATION_ERROR');
    expect(forged.body.error.fields).toHaveProperty('identifier');
    expect((await call('GET', `/api/v1/consent/status/${sha256('someone@example.in')}`, { token: tenant.token })).body.data).toEqual([]);
  });

  it('takes identifier from a secret key on a server, VERIFIED, and refuses the secret key from a browser or in a URL', async () => {
    const { tenant, secret, sdkRecord, proofOf } = await setup();
    const fromServer = await sdkRecord(secret, { identifier: 'Meera@Example.in', positionShown: 'api' });
    expect(fromServer.status).toBe(201);
    expect(fromServer.body.data.attribution).toBe('VERIFIED');
    const proof = await proofOf(fromServer.body.data.consentRecordId);
    expect(proof).toMatchObject({ proofVersion: 4, matches: true, payload: { dataPrincipalHash: sha256('meera@example.in'), attribution: 'VERIFIED', attributionMethod: 'SECRET_KEY' } });
    expect(proof.payload.attributedBy).toMatch(/^key:/);
    expect(proof.attributedByActor).toBeNull();

    // Relabelled as a publishable key (prefix stripped), it is no key at all: the stored kind decides.
    expect((await sdkRecord(secret.replace('cms_sk_', 'cms_'), { identifier: 'meera@example.in' }, { origin: 'http://localhost' })).status).toBe(401);
    const fromBrowser = await sdkRecord(secret, { identifier: 'meera@example.in' }, { origin: 'http://localhost' });
    expect(fromBrowser.status).toBe(403);
    expect(fromBrowser.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    const inUrl = await call('GET', `/api/v1/consent/public-notice?apiKey=${encodeURIComponent(secret)}`);
    expect(inUrl.status).toBe(403);
    expect(inUrl.body.error.code).toBe('FORBIDDEN');
    const nobody = await sdkRecord(secret);
    expect(nobody.status).toBe(400);
    expect(nobody.body.error.fields).toHaveProperty('identifier');
    expect((await call('GET', `/api/v1/consent/status/${sha256('meera@example.in')}`, { token: tenant.token })).body.data).toHaveLength(1);

    // The server-to-server cookie routes take it in X-API-Key, and refuse it from a browser too.
    const visitor = '0190a8f4-0000-7000-8000-000000000001';
    const server = await call('GET', `/api/v1/cmp/consent-status?visitorId=${visitor}`, { headers: { 'x-api-key': secret } });
    expect(server.body.error?.code ?? 'OK').not.toMatch(/UNAUTHORIZED|FORBIDDEN|ORIGIN/);
    const browser = await call('GET', `/api/v1/cmp/consent-status?visitorId=${visitor}`, { headers: { 'x-api-key': secret, origin: 'https://shop.example' } });
    expect(browser.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
  });

  it('never answers a failed secret-key write with 2xx, and leaves no key behind', async () => {
    const { tenant } = await setup();
    const before = (await call('GET', '/api/v1/api-keys', { token: tenant.token })).body.data;
    // The rate-limit counter is an UpdateCommand: let it through so the request reaches the key's transaction.
    const { restore } = failWrites({ except: (command) => command === 'UpdateItem' });
    try {
      const response = await call('POST', '/api/v1/api-keys', { token: tenant.token, body: { kind: 'secret' } });
      expect(response.status).toBe(500);
    } finally {
      restore();
    }
    expect((await call('GET', '/api/v1/api-keys', { token: tenant.token })).body.data).toEqual(before);
  });
});

describe('verified identity', () => {
  it('records a signed hash as VERIFIED, an unsigned one as CLAIMED, none as IP; in the proof, the receipt and the lists', async () => {
    const { tenant, publishable, secret, sdkRecord, proofOf } = await setup();
    const hash = sha256('asha@example.in');
    const signed = await sdkRecord(publishable, signedIdentity(secret, hash));
    const claimed = await sdkRecord(publishable, { identifierHash: sha256('ravi@example.in') });
    const byIp = await sdkRecord(publishable);
    const wrong = await sdkRecord(publishable, { ...signedIdentity(secret, sha256('someone else')), identifierHash: hash });
    expect([signed.status, claimed.status, byIp.status]).toEqual([201, 201, 201]);
    expect([signed.body.data.attribution, claimed.body.data.attribution, byIp.body.data.attribution]).toEqual(['VERIFIED', 'CLAIMED', 'IP']);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toHaveProperty('identifierSignature');

    const keys = (await call('GET', '/api/v1/consent/log/keys')).body.keys;
    const secretKeyId = (await call('GET', '/api/v1/api-keys', { token: tenant.token })).body.data.find((key: { kind: string }) => key.kind === 'secret').keyId;
    const proof = await proofOf(signed.body.data.consentRecordId);
    expect(proof.payload).toMatchObject({ attribution: 'VERIFIED', attributionMethod: 'SIGNED_HASH', attributedBy: `key:${secretKeyId}`, identifierSignedAt: expect.any(Number) });
    expect(proof.canonicalPayload).toContain(`"identifierSignedAt":${proof.payload.identifierSignedAt}`);
    expect(proof.canonicalPayload).toContain('"attribution":"VERIFIED"');
    expect(sha256(proof.canonicalPayload)).toBe(signed.body.data.proofHash);
    expect(verifyReceipt(signed.body.data.receipt, keys)).toMatchObject({ rid: signed.body.data.consentRecordId, att: 'VERIFIED' });
    expect(verifyReceipt(claimed.body.data.receipt, keys)?.att).toBe('CLAIMED');
    expect((await proofOf(byIp.body.data.consentRecordId)).payload).toMatchObject({ attribution: 'IP', attributionMethod: 'IP_ADDRESS' });

    const status = (await call('GET', `/api/v1/consent/status/${hash}`, { token: tenant.token })).body.data;
    expect(status[0].attribution).toBe('VERIFIED');
    const listed = (await call('GET', '/api/v1/consent/records', { token: tenant.token })).body.data.items.map((item: { attribution: string }) => item.attribution);
    expect(listed.sort()).toEqual(['CLAIMED', 'IP', 'VERIFIED']);

    // A revoked secret key's signatures stop verifying within the bound on what an instance remembers.
    expect((await call('DELETE', `/api/v1/api-keys/${secretKeyId}`, { token: tenant.token })).status).toBe(200);
    passInstanceCacheBound();
    const afterRevoke = await sdkRecord(publishable, signedIdentity(secret, hash));
    expect(afterRevoke.status).toBe(400);
    expect(afterRevoke.body.error.fields).toHaveProperty('identifierSignature');
  });

  it('accepts a signature only within 15 minutes of its identifierSignedAt, either way, and never without one', async () => {
    const { tenant, publishable, secret, sdkRecord, proofOf } = await setup();
    const hash = sha256('replayed@example.in');
    const now = Math.floor(Date.now() / 1000);
    const refusedFor = async (body: Record<string, unknown>) => {
      const response = await sdkRecord(publishable, body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      return Object.keys(response.body.error.fields);
    };
    // Seen once in a page, replayed days later from anywhere: refused.
    expect(await refusedFor(signedIdentity(secret, hash, now - 3 * 86_400))).toEqual(['identifierSignature']);
    expect(await refusedFor(signedIdentity(secret, hash, now - 15 * 60 - 30))).toEqual(['identifierSignature']);
    // Signed for a time ahead of the service's clock (to outlive the window): refused too.
    expect(await refusedFor(signedIdentity(secret, hash, now + 15 * 60 + 30))).toEqual(['identifierSignature']);
    // The old form, the hash alone, and a signature without its time: refused, naming identifierSignature.
    const { identifierSignedAt: _at, ...withoutTime } = signedIdentity(secret, hash, now);
    expect(await refusedFor(withoutTime)).toEqual(['identifierSignature']);
    const { createHmac } = await import('node:crypto');
    expect(await refusedFor({ identifierHash: hash, identifierSignature: createHmac('sha256', secret).update(hash).digest('hex') })).toEqual(['identifierSignature']);
    // A time not covered by the signature: refused.
    expect(await refusedFor({ ...signedIdentity(secret, hash, now), identifierSignedAt: now - 1 })).toEqual(['identifierSignature']);
    // A time without a signature dates nothing.
    expect(await refusedFor({ identifierHash: hash, identifierSignedAt: now })).toEqual(['identifierSignedAt']);
    expect((await call('GET', `/api/v1/consent/status/${hash}`, { token: tenant.token })).body.data).toEqual([]);

    // Within the window either way: VERIFIED, and the time is part of the evidence.
    for (const signedAt of [now - 14 * 60, now + 14 * 60]) {
      const accepted = await sdkRecord(publishable, signedIdentity(secret, hash, signedAt));
      expect(accepted.status).toBe(201);
      expect(accepted.body.data.attribution).toBe('VERIFIED');
      const proof = await proofOf(accepted.body.data.consentRecordId);
      expect(proof.payload.identifierSignedAt).toBe(signedAt);
      expect(sha256(proof.canonicalPayload)).toBe(accepted.body.data.proofHash);
    }
  });

  it("records the dashboard's own staff as VERIFIED by DASHBOARD", async () => {
    const { tenant, notice, proofOf } = await setup();
    const recorded = await recordConsent(call, tenant.token, { noticeId: notice.noticeId, dataPrincipalIdentifier: 'staff@example.in', consentGiven: { [notice.required]: true } });
    expect(recorded.body.data).toMatchObject({ attribution: 'VERIFIED' });
    expect(recorded.body.data).not.toHaveProperty('withdrawalKey');
    const proof = await proofOf(recorded.body.data.consentRecordId);
    expect(proof.payload).toMatchObject({ attributionMethod: 'DASHBOARD', attributedBy: expect.stringMatching(/^user:/) });
    // The evidence keeps the id; the view names the team member (issue 36, item 3), as the team list reads now.
    expect(proof.attributedByActor).toEqual({ userId: proof.payload.attributedBy.slice('user:'.length), email: tenant.adminEmail, role: 'SUPER_ADMIN', asRecordedThen: false });
  });
});

describe('consent settings', () => {
  it('are read by every role, written by DPO and SUPER_ADMIN, and requireVerifiedIdentity applies within the bound on what an instance remembers', async () => {
    const { tenant, notice, publishable, secret, sdkRecord } = await setup();
    const viewer = await tenant.userToken('VIEWER');
    const dpo = await tenant.userToken('DPO');
    expect((await call('GET', '/api/v1/consent/settings', { token: viewer })).body.data).toEqual({
      requireVerifiedIdentity: false,
      publicWithdrawal: 'IMMEDIATE',
      updatedAt: null,
      updatedBy: null,
    });
    expect((await call('PUT', '/api/v1/consent/settings', { token: viewer, body: { requireVerifiedIdentity: true } })).status).toBe(403);
    expect((await call('PUT', '/api/v1/consent/settings', { token: dpo, body: {} })).status).toBe(400);
    expect((await call('PUT', '/api/v1/consent/settings', { token: dpo, body: { publicWithdrawal: 'LATER' } })).body.error.fields).toHaveProperty('publicWithdrawal');

    expect((await sdkRecord(publishable, { identifierHash: sha256('before@example.in') })).status).toBe(201);
    const saved = await call('PUT', '/api/v1/consent/settings', { token: dpo, body: { requireVerifiedIdentity: true } });
    expect(saved.body.data).toMatchObject({ requireVerifiedIdentity: true, publicWithdrawal: 'IMMEDIATE', updatedBy: expect.stringMatching(/^user:/) });
    passInstanceCacheBound();

    const claimed = await sdkRecord(publishable, { identifierHash: sha256('after@example.in') });
    expect(claimed.status).toBe(400);
    expect(claimed.body.error.fields).toHaveProperty('identifierSignature');
    const anonymous = await sdkRecord(publishable);
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.error.fields).toHaveProperty('identifierSignature');
    const hash = sha256('after@example.in');
    expect((await sdkRecord(publishable, signedIdentity(secret, hash))).status).toBe(201);
    expect((await sdkRecord(secret, { identifier: 'server@example.in' })).status).toBe(201);
    expect((await recordConsent(call, tenant.token, { noticeId: notice.noticeId, dataPrincipalIdentifier: 'desk@example.in', consentGiven: { [notice.required]: true } })).status).toBe(201);

    // A merge: the other setting keeps its value.
    expect((await call('PUT', '/api/v1/consent/settings', { token: tenant.token, body: { publicWithdrawal: 'CONFIRM_BY_EMAIL' } })).body.data).toMatchObject({
      requireVerifiedIdentity: true,
      publicWithdrawal: 'CONFIRM_BY_EMAIL',
    });
    expect((await call('PUT', '/api/v1/consent/settings', { token: tenant.token, body: { requireVerifiedIdentity: false } })).status).toBe(200);
    expect((await sdkRecord(publishable, { identifierHash: sha256('later@example.in') })).status).toBe(201);
  });
});
