import { afterEach, describe, expect, it } from 'vitest';
import { newTenant, useApi } from './support/api';
import { failWrites } from './support/storage';

const { call } = useApi();

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

describe('error envelope', () => {
  it('answers an unknown route with 404 NOT_FOUND in the envelope', async () => {
    const response = await call('GET', '/api/v1/no-such-thing');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers malformed JSON with 400 VALIDATION_ERROR', async () => {
    const response = await call('POST', '/api/v1/auth/login', { rawBody: '{"email": ' });
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({ code: 'VALIDATION_ERROR', message: expect.any(String), fields: { body: expect.any(String) } });
  });

  it('names every invalid field', async () => {
    const response = await call('POST', '/api/v1/auth/login', { body: { email: 42 } });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.error.fields).sort()).toEqual(['email', 'password']);
  });

  it('rejects a JSON body that is not an object', async () => {
    const response = await call('POST', '/api/v1/auth/login', { rawBody: '[1,2]' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
  });
});

describe('storage failure', () => {
  it('never answers a failed write with 2xx, and says nothing of the cause', async () => {
    const tenant = await newTenant(call);
    const before = await call('GET', '/api/v1/api-keys', { token: tenant.token });
    // The rate-limit counter is a write too; let it through so the request reaches the key write.
    restore = failWrites({ except: (command) => command === 'UpdateItem' }).restore;
    const response = await call('POST', '/api/v1/api-keys', { token: tenant.token });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred' } });
    expect(JSON.stringify(response.body)).not.toContain('injected');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    restore();
    restore = undefined;
    const after = await call('GET', '/api/v1/api-keys', { token: tenant.token });
    expect(after.body.data).toEqual(before.body.data);
  });

  it('fails closed when the rate-limit counter cannot be written', async () => {
    const tenant = await newTenant(call);
    restore = failWrites().restore;
    const response = await call('GET', '/api/v1/api-keys', { token: tenant.token });
    expect(response.status).toBe(500);
  });
});
