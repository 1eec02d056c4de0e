import { afterEach, describe, expect, it } from 'vitest';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { useApi } from './support/api';

const { call } = useApi();
afterEach(() => resetClock());

describe('login rate limit', () => {
  it('limits login attempts per IP with 429 RATE_LIMIT and Retry-After', async () => {
    // At the start of a minute, so the 21 attempts fall in one window.
    setClock(offsetClock(60_000 - (Date.now() % 60_000) + 1_000));
    const ip = '203.0.113.77';
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 21; i += 1) {
      last = await call('POST', '/api/v1/auth/login', { ip, body: { email: 'guess@nowhere.example', password: `guess-${i}` } });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect(last!.body.error.code).toBe('RATE_LIMIT');
    expect(last!.headers.get('retry-after')).toBeTruthy();
  });
});
