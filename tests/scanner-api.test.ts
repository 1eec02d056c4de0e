import { afterEach, describe, expect, it } from 'vitest';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { addFoundTrackers } from '../shared/cmp/service';
import { openCookieDatabase } from '../shared/scanner/cookie-database';
import { buildFindings, trackerOf, undeclared } from '../shared/scanner/report';
import { finishRun, readRun } from '../shared/scanner/store';
import { loginAs, newTenant, useApi, type ApiResponse } from './support/api';

const { call, state } = useApi();

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const expectError = (response: ApiResponse, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
};

/** A configured tenant with a scan URL on this machine (the local stack admits loopback http). */
const scanningTenant = async (): Promise<Tenant> => {
  const tenant = await newTenant(call);
  const saved = await call('PUT', '/api/v1/cmp/config', { token: tenant.token, body: { scanUrls: ['http://127.0.0.1:9/'] } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return tenant;
};

const scanNow = (tenant: Tenant, token = tenant.token) => call('POST', '/api/v1/cmp/scan-now', { token });

/** Ends a run as the worker would, releasing the tenant's scan lock. */
const finish = async (tenantId: string, scanRunId: string) => {
  const run = (await readRun(tenantId, scanRunId))!;
  await finishRun({ ...run, status: 'COMPLETED', startedAt: run.createdAt, completedAt: run.createdAt }, []);
};

afterEach(() => resetClock());

describe('POST /cmp/scan-now', () => {
  it('queues a run (202) that GET /cmp/scan-runs lists as QUEUED, MANUAL', async () => {
    const tenant = await scanningTenant();
    const response = await scanNow(tenant);
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    expect(response.body.data).toEqual({ scanRunId: expect.any(String), status: 'QUEUED' });
    const runs = await call('GET', '/api/v1/cmp/scan-runs', { token: tenant.token });
    expect(runs.status).toBe(200);
    expect(runs.body.data).toEqual([
      expect.objectContaining({ scanRunId: response.body.data.scanRunId, status: 'QUEUED', trigger: 'MANUAL', urls: ['http://127.0.0.1:9/'], startedAt: null, error: null }),
    ]);
    // Exactly the documented fields, in a stable shape.
    expect(Object.keys(runs.body.data[0]).sort()).toEqual(
      ['completedAt', 'createdAt', 'error', 'failedPages', 'newUndeclared', 'pagesScanned', 'scanRunId', 'startedAt', 'status', 'trackersFound', 'trigger', 'urls', 'violations'],
    );
    const report = await call('GET', `/api/v1/cmp/scan-runs/${response.body.data.scanRunId}`, { token: tenant.token });
    expect(report.body.data).toMatchObject({ status: 'QUEUED', findings: [] });
  });

  it('is 400 NO_SCAN_URLS without scanUrls and website', async () => {
    const tenant = await newTenant(call);
    expect((await call('PUT', '/api/v1/cmp/config', { token: tenant.token, body: {} })).status).toBe(200);
    expectError(await scanNow(tenant), 400, 'NO_SCAN_URLS');
  });

  it('is 409 while a run is queued, 429 with Retry-After within 10 minutes of the last start, 202 after', async () => {
    const tenant = await scanningTenant();
    const first = await scanNow(tenant);
    expect(first.status).toBe(202);
    expectError(await scanNow(tenant), 409, 'SCAN_ALREADY_RUNNING');
    await finish(tenant.tenantId, first.body.data.scanRunId);
    const limited = await scanNow(tenant);
    expectError(limited, 429, 'SCAN_RATE_LIMIT');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(590);
    expect(retryAfter).toBeLessThanOrEqual(600);
    setClock(offsetClock(601_000));
    expect((await scanNow(tenant)).status).toBe(202);
  });

  it('closes a run abandoned by its scanner (lock older than a day) as FAILED and starts the next', async () => {
    const tenant = await scanningTenant();
    const abandoned = await scanNow(tenant);
    setClock(offsetClock(24 * 3_600_000 + 60_000));
    const token = await loginAs(call, tenant.adminEmail);
    const next = await scanNow(tenant, token);
    expect(next.status, JSON.stringify(next.body)).toBe(202);
    const runs = (await call('GET', '/api/v1/cmp/scan-runs', { token })).body.data;
    expect(runs.map((run: { status: string; error: string | null }) => [run.status, run.error])).toEqual([
      ['QUEUED', null],
      ['FAILED', 'The scanner stopped before finishing this run'],
    ]);
    expect(runs[1].scanRunId).toBe(abandoned.body.data.scanRunId);
  });

  it('starts exactly one run of ten simultaneous calls', async () => {
    const tenant = await scanningTenant();
    const responses = await Promise.all(Array.from({ length: 10 }, () => scanNow(tenant)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([202, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    const runs = await call('GET', '/api/v1/cmp/scan-runs', { token: tenant.token });
    expect(runs.body.data).toHaveLength(1);
  });

  it('lists runs newest first', async () => {
    const tenant = await scanningTenant();
    const ids: string[] = [];
    // Two runs 10 minutes apart (the access token lives 15).
    for (let index = 0; index < 2; index += 1) {
      setClock(offsetClock(index * 610_000));
      const response = await scanNow(tenant);
      expect(response.status).toBe(202);
      ids.push(response.body.data.scanRunId);
      await finish(tenant.tenantId, response.body.data.scanRunId);
    }
    const runs = await call('GET', '/api/v1/cmp/scan-runs', { token: tenant.token });
    expect(runs.body.data.map((run: { scanRunId: string }) => run.scanRunId)).toEqual([...ids].reverse());
  });

  it('needs DPO or SUPER_ADMIN; every role reads the runs', async () => {
    const tenant = await scanningTenant();
    expectError(await scanNow(tenant, await tenant.userToken('VIEWER')), 403, 'FORBIDDEN');
    expectError(await scanNow(tenant, await tenant.userToken('ANALYST')), 403, 'FORBIDDEN');
    expect((await call('GET', '/api/v1/cmp/scan-runs', { token: await tenant.userToken('VIEWER') })).status).toBe(200);
    expect((await scanNow(tenant, await tenant.userToken('DPO'))).status).toBe(202);
  });

  it('is 404 CMP_NOT_CONFIGURED on a collect-only plan, and 404 for an unknown run', async () => {
    const collectOnly = await newTenant(call, { plan: 'collect-only' });
    expectError(await scanNow(collectOnly), 404, 'CMP_NOT_CONFIGURED');
    expectError(await call('GET', '/api/v1/cmp/scan-runs', { token: collectOnly.token }), 404, 'CMP_NOT_CONFIGURED');
    const tenant = await scanningTenant();
    expectError(await call('GET', '/api/v1/cmp/scan-runs/0190f3c4-0000-7000-8000-000000000000', { token: tenant.token }), 404, 'NOT_FOUND');
  });
});

describe('scanUrls in PUT /cmp/config', () => {
  it('refuses non-https and private or loopback addresses outside the local loopback exception', async () => {
    const tenant = await newTenant(call);
    for (const url of ['http://example.com/', 'https://10.0.0.1/', 'https://169.254.169.254/latest', 'https://[fd00::1]/', 'https://192.168.1.10/', 'https://user:pw@example.com/']) {
      const response = await call('PUT', '/api/v1/cmp/config', { token: tenant.token, body: { scanUrls: [url] } });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(Object.keys(response.body.error.fields)).toEqual(['scanUrls.0']);
    }
  });
});

describe("the local stack's own ports in scanUrls", () => {
  it('are refused by the local exception: the API, DynamoDB Local, the SQS, S3 and SES engines and the mail inbox; a site of your own on loopback is not', async () => {
    const tenant = await newTenant(call);
    const own = [`${state.baseUrl}/dashboard/`, process.env.DYNAMODB_ENDPOINT!, process.env.SQS_ENDPOINT!, process.env.S3_ENDPOINT!, `${process.env.SES_ENDPOINT!}/store`, `http://localhost:${new URL(state.baseUrl).port}/`];
    for (const url of own) {
      const response = await call('PUT', '/api/v1/cmp/config', { token: tenant.token, body: { scanUrls: [url] } });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.fields['scanUrls.0']).toMatch(/local stack's own services/);
    }
    expect((await call('PUT', '/api/v1/cmp/config', { token: tenant.token, body: { scanUrls: ['http://127.0.0.1:9/'] } })).status).toBe(200);
  });
});

describe('trackers the scanner adds', () => {
  it('can each be removed with DELETE /cmp/trackers, on hosts such as ::1, [::1] and localhost. too', async () => {
    const tenant = await scanningTenant();
    const found = [
      ['COOKIE', 'uid', '::1'],
      ['COOKIE', 'sid', '[::1]'],
      ['LOCAL_STORAGE', ' key\u0007 ', 'localhost.'],
      ['REQUEST', null, '.Tracker.Example.'],
    ] as const;
    const findings = buildFindings(
      found.map(([kind, name, domain]) => ({ kind, name, domain, page: 'http://[::1]:8080/', beforeConsent: true })),
      [],
      openCookieDatabase(),
    );
    // What a run does with its new finds (shared/scanner/worker.ts).
    await addFoundTrackers(tenant.tenantId, undeclared(findings).flatMap((finding) => trackerOf(finding) ?? []));
    const registry = (await call('GET', '/api/v1/cmp/trackers', { token: tenant.token })).body.data as { domain: string; cookieName?: string }[];
    expect(registry).toHaveLength(4);
    for (const { domain, cookieName } of registry) {
      const removed = await call('DELETE', '/api/v1/cmp/trackers', { token: tenant.token, body: { domain, ...(cookieName === undefined ? {} : { cookieName }) } });
      expect(removed.status, `${domain} ${cookieName}: ${JSON.stringify(removed.body)}`).toBe(200);
    }
    expect((await call('GET', '/api/v1/cmp/trackers', { token: tenant.token })).body.data).toEqual([]);
  });

  it('can be removed by the name a person would type, when stored in a raw form before domains were normalised', async () => {
    const tenant = await scanningTenant();
    await addFoundTrackers(tenant.tenantId, [{ domain: '[::1]', cookieName: 'uid', category: 'ANALYTICS', declaredByAdmin: false }]);
    const removed = await call('DELETE', '/api/v1/cmp/trackers', { token: tenant.token, body: { domain: '::1', cookieName: 'uid' } });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await call('GET', '/api/v1/cmp/trackers', { token: tenant.token })).body.data).toEqual([]);
  });
});
