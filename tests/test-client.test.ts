import { describe, expect, it } from 'vitest';
import { testClientSockets, useApi } from './support/api';

const { call, state } = useApi();

describe('the test client', () => {
  it(`sends 1,000 simultaneous calls over at most ${testClientSockets} connections, every one answered`, async () => {
    const before = state.connections;
    const responses = await Promise.all(Array.from({ length: 1000 }, () => call('GET', '/api/v1/no-such-route')));
    expect(responses.map((response) => response.status).filter((status) => status !== 404)).toEqual([]);
    expect(responses.every((response) => response.headers.get('x-request-id'))).toBe(true);
    expect(state.connections - before).toBeLessThanOrEqual(testClientSockets);
  });
});
