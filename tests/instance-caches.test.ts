import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock, resetClock, setClock } from '../shared/clock';
import { config } from '../shared/config';
import { deleteDomain, markApiKeyRevoked, revokeSecretApiKey } from '../shared/api-keys/store';
import { consentKeys } from '../shared/consent/keys';
import { UpdateCommand } from '../shared/db/commands';
import { db, tableName } from '../shared/db/client';
import { newTenant, useApi } from './support/api';
import { publishedNotice, sha256, signedIdentity } from './support/consent';
import { publish } from './support/notices';

/**
 * What a warm instance remembers (shared/instance-cache.ts) and for how long: API keys, the
 * published-notice pointer and the consent settings, each at most INSTANCE_CACHE_SECONDS (10),
 * as docs/security.md states. The clock stands still here, so "still remembered" is no race with
 * the machine's speed; it moves just past the bound to show each change taking effect. A
 * remembered state never refuses anyone: what it would refuse is decided again on what is read
 * now, so changes that let more through apply at once. A change this instance makes through the
 * API (this test process is the instance) applies to it from the next request; the same change
 * written by another instance (here: straight to the table, as that instance's store would) within
 * the bound.
 */
const { call } = useApi();

let now = Date.now();
const passBound = () => {
  now += config.instanceCacheSeconds * 1000 + 1;
  setClock(fixedClock(new Date(now)));
};
beforeEach(() => {
  now = Date.now();
  setClock(fixedClock(new Date(now)));
});
afterEach(() => resetClock());

const verify = (apiKey: string, headers: Record<string, string> = {}) => call('GET', `/api/v1/sdk/verify?apiKey=${encodeURIComponent(apiKey)}`, { headers });

const setup = async () => {
  const tenant = await newTenant(call);
  const notice = await publishedNotice(call, tenant.token);
  const publishable = await tenant.apiKey();
  const sdkRecord = (body: Record<string, unknown> = {}, options: { ip?: string } = {}) =>
    call('POST', '/api/v1/consent/sdk-record', { ...options, body: { apiKey: publishable, status: 'ACCEPTED', purposes: { [notice.required]: true }, ...body } });
  return { tenant, notice, publishable, sdkRecord };
};

describe('an API key, as a warm instance remembers it', () => {
  it('is refused at once when this instance revokes it, and never refuses a newly allowed origin', async () => {
    const { tenant } = await setup();
    const { keyId, apiKey } = (await call('POST', '/api/v1/api-keys', { token: tenant.token })).body.data;
    expect((await call('POST', `/api/v1/api-keys/${keyId}/domains`, { token: tenant.token, body: { domain: 'a.example' } })).status).toBe(201);
    expect((await verify(apiKey, { origin: 'https://a.example' })).status).toBe(200);

    // An origin allowed since: the remembered key would refuse it, so the key is read again.
    expect((await call('POST', `/api/v1/api-keys/${keyId}/domains`, { token: tenant.token, body: { domain: 'b.example' } })).status).toBe(201);
    expect((await verify(apiKey, { origin: 'https://b.example' })).status).toBe(200);

    // Removed and revoked here: the next request, with the clock standing still, is refused.
    const domains = (await call('GET', `/api/v1/api-keys/${keyId}/domains`, { token: tenant.token })).body.data as { id: string; domain: string }[];
    expect((await call('DELETE', `/api/v1/api-keys/${keyId}/domains/${domains.find((domain) => domain.domain === 'a.example')!.id}`, { token: tenant.token })).status).toBe(200);
    expect((await verify(apiKey, { origin: 'https://a.example' })).status).toBe(403);
    expect((await call('DELETE', `/api/v1/api-keys/${keyId}`, { token: tenant.token })).status).toBe(200);
    const refused = await verify(apiKey, { origin: 'https://b.example' });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHORIZED');
  });

  it('is refused within the bound when another instance revokes it', async () => {
    const { tenant } = await setup();
    const { keyId, apiKey } = (await call('POST', '/api/v1/api-keys', { token: tenant.token })).body.data;
    expect((await call('POST', `/api/v1/api-keys/${keyId}/domains`, { token: tenant.token, body: { domain: 'a.example' } })).status).toBe(201);
    expect((await verify(apiKey, { origin: 'https://a.example' })).status).toBe(200);
    await deleteDomain(keyId, 'a.example');
    await markApiKeyRevoked(tenant.tenantId, keyId, new Date(now).toISOString());
    expect((await verify(apiKey, { origin: 'https://a.example' })).status).toBe(200);
    passBound();
    expect((await verify(apiKey, { origin: 'https://a.example' })).status).toBe(401);
  });
});

