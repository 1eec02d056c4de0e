import { afterEach, describe, expect, it } from 'vitest';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { removeUser } from '../shared/users/service';
import { loginAs, newTenant, password, uniqueEmail, useApi, type ApiResponse } from './support/api';
import { mailsTo } from './support/mail';
import { failWrites } from './support/storage';

const { call } = useApi();

let restoreStorage: (() => void) | undefined;
afterEach(() => {
  resetClock();
  restoreStorage?.();
  restoreStorage = undefined;
});

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const invite = (tenant: Tenant, body: Record<string, unknown>, token = tenant.token) => call('POST', '/api/v1/users', { token, body });
const team = async (tenant: Tenant) => (await call('GET', '/api/v1/users', { token: tenant.token })).body.data as { userId: string; email: string; role: string }[];
const remove = (token: string, userId: string) => call('DELETE', `/api/v1/users/${userId}`, { token });
const setPassword = (token: string, newPassword = 'a-brand-new-password') => call('POST', '/api/v1/auth/set-password', { body: { token, password: newPassword } });
const loginStatus = async (email: string, secret = password) => (await call('POST', '/api/v1/auth/login', { body: { email, password: secret } })).status;

/** Invites without a password and returns the token of the link mailed to the address. */
const invitedByLink = async (tenant: Tenant, role = 'DPO') => {
  const email = uniqueEmail('invited');
  const response = await invite(tenant, { email, role });
  expect(response.status).toBe(201);
  const [mail] = await mailsTo(email);
  const token = /\/set-password#token=([A-Za-z0-9_-]+)/.exec(mail?.body.text ?? '')?.[1];
  expect(token, mail?.body.text).toBeDefined();
  return { email, userId: response.body.data.userId as string, token: token! };
};

/** A user with a password, signed in: its access and refresh tokens. */
const member = async (tenant: Tenant, role: string) => {
  const email = uniqueEmail(role.toLowerCase());
  const { userId } = (await invite(tenant, { email, role, password })).body.data;
  const { token, refreshToken } = (await call('POST', '/api/v1/auth/login', { body: { email, password } })).body.data;
  return { email, userId: userId as string, token: token as string, refreshToken: refreshToken as string };
};

const adminId = async (tenant: Tenant) => (await team(tenant)).find((user) => user.email === tenant.adminEmail)!.userId;

const expectError = (response: ApiResponse, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
};

describe('team: list and invite', () => {
  it('invites with a password, lists the team oldest first without hashes, and the user signs in with its role', async () => {
    const tenant = await newTenant(call);
    const email = uniqueEmail('Viewer').toUpperCase();
    const created = await invite(tenant, { email, role: 'VIEWER', password });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ userId: expect.any(String), email: email.toLowerCase(), role: 'VIEWER', createdAt: expect.any(String) });

    const listed = await call('GET', '/api/v1/users', { token: tenant.token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((user: { email: string }) => user.email)).toEqual([tenant.adminEmail, email.toLowerCase()]);
    expect(Object.keys(listed.body.data[0]).sort()).toEqual(['createdAt', 'email', 'role', 'userId']);
    expect(JSON.stringify(listed.body)).not.toMatch(/password|scrypt/i);

    const viewer = await loginAs(call, email.toLowerCase());
    expect((await call('GET', '/api/v1/api-keys', { token: viewer })).status).toBe(200);
    expectError(await call('POST', '/api/v1/api-keys', { token: viewer }), 403, 'FORBIDDEN');
  });

  it('mails a single-use set-password link when no password is given', async () => {
    const tenant = await newTenant(call);
    const { email, token } = await invitedByLink(tenant, 'ANALYST');
    const [mail] = await mailsTo(email);
    expect(mail?.body.text).toContain('ANALYST');
    expect(await loginStatus(email)).toBe(401);

    const set = await setPassword(token);
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ email, role: 'ANALYST' });
    expect(await loginStatus(email, 'a-brand-new-password')).toBe(200);

    expectError(await setPassword(token, 'another-password-1'), 409, 'SET_PASSWORD_TOKEN_USED');
    expect(await loginStatus(email, 'another-password-1')).toBe(401);
    expectError(await setPassword('x'.repeat(43)), 404, 'SET_PASSWORD_TOKEN_NOT_FOUND');
  });

  it('refuses a link after 7 days with 410', async () => {
    const tenant = await newTenant(call);
    const { email, token } = await invitedByLink(tenant);
    setClock(offsetClock(7 * 86_400_000 + 1000));
    expectError(await setPassword(token), 410, 'SET_PASSWORD_TOKEN_EXPIRED');
    resetClock();
    expect(await loginStatus(email, 'a-brand-new-password')).toBe(401);
  });

  it('refuses an email any tenant uses with 409, whatever its case', async () => {
    const tenant = await newTenant(call);
    const other = await newTenant(call);
    const before = await team(tenant);
    for (const email of [other.adminEmail, tenant.adminEmail.toUpperCase()]) {
      expectError(await invite(tenant, { email, role: 'DPO', password }), 409, 'CONFLICT');
    }
    expect(await team(tenant)).toEqual(before);
  });

  it('stops at the plan\'s team-member limit with 403 PLAN_LIMIT_REACHED, and a removal frees a place', async () => {
    process.env.DEFAULT_TEAM_MEMBER_LIMIT = '2';
    const tenant = await newTenant(call).finally(() => delete process.env.DEFAULT_TEAM_MEMBER_LIMIT);
    const first = await member(tenant, 'DPO');
    const refused = await invite(tenant, { email: uniqueEmail(), role: 'VIEWER' });
    expectError(refused, 403, 'PLAN_LIMIT_REACHED');
    expect(await team(tenant)).toHaveLength(2);
    expect((await remove(tenant.token, first.userId)).status).toBe(200);
    expect((await invite(tenant, { email: uniqueEmail(), role: 'VIEWER', password })).status).toBe(201);
  });

  it('names every invalid field of an invitation and of a set-password call', async () => {
    const tenant = await newTenant(call);
    const response = await invite(tenant, { email: 'nope', role: 'OWNER', password: 'short', extra: true });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.error.fields).sort()).toEqual(['email', 'extra', 'password', 'role']);
    const set = await call('POST', '/api/v1/auth/set-password', { body: { token: '', password: 'short' } });
    expect(set.status).toBe(400);
    expect(Object.keys(set.body.error.fields).sort()).toEqual(['password', 'token']);
    expectError(await remove(tenant.token, 'not-a-uuid'), 400, 'VALIDATION_ERROR');
  });
});

