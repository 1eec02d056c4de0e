import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock, offsetClock, resetClock, setClock } from '../shared/clock';
import { newTenant, password, uniqueEmail, useApi } from './support/api';

const { call } = useApi();
afterEach(() => resetClock());

describe('login rate limit', () => {
  it('limits login attempts per IP with 429 RATE_LIMIT and Retry-After', async () => {
    // At the start of a minute, so the 21 attempts fall in one window; one email each, so only the IP limit applies.
    setClock(offsetClock(60_000 - (Date.now() % 60_000) + 1_000));
    const ip = '203.0.113.77';
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 21; i += 1) {
      last = await call('POST', '/api/v1/auth/login', { ip, body: { email: `guess-${i}@nowhere.example`, password: `guess-${i}` } });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect(last!.body.error.code).toBe('RATE_LIMIT');
    expect(last!.headers.get('retry-after')).toBeTruthy();
  });
});

/** A fixed instant `seconds` after the start of a 15-minute boundary well ahead of now, so every window edge is known. */
const base = Math.ceil(Date.now() / 900_000) * 900_000 + 900_000;
const at = (seconds: number) => setClock(fixedClock(new Date(base + seconds * 1000)));
const attempt = (email: string, secret: string, ip: string) => call('POST', '/api/v1/auth/login', { ip, body: { email, password: secret } });

describe('login limits that do not double at a window edge', () => {
  it('lets no more than 20 attempts from one IP through across a minute edge', async () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 200) + 20}`;
    const statuses: number[] = [];
    at(59);
    for (let i = 0; i < 20; i += 1) statuses.push((await attempt(uniqueEmail('guess'), `guess-${i}`, ip)).status);
    at(61);
    let last;
    for (let i = 0; i < 20; i += 1) {
      last = await attempt(uniqueEmail('guess'), `guess-${i}`, ip);
      statuses.push(last.status);
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.slice(20).every((status) => status === 429)).toBe(true);
    expect(last!.body.error.code).toBe('RATE_LIMIT');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    // The previous minute fades out: most of it has slid away 50 s later.
    at(110);
    expect((await attempt(uniqueEmail('guess'), 'late', ip)).status).toBe(401);
  });

  it('locks an account after 10 failed logins from any IPs, right password included, until the window slides past', async () => {
    const tenant = await newTenant(call);
    const statuses: number[] = [];
    at(10);
    for (let i = 0; i < 60; i += 1) statuses.push((await attempt(tenant.adminEmail, `wrong-${i}`, `198.51.100.${(i % 3) + 1}`)).status);
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(10).every((status) => status === 429)).toBe(true);
    // Email case and padding name the same account.
    const locked = await attempt(`  ${tenant.adminEmail.toUpperCase()} `, password, '198.51.100.9');
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('RATE_LIMIT');
    // 10 failures 10 s into a window: the next window's estimate 1 + 10 × (1 − e/900) fits at e = 90 s.
    expect(locked.headers.get('retry-after')).toBe(String(890 + 90));
    at(10 + 975);
    expect((await attempt(tenant.adminEmail, password, '198.51.100.9')).status).toBe(429);
    at(10 + 980);
    expect((await attempt(tenant.adminEmail, password, '198.51.100.9')).status).toBe(200);
  });

  it('counts unknown emails the same way, and does not count successful logins', async () => {
    const unknown = uniqueEmail('nobody');
    at(20);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await attempt(unknown, `wrong-${i}`, `198.51.100.${i + 20}`)).status);
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);

    const tenant = await newTenant(call);
    at(30);
    for (let i = 0; i < 12; i += 1) expect((await attempt(tenant.adminEmail, password, `198.51.100.${i + 40}`)).status).toBe(200);
    for (let i = 0; i < 10; i += 1) expect((await attempt(tenant.adminEmail, 'wrong', `198.51.100.${i + 60}`)).status).toBe(401);
    expect((await attempt(tenant.adminEmail, password, '198.51.100.80')).status).toBe(429);
  });

  it('lets at most 10 of 30 parallel wrong guesses at one account be checked', async () => {
    const tenant = await newTenant(call);
    at(40);
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => attempt(tenant.adminEmail, `wrong-${i}`, `198.51.100.${i + 100}`)));
    expect(responses.filter((response) => response.status === 401)).toHaveLength(10);
    expect(responses.filter((response) => response.status === 429)).toHaveLength(20);
  });
});
