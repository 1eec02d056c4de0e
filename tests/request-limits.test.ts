import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayPayloadLimitBytes, maxJsonBodyBytes } from '../shared/http/body-limits';
import type { RouteDefinition } from '../shared/http/route';
import { routeList } from '../shared/http/routes';
import { newTenant, useApi } from './support/api';
import { tenantDigest } from './support/storage';

const { call, state } = useApi();

beforeAll(() => {
  // Every body route from one tenant's dashboard: above the bearer limit's 100 a minute.
  process.env.RATE_LIMIT_BEARER_PER_MINUTE = '10000';
});
afterAll(() => {
  delete process.env.RATE_LIMIT_BEARER_PER_MINUTE;
});

const takesBody = (route: RouteDefinition) => route.request?.body !== undefined || (route.auth.kind === 'apiKey' && route.auth.in === 'body');
const bodyRoutes = routeList.filter(takesBody);

/** Ids that name nothing; the request must be refused before any of them is looked up. */
const pathOf = (path: string) => path.replace(/:([A-Za-z0-9]+)/g, (_match, name: string) => (['lang', 'language'].includes(name) ? 'HI' : '00000000-0000-4000-8000-000000000000'));

/** `levels` objects and arrays nested in one another, as JSON text. */
const nested = (levels: number) => '{"a":['.repeat(levels / 2) + '1' + ']}'.repeat(levels / 2);

describe('deeply nested JSON', () => {
  it('lists the body routes it checks (the route table changed if this fails)', () => {
    for (const operationId of ['login', 'setPassword', 'logout', 'requestPortalLink', 'recordCmpWebEvent', 'sdkRecord', 'saveCmpConfig']) {
      expect(bodyRoutes.map((route) => route.operationId)).toContain(operationId);
    }
  });

  it('answers every body route of the route table with 400 VALIDATION_ERROR at 5,000 levels, and stores nothing', async () => {
    const tenant = await newTenant(call);
    const apiKey = await tenant.apiKey();
    const before = await tenantDigest(tenant.tenantId);
    const failures: string[] = [];
    for (const route of bodyRoutes) {
      const fields = [
        ...(route.auth.kind === 'apiKey' && route.auth.in === 'body' ? [`"apiKey":${JSON.stringify(apiKey)}`] : []),
        ...(route.path.includes('/cmp/web-event') ? [`"tenantId":"${tenant.tenantId}"`] : []),
        `"deep":${nested(5000)}`,
      ];
      const query = route.auth.kind === 'apiKey' && route.auth.in === 'query' ? `?apiKey=${apiKey}` : '';
      const response = await call(route.method, `${pathOf(route.path)}${query}`, {
        token: route.auth.kind === 'bearer' ? tenant.token : undefined,
        headers: { origin: 'http://localhost', ...(route.auth.kind === 'apiKey' && route.auth.in === 'header' ? { 'x-api-key': apiKey } : {}) },
        rawBody: `{${fields.join(',')}}`,
      });
      if (response.status !== 400 || response.body?.error?.code !== 'VALIDATION_ERROR' || !response.body.error.fields?.deep) {
        failures.push(`${route.method} ${route.path}: ${response.status} ${JSON.stringify(response.body)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await tenantDigest(tenant.tenantId)).toBe(before);
  });
});

/**
 * Sends a body of `total` bytes in 64 KB chunks (chunked when `declare` is false), stopping as soon
 * as an answer arrives; resolves with the answer and how many bytes had been sent by then.
 */
const sendLarge = (total: number, declare: boolean) =>
  new Promise<{ status: number; body: any; sent: number; connection: string | undefined }>((resolve, reject) => {
    const url = new URL('/api/v1/auth/login', state.baseUrl);
    let sent = 0;
    let answered = false;
    const outgoing = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.18.0.7', ...(declare ? { 'content-length': String(total) } : {}) } },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), sent, connection: response.headers.connection });
          outgoing.destroy();
        });
      },
    );
    // The server may close while this side still writes; the answer is what counts.
    outgoing.on('error', (error) => (answered ? undefined : reject(error)));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!outgoing.write(chunk)) {
          outgoing.once('drain', pump);
          return;
        }
      }
      if (!answered) outgoing.end();
    };
    pump();
  });

describe('request body size', () => {
  it('refuses a declared 50 MB body with 413 in the envelope before reading it, and closes the connection', async () => {
    const answer = await sendLarge(50 * 1024 * 1024, true);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) } });
    expect(answer.connection).toBe('close');
    expect(answer.sent).toBeLessThan(50 * 1024 * 1024);
  });

  it('stops reading a chunked body as soon as it passes the gateway limit, answering 413 before the body ends', async () => {
    const answer = await sendLarge(50 * 1024 * 1024, false);
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(answer.sent).toBeGreaterThan(gatewayPayloadLimitBytes);
    expect(answer.sent).toBeLessThan(50 * 1024 * 1024);
  });

  it('has every handler refuse a body over its JSON limit before parsing: 400 VALIDATION_ERROR on body', async () => {
    const padding = 'x'.repeat(maxJsonBodyBytes);
    const response = await call('POST', '/api/v1/auth/login', { rawBody: JSON.stringify({ email: 'a@b.example', password: padding }) });
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({ code: 'VALIDATION_ERROR', message: expect.any(String), fields: { body: expect.stringContaining(String(maxJsonBodyBytes)) } });
  });
});
