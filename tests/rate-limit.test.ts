import { afterEach, describe, expect, it } from 'vitest';
import { GetCommand } from '../shared/db/commands';
import { parseApiKey } from '../shared/api-keys/api-key';
import { clock, offsetClock, resetClock, setClock } from '../shared/clock';
import { config } from '../shared/config';
import { db, tableName } from '../shared/db/client';
import { rateLimitKeys } from '../shared/rate-limit/keys';
import { newTenant, useApi } from './support/api';

const { call } = useApi();

const overrides: string[] = [];
const override = (name: string, value: number) => {
  process.env[name] = String(value);
  overrides.push(name);
};
afterEach(() => {
  for (const name of overrides.splice(0)) delete process.env[name];
  resetClock();
});

describe('rate limits', () => {
  it('limits bearer requests per tenant, with Retry-After, and opens again in the next window', async () => {
    override('RATE_LIMIT_BEARER_PER_MINUTE', 3);
    // One user here, allowed the whole tenant limit: the tenant's counter is what is tested.
    override('RATE_LIMIT_BEARER_USER_SHARE_PERCENT', 100);
    // Start at the beginning of a minute so the window does not roll over mid-test.
    const now = Date.now();
    setClock(offsetClock(60_000 - (now % 60_000) + 1_000));
    const tenant = await newTenant(call);
    const other = await newTenant(call);
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push(await call('GET', '/api/v1/api-keys', { token: tenant.token }));
    expect(statuses.map((response) => response.status)).toEqual([200, 200, 200, 429]);
    const limited = statuses[3]!;
    expect(limited.body.error.code).toBe('RATE_LIMIT');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    expect((await call('GET', '/api/v1/api-keys', { token: other.token })).status).toBe(200);

    setClock(offsetClock(60_000 - (now % 60_000) + 61_000));
    expect((await call('GET', '/api/v1/api-keys', { token: tenant.token })).status).toBe(200);
  });

  it("keeps one user to its share of the tenant's bearer limit, so the rest of the team still gets through", async () => {
    // The defaults: 100 a minute per tenant (the spec), 60% of it per user.
    setClock(offsetClock(60_000 - (Date.now() % 60_000) + 1_000));
    const tenant = await newTenant(call);
    const viewer = await tenant.userToken('VIEWER');
    const burst = async (token: string, count: number) => {
      const statuses: number[] = [];
      // Ten at a time: the order of admissions is the order of the counter's hits.
      for (let sent = 0; sent < count; sent += 10) {
        statuses.push(...(await Promise.all(Array.from({ length: Math.min(10, count - sent) }, () => call('GET', '/api/v1/notices', { token })))).map((response) => response.status));
      }
      return statuses;
    };
    const byViewer = await burst(viewer, 160);
    expect(byViewer.filter((status) => status === 200)).toHaveLength(60);
    expect(byViewer.filter((status) => status === 429)).toHaveLength(100);
    // The viewer's 100 refused requests did not use up the tenant's limit: 40 are left for the others.
    const byAdmin = await burst(tenant.token, 41);
    expect(byAdmin.filter((status) => status === 200)).toHaveLength(40);
    expect(byAdmin.filter((status) => status === 429)).toHaveLength(1);
  });

  it('limits SDK calls per (key, IP) with SDK_RATE_LIMIT, counting each IP apart', async () => {
    override('RATE_LIMIT_SDK_PER_KEY_IP_PER_MINUTE', 2);
    setClock(offsetClock(60_000 - (Date.now() % 60_000) + 1_000));
    const tenant = await newTenant(call);
    const apiKey = await tenant.apiKey();
    const verify = (ip: string) => call('GET', `/api/v1/sdk/verify?apiKey=${apiKey}`, { ip });
    expect((await verify('203.0.113.1')).status).toBe(200);
    expect((await verify('203.0.113.1')).status).toBe(200);
    const limited = await verify('203.0.113.1');
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('SDK_RATE_LIMIT');
    expect(limited.headers.get('retry-after')).toBeTruthy();
    expect((await verify('203.0.113.2')).status).toBe(200);
  });

  it("admits a visitor's first requests per (key, IP) from memory, writes them with the first chunk, and stays exact within an instance", async () => {
    override('RATE_LIMIT_SDK_PER_KEY_IP_PER_MINUTE', 10);
    const start = Date.now() + 60_000 - (Date.now() % 60_000) + 1_000;
    setClock(offsetClock(start - Date.now()));
    const tenant = await newTenant(call);
    const apiKey = await tenant.apiKey();
    const ip = '203.0.113.40';
    const counter = async () => {
      const windowStart = Math.floor(clock.now().getTime() / 60_000) * 60;
      const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: rateLimitKeys.counter('sdk-key-ip', `${parseApiKey(apiKey)!.keyId}#${ip}`, windowStart), ConsistentRead: true }));
      return Item?.hits as number | undefined;
    };
    const verify = () => call('GET', `/api/v1/sdk/verify?apiKey=${apiKey}`, { ip });
    for (let index = 0; index < config.rateLimitFromMemory; index += 1) expect((await verify()).status).toBe(200);
    expect(await counter()).toBeUndefined();
    const statuses: number[] = [];
    for (let index = config.rateLimitFromMemory; index < 12; index += 1) statuses.push((await verify()).status);
    expect(statuses).toEqual([...Array(10 - config.rateLimitFromMemory).fill(200), 429, 429]);
    expect(await counter()).toBeGreaterThanOrEqual(10);
  });

  it('admits exactly the limit of simultaneous calls though hits are reserved in chunks', async () => {
    // A limit of 25 reserves 2 hits at a time (a tenth); 40 calls at once from many addresses.
    override('RATE_LIMIT_SDK_PER_KEY_PER_MINUTE', 25);
    setClock(offsetClock(60_000 - (Date.now() % 60_000) + 1_000));
    const tenant = await newTenant(call);
    const apiKey = await tenant.apiKey();
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => call('GET', `/api/v1/sdk/verify?apiKey=${apiKey}`, { ip: `198.51.100.${i}` })));
    expect(statuses.filter((response) => response.status === 200)).toHaveLength(25);
    expect(statuses.filter((response) => response.status === 429)).toHaveLength(15);
  });

  it('limits SDK calls per key across IPs, the stricter of the two spec limits', async () => {
    override('RATE_LIMIT_SDK_PER_KEY_PER_MINUTE', 3);
    setClock(offsetClock(60_000 - (Date.now() % 60_000) + 1_000));
    const tenant = await newTenant(call);
    const apiKey = await tenant.apiKey();
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await call('GET', `/api/v1/sdk/verify?apiKey=${apiKey}`, { ip: `198.51.100.${i}` })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