describe('team: remove', () => {
  it('removes a user: its email, sign-in and refresh token go with it', async () => {
    const tenant = await newTenant(call);
    const dpo = await member(tenant, 'DPO');
    const removed = await remove(tenant.token, dpo.userId);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ userId: dpo.userId, email: dpo.email, role: 'DPO' });
    expect((await team(tenant)).map((user) => user.userId)).not.toContain(dpo.userId);
    expect(await loginStatus(dpo.email)).toBe(401);
    expectError(await call('POST', '/api/v1/auth/refresh', { body: { refreshToken: dpo.refreshToken } }), 401, 'UNAUTHORIZED');
    expectError(await remove(tenant.token, dpo.userId), 404, 'NOT_FOUND');
    // The email is free again, in any tenant.
    expect((await invite(await newTenant(call), { email: dpo.email, role: 'VIEWER', password })).status).toBe(201);
  });

  it("answers another tenant's user with 404 and leaves it alone", async () => {
    const owner = await newTenant(call);
    const other = await newTenant(call);
    const dpo = await member(owner, 'DPO');
    expectError(await remove(other.token, dpo.userId), 404, 'NOT_FOUND');
    expect((await team(owner)).map((user) => user.userId)).toContain(dpo.userId);
  });

  it('never removes oneself or the last SUPER_ADMIN', async () => {
    const tenant = await newTenant(call);
    const selfRemoval = await remove(tenant.token, await adminId(tenant));
    expectError(selfRemoval, 409, 'CONFLICT');
    expect(selfRemoval.body.error.message).toMatch(/your own account/);

    // B, removed by A, still holds a valid access token: the route refuses it, as every team route does.
    const second = await member(tenant, 'SUPER_ADMIN');
    expect((await remove(tenant.token, second.userId)).status).toBe(200);
    expectError(await remove(second.token, await adminId(tenant)), 401, 'TOKEN_INVALID');
    // A removal that commits between that check and B's own transaction: the transaction still
    // checks its remover, so removing A would leave no SUPER_ADMIN and is refused.
    const lastOne = await removeUser({ tenantId: tenant.tenantId, userId: second.userId }, await adminId(tenant)).catch((error: unknown) => error);
    expect(lastOne).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/keeps a SUPER_ADMIN/) });
    expect((await team(tenant)).map((user) => user.email)).toEqual([tenant.adminEmail]);
  });

  it('lets no role but SUPER_ADMIN list, invite or remove', async () => {
    const tenant = await newTenant(call);
    const target = await member(tenant, 'VIEWER');
    for (const role of ['DPO', 'ANALYST', 'VIEWER'] as const) {
      const token = await tenant.userToken(role);
      expectError(await call('GET', '/api/v1/users', { token }), 403, 'FORBIDDEN');
      expectError(await invite(tenant, { email: uniqueEmail(), role: 'DPO', password }, token), 403, 'FORBIDDEN');
      expectError(await remove(token, target.userId), 403, 'FORBIDDEN');
    }
    expect((await team(tenant)).map((user) => user.userId)).toContain(target.userId);
  });
});

describe('team: storage failure', () => {
  it('never answers 2xx when a write fails, and changes nothing', async () => {
    const tenant = await newTenant(call);
    const dpo = await member(tenant, 'DPO');
    const { token, email } = await invitedByLink(tenant);
    const before = await team(tenant);
    // Rate-limit counters (UpdateItem) still work, so each request reaches its own write.
    restoreStorage = failWrites({ except: (command) => command === 'UpdateItem' }).restore;
    const attempts = [
      await invite(tenant, { email: uniqueEmail(), role: 'VIEWER', password }),
      await invite(tenant, { email: uniqueEmail(), role: 'VIEWER' }),
      await remove(tenant.token, dpo.userId),
      await setPassword(token),
    ];
    restoreStorage();
    restoreStorage = undefined;
    for (const response of attempts) expectError(response, 500, 'INTERNAL_ERROR');
    expect(await team(tenant)).toEqual(before);
    expect(await loginStatus(dpo.email)).toBe(200);
    expect((await setPassword(token)).status).toBe(200);
    expect(await loginStatus(email, 'a-brand-new-password')).toBe(200);
  });
});
