import { randomUUID } from 'node:crypto';
import { Agent, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { startApiServer, type HandlerSource } from '../../infra/local/server';
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

/**
 * The connections one test file keeps to its API server: calls past this many queue in the pool
 * instead of opening more. A burst of 1,000 simultaneous calls once opened 1,000 connections, and
 * on a loaded 2-core machine some were reset (ECONNRESET) before the server could accept them; how
 * many requests are in flight at the server is still up to the test (a pool this size keeps
 * dozens at once, enough for the concurrency properties the tests check; the bench bursts wider).
 */
export const testClientSockets = 32;

/** A pooled connection idle this long is closed by the client, well before the server's keep-alive timeout, so a reused one is never closed under it. */
const idleSocketMs = 2_000;

/**
 * Starts the local API server in this test process (so the injectable clock reaches the handlers);
 * `handlers` (the bundle smoke's) serves the groups from elsewhere than their source.
 */
export const useApi = (options: { handlers?: () => HandlerSource } = {}) => {
  let server: Server | undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: testClientSockets, timeout: idleSocketMs });
  const state = { baseUrl: '', connections: 0 };
  beforeAll(async () => {
    const started = await startApiServer(0, undefined, undefined, options.handlers?.());
    server = started.server;
    server.on('connection', () => (state.connections += 1));
    state.baseUrl = started.url;
  });
  afterAll(async () => {
    agent.destroy();
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
    const body = options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined);
    // Framed explicitly: node sends a DELETE's body unframed otherwise.
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const { status, text, responseHeaders } = await new Promise<{ status: number; text: string; responseHeaders: IncomingHttpHeaders }>((resolve, reject) => {
      const outgoing = request(`${state.baseUrl}${path}`, { method, headers, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), responseHeaders: response.headers }));
        response.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
    const responseHeadersOut = new Headers();
    for (const [name, value] of Object.entries(responseHeaders)) {
      for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeadersOut.append(name, one);
    }
    // A page or an export (text/html, text/csv, JSON lines) comes back as its text.
    const json = /^application\/json\b/.test(responseHeadersOut.get('content-type') ?? 'application/json');
    return { status, body: text ? (json ? JSON.parse(text) : text) : undefined, headers: responseHeadersOut };
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
  const apiKey = async (kind: 'publishable' | 'secret' = 'publishable') => (await createApiKey(tenant.tenantId, kind)).apiKey;
  return { tenantId: tenant.tenantId, slug: tenant.slug, adminEmail, token, userToken, apiKey };
};

export const loginAs = async (call: Call, email: string): Promise<string> => {
  const response = await call('POST', '/api/v1/auth/login', { body: { email, password } });
  if (response.status !== 200) throw new Error(`login failed: ${JSON.stringify(response.body)}`);
  return response.body.data.token as string;
};