describe('the published notice, as a warm instance remembers it', () => {
  it('records against the notice the request names, never one published after; unnamed, the one remembered', async () => {
    const { tenant, notice, sdkRecord } = await setup();
    const first = await sdkRecord({ noticeId: notice.noticeId });
    expect(first.status).toBe(201);
    const versionOf = async (recordId: string) => (await call('GET', `/api/v1/consent/records/${recordId}/proof`, { token: tenant.token })).body.data.payload.noticeVersionNumber as number;

    const draftId = (await call('POST', `/api/v1/notices/${notice.noticeId}/revise`, { token: tenant.token })).body.data.id as string;
    expect((await publish(call, tenant.token, draftId)).status).toBe(200);
    // The person was shown version 1 and says so: recorded against version 1, not the one published since.
    const shownFirst = await sdkRecord({ noticeId: notice.noticeId });
    expect(shownFirst.status).toBe(201);
    expect(await versionOf(shownFirst.body.data.consentRecordId)).toBe(1);
    // Unnamed: the published notice as remembered, never a later one.
    const unnamed = await sdkRecord();
    expect(await versionOf(unnamed.body.data.consentRecordId)).toBe(1);
    // Naming version 2 reads the pointer again at once.
    const shownSecond = await sdkRecord({ noticeId: draftId });
    expect(shownSecond.status).toBe(201);
    expect(await versionOf(shownSecond.body.data.consentRecordId)).toBe(2);
    expect(await versionOf((await sdkRecord()).body.data.consentRecordId)).toBe(2);
    // Version 1 is no longer the published notice, as read now.
    expect((await sdkRecord({ noticeId: notice.noticeId })).status).toBe(409);
  });

  it('never fills an external id from another visitor behind the same address', async () => {
    const { tenant, sdkRecord } = await setup();
    const ip = '198.51.100.77';
    expect((await sdkRecord({ externalId: 'customer-1' }, { ip })).status).toBe(201);
    const second = await sdkRecord({}, { ip });
    expect(second.status).toBe(201);
    const proof = (await call('GET', `/api/v1/consent/records/${second.body.data.consentRecordId}/proof`, { token: tenant.token })).body.data;
    expect(proof.payload).toMatchObject({ attribution: 'IP', externalId: null });
  });
});

describe('consent settings, as a warm instance remembers them', () => {
  it('apply requireVerifiedIdentity and a revoked secret key at once in the instance that changed them; a new key and a relaxed setting at once', async () => {
    const { tenant, sdkRecord } = await setup();
    const hash = sha256('asha@example.in');
    expect((await sdkRecord({ identifierHash: hash })).status).toBe(201);
    expect((await call('PUT', '/api/v1/consent/settings', { token: tenant.token, body: { requireVerifiedIdentity: true } })).status).toBe(200);
    const unsigned = await sdkRecord({ identifierHash: hash });
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.error.fields).toHaveProperty('identifierSignature');

    // A secret key made now signs at once; the remembered settings would refuse its signature.
    const secret = (await call('POST', '/api/v1/api-keys', { token: tenant.token, body: { kind: 'secret' } })).body.data as { keyId: string; apiKey: string };
    const signed = await sdkRecord(signedIdentity(secret.apiKey, hash));
    expect(signed.status).toBe(201);
    expect(signed.body.data.attribution).toBe('VERIFIED');
    expect((await call('DELETE', `/api/v1/api-keys/${secret.keyId}`, { token: tenant.token })).status).toBe(200);
    const revoked = await sdkRecord(signedIdentity(secret.apiKey, hash));
    expect(revoked.status).toBe(400);
    expect(revoked.body.error.fields).toHaveProperty('identifierSignature');

    // Relaxed again: applies at once, whatever is remembered.
    expect((await call('PUT', '/api/v1/consent/settings', { token: tenant.token, body: { requireVerifiedIdentity: false } })).status).toBe(200);
    expect((await sdkRecord({ identifierHash: hash })).status).toBe(201);
  });

  it('apply requireVerifiedIdentity and a revoked secret key within the bound when another instance changed them', async () => {
    const { tenant, sdkRecord } = await setup();
    const hash = sha256('ravi@example.in');
    const secret = (await call('POST', '/api/v1/api-keys', { token: tenant.token, body: { kind: 'secret' } })).body.data as { keyId: string; apiKey: string };
    expect((await sdkRecord(signedIdentity(secret.apiKey, hash))).status).toBe(201);
    await revokeSecretApiKey(tenant.tenantId, secret.keyId, new Date(now).toISOString());
    await db().send(new UpdateCommand({ TableName: tableName(), Key: consentKeys.settings(tenant.tenantId), UpdateExpression: 'SET requireVerifiedIdentity = :on', ExpressionAttributeValues: { ':on': true } }));
    expect((await sdkRecord(signedIdentity(secret.apiKey, hash))).status).toBe(201);
    expect((await sdkRecord({ identifierHash: hash })).status).toBe(201);
    passBound();
    expect((await sdkRecord(signedIdentity(secret.apiKey, hash))).body.error.fields).toHaveProperty('identifierSignature');
    expect((await sdkRecord({ identifierHash: hash })).status).toBe(400);
  });
});
