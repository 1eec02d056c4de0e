import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { newTenant, password, useApi } from './support/api';

const { call } = useApi();

afterEach(() => resetClock());

const login = (email: string, secret = password) => call('POST', '/api/v1/auth/login', { body: { email, password: secret } });
const refresh = (refreshToken: string) => call('POST', '/api/v1/auth/refresh', { body: { refreshToken } });

describe('login', () => {
  it('returns an access token and a refresh token', async () => {
    const tenant = await newTenant(call);
    const response = await login(tenant.adminEmail);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ expiresIn: 900 });
    expect(response.body.data.token.split('.')).toHaveLength(3);
    expect(response.body.data.refreshToken).toMatch(/^rt_/);
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers an unknown email and a wrong password identically', async () => {
    const tenant = await newTenant(call);
    const wrongPassword = await login(tenant.adminEmail, 'not-the-password');
    const unknownEmail = await login('nobody@nowhere.example', 'not-the-password');
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknownEmail.body);
    expect(wrongPassword.body.error.code).toBe('UNAUTHORIZED');
  });

  it('rejects a body with unknown fields', async () => {
    const response = await call('POST', '/api/v1/auth/login', { body: { email: 'a@b.example', password: 'x', tenantId: 'y' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', fields: { tenantId: 'Unknown field' } });
  });
});

describe('refresh', () => {
  it('rotates: the new refresh token works, the spent one revokes the whole family', async () => {
    const tenant = await newTenant(call);
    const first = (await login(tenant.adminEmail)).body.data.refreshToken;
    const rotated = await refresh(first);
    expect(rotated.status).toBe(200);
    const second = rotated.body.data.refreshToken;
    expect(second).not.toBe(first);

    const reuse = await refresh(first);
    expect(reuse.status).toBe(401);
    expect(reuse.body.error.code).toBe('UNAUTHORIZED');

    const afterRevocation = await refresh(second);
    expect(afterRevocation.status).toBe(401);
  });

  it('lets exactly one of two simultaneous refreshes of one token through', async () => {
    const tenant = await newTenant(call);
    const token = (await login(tenant.adminEmail)).body.data.refreshToken;
    const results = await Promise.all([refresh(token), refresh(token)]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 401]);
  });

  it('rejects an unknown refresh token', async () => {
    const response = await refresh('rt_not-a-real-token');
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('UNAUTHORIZED');
  });

  it('rejects a refresh token after its lifetime', async () => {
    const tenant = await newTenant(call);
    const token = (await login(tenant.adminEmail)).body.data.refreshToken;
    setClock(offsetClock(31 * 24 * 3600 * 1000));
    expect((await refresh(token)).status).toBe(401);
  });
});

describe('logout', () => {
  const logout = (refreshToken: string) => call('POST', '/api/v1/auth/logout', { body: { refreshToken } });

  it('revokes the login: neither the presented token nor one rotated from it refreshes again', async () => {
    const tenant = await newTenant(call);
    const first = (await login(tenant.adminEmail)).body.data.refreshToken;
    const second = (await refresh(first)).body.data.refreshToken;
    const other = (await login(tenant.adminEmail)).body.data.refreshToken;
    const signedOut = await logout(second);
    expect(signedOut.status).toBe(200);
    expect(signedOut.body.data).toEqual({ signedOut: true });
    expect((await refresh(second)).status).toBe(401);
    // Another login of the same user is another session, untouched.
    expect((await refresh(other)).status).toBe(200);
  });

  it('answers an unknown, a repeated or a malformed sign-out alike, or as a validation error', async () => {
    const tenant = await newTenant(call);
    const token = (await login(tenant.adminEmail)).body.data.refreshToken;
    expect((await logout(token)).body.data).toEqual({ signedOut: true });
    expect((await logout(token)).body.data).toEqual({ signedOut: true });
    expect((await logout('rt_not-a-real-token')).body.data).toEqual({ signedOut: true });
    const malformed = await call('POST', '/api/v1/auth/logout', { body: { refreshToken: '' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.fields).toHaveProperty('refreshToken');
  });
});

describe('bearer authentication', () => {
  it('is UNAUTHORIZED without a header or with a malformed one', async () => {
    const missing = await call('GET', '/api/v1/api-keys');
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('UNAUTHORIZED');
    const malformed = await call('GET', '/api/v1/api-keys', { headers: { authorization: 'Token abc' } });
    expect(malformed.body.error.code).toBe('UNAUTHORIZED');
  });

  it('is TOKEN_INVALID for an expired token', async () => {
    const tenant = await newTenant(call);
    setClock(offsetClock(16 * 60 * 1000));
    const response = await call('GET', '/api/v1/api-keys', { token: tenant.token });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('TOKEN_INVALID');
  });

  it('is TOKEN_INVALID for a forged signature, an unknown kid or alg none', async () => {
    const tenant = await newTenant(call);
    const [header, payload] = tenant.token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    const noneAlg = `${Buffer.from(JSON.stringify({ alg: 'none', kid: 'local-1' })).toString('base64url')}.${payload}.`;
    const otherKey = await new SignJWT({ tid: tenant.tenantId, role: 'SUPER_ADMIN' })
      .setProtectedHeader({ alg: 'HS256', kid: 'attacker' })
      .setSubject('someone')
      .setIssuer('consent-service')
      .setAudience('consent-service-dashboard')
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('a-secret-the-service-never-issued-xxxxxxxx'));
    for (const token of [forged, noneAlg, otherKey]) {
      const response = await call('GET', '/api/v1/api-keys', { token });
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('TOKEN_INVALID');
    }
  });
});
