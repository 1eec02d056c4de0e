import { describe, expect, it } from 'vitest';
import { newTenant, useApi } from './support/api';
import { passInstanceCacheBound, useClockReset } from './support/clock';

const { call } = useApi();
useClockReset();

const verify = (apiKey: string, headers: Record<string, string> = {}) =>
  call('GET', `/api/v1/sdk/verify?apiKey=${encodeURIComponent(apiKey)}`, { headers });

describe('API keys', () => {
  it('shows the key once, lists it masked, and refuses it after revocation, within the bound on what an instance remembers', async () => {
    const tenant = await newTenant(call);
    const createdKey = await call('POST', '/api/v1/api-keys', { token: tenant.token });
    expect(createdKey.status).toBe(201);
    const { keyId, apiKey } = createdKey.body.data;
    expect(apiKey).toMatch(/^cms_[0-9a-f]{32}_/);

    const listed = await call('GET', '/api/v1/api-keys', { token: tenant.token });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(apiKey.split('_')[2]);
    expect(listed.body.data).toEqual([expect.objectContaining({ keyId, revokedAt: null })]);

    expect((await verify(apiKey)).status).toBe(200);
    const revoked = await call('DELETE', `/api/v1/api-keys/${keyId}`, { token: tenant.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).toBeTruthy();
    passInstanceCacheBound();
    const refused = await verify(apiKey);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHORIZED');
  });

  it('refuses a missing, malformed or wrong key with 401 UNAUTHORIZED', async () => {
    const tenant = await newTenant(call);
    const apiKey = await tenant.apiKey();
    const tampered = `${apiKey.slice(0, -4)}AAAA`;
    for (const key of ['', 'not-a-key', tampered]) {
      const response = await verify(key);
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('UNAUTHORIZED');
    }
  });

  it('needs DPO or SUPER_ADMIN to create or revoke, any role to list', async () => {
    const tenant = await newTenant(call);
    for (const role of ['ANALYST', 'VIEWER'] as const) {
      const token = await tenant.userToken(role);
      const denied = await call('POST', '/api/v1/api-keys', { token });
      expect(denied.status).toBe(403);
      expect(denied.body.error.code).toBe('FORBIDDEN');
      expect((await call('GET', '/api/v1/api-keys', { token })).status).toBe(200);
    }
    const dpo = await tenant.userToken('DPO');
    expect((await call('POST', '/api/v1/api-keys', { token: dpo })).status).toBe(201);
  });

  it("answers another tenant's key with 404, never its data", async () => {
    const owner = await newTenant(call);
    const other = await newTenant(call);
    const { keyId } = (await call('POST', '/api/v1/api-keys', { token: owner.token })).body.data;
    for (const [method, path, body] of [
      ['DELETE', `/api/v1/api-keys/${keyId}`, undefined],
      ['GET', `/api/v1/api-keys/${keyId}/domains`, undefined],
      ['POST', `/api/v1/api-keys/${keyId}/domains`, { domain: 'evil.example' }],
    ] as const) {
      const response = await call(method, path, { token: other.token, body });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    expect((await call('GET', '/api/v1/api-keys', { token: other.token })).body.data).toEqual([]);
    expect((await verify((await call('POST', '/api/v1/api-keys', { token: owner.token })).body.data.apiKey)).status).toBe(200);
  });

  it('validates path parameters', async () => {
    const tenant = await newTenant(call);
    const response = await call('DELETE', '/api/v1/api-keys/not-a-uuid', { token: tenant.token });
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toHaveProperty('keyId');
  });
});

describe('allowed domains and the origin check', () => {
  const setup = async () => {
    const tenant = await newTenant(call);
    const { keyId, apiKey } = (await call('POST', '/api/v1/api-keys', { token: tenant.token })).body.data;
    return { tenant, keyId, apiKey };
  };

  it('adds a domain normalised to lower case, refuses duplicates and bad hostnames, deletes by id', async () => {
    const { tenant, keyId } = await setup();
    const added = await call('POST', `/api/v1/api-keys/${keyId}/domains`, { token: tenant.token, body: { domain: 'Shop.Example.COM' } });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ domain: 'shop.example.com' });

    const duplicate = await call('POST', `/api/v1/api-keys/${keyId}/domains`, { token: tenant.token, body: { domain: 'shop.example.com' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('CONFLICT');

    for (const domain of ['https://shop.example.com', 'shop.example.com/path', 'shop.example.com:8080', '', 'a..b']) {
      const bad = await call('POST', `/api/v1/api-keys/${keyId}/domains`, { token: tenant.token, body: { domain } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.fields).toHaveProperty('domain');
    }

    const listed = await call('GET', `/api/v1/api-keys/${keyId}/domains`, { token: tenant.token });
    expect(listed.body.data).toEqual([{ id: added.body.data.id, domain: 'shop.example.com', createdAt: expect.any(String) }]);
    const removed = await call('DELETE', `/api/v1/api-keys/${keyId}/domains/${added.body.data.id}`, { token: tenant.token });
    expect(removed.status).toBe(200);
    expect((await call('GET', `/api/v1/api-keys/${keyId}/domains`, { token: tenant.token })).body.data).toEqual([]);
    const again = await call('DELETE', `/api/v1/api-keys/${keyId}/domains/${added.body.data.id}`, { token: tenant.token });
    expect(again.status).toBe(404);
  });

  it('does not enforce a key with no domains, then enforces Origin, falling back to Referer', async () => {
    const { tenant, keyId, apiKey } = await setup();
    expect((await verify(apiKey)).status).toBe(200);
    expect((await verify(apiKey, { origin: 'https://anything.example' })).status).toBe(200);

    await call('POST', `/api/v1/api-keys/${keyId}/domains`, { token: tenant.token, body: { domain: 'shop.example.com' } });
    passInstanceCacheBound();

    const missing = await verify(apiKey);
    expect(missing.status).toBe(403);
    expect(missing.body.error.code).toBe('ORIGIN_MISSING');
    const wrong = await verify(apiKey, { origin: 'https://evil.example' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    const lookalike = await verify(apiKey, { origin: 'https://shop.example.com.evil.example' });
    expect(lookalike.body.error.code).toBe('ORIGIN_NOT_ALLOWED');

    expect((await verify(apiKey, { origin: 'https://shop.example.com' })).status).toBe(200);
    expect((await verify(apiKey, { referer: 'https://shop.example.com/checkout?x=1' })).status).toBe(200);
    expect((await verify(apiKey, { origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await verify(apiKey, { origin: 'http://127.0.0.1:8080' })).status).toBe(200);
  });
});
