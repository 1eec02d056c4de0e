import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { startApiServer } from '../../infra/local/server';
import { createApiKey } from '../../shared/api-keys/service';
import { addUser, createTenant } from '../../shared/tenants/service';
import type { Role } from '../../shared/roles';
import { ownTenants } from './workers';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as is, for malformed-JSON tests. */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
  ip?: string;
}

/** Starts the local API server in this test process (so the injectable clock reaches the handlers). */
export const useApi = () => {
  let server: Server | undefined;
  const state = { baseUrl: '' };
  beforeAll(async () => {
    const started = await startApiServer(0);
    server = started.server;
    state.baseUrl = started.url;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });
  const call = async <T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined || options.rawBody !== undefined) headers['content-type'] ??= 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    // A fresh documentation-range address per call unless the test names one, so per-IP limits
    // (login: 20 a minute) only bite in the tests about them.
    headers['x-forwarded-for'] = options.ip ?? randomTestIp();
    const response = await fetch(`${state.baseUrl}${path}`, {
      method,
      headers,
      ...(options.rawBody !== undefined ? { body: options.rawBody } : options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await response.text();
    // A page or an export (text/html, text/csv, JSON lines) comes back as its text.
    const json = /^application\/json\b/.test(response.headers.get('content-type') ?? 'application/json');
    return { status: response.status, body: text ? (json ? JSON.parse(text) : text) : undefined, headers: response.headers };
  };
  return { call, state };
};

const randomTestIp = () => `198.18.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 254) + 1}`;

export type Call = ReturnType<typeof useApi>['call'];

export const uniqueEmail = (label = 'user') => `${label}-${randomUUID().slice(0, 8)}@test.example`;
export const password = 'correct-horse-battery';

/** A fresh tenant (so tests never share counters or data) with its SUPER_ADMIN logged in. */
export const newTenant = async (call: Call, options: { plan?: 'standard' | 'collect-only' } = {}) => {
  const adminEmail = uniqueEmail('admin');
  const tenant = await createTenant({
    name: `Tenant ${randomUUID().slice(0, 8)}`,
    slug: `t-${randomUUID().slice(0, 12)}`,
    plan: options.plan ?? 'standard',
    adminEmail,
    adminPassword: password,
  });
  ownTenants.add(tenant.tenantId);
  const token = await loginAs(call, adminEmail);
  const userToken = async (role: Role) => {
    const email = uniqueEmail(role.toLowerCase());
    await addUser({ tenantId: tenant.tenantId, email, password, role });
    return loginAs(call, email);
  };
  const apiKey = async () => (await createApiKey(tenant.tenantId)).apiKey;
  return { tenantId: tenant.tenantId, slug: tenant.slug, adminEmail, token, userToken, apiKey };
};

export const loginAs = async (call: Call, email: string): Promise<string> => {
  const response = await call('POST', '/api/v1/auth/login', { body: { email, password } });
  if (response.status !== 200) throw new Error(`login failed: ${JSON.stringify(response.body)}`);
  return response.body.data.token as string;
};
