import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it } from 'vitest';
import { handler as scannerHandler } from '../functions/scanner/handler';
import { sqsRecord } from '../infra/local/workers';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { sqs } from '../infra/local/sqs';
import { startDueScans } from '../shared/scanner/schedule';
import { markRunning } from '../shared/scanner/store';
import { launchChromium, type LaunchOptions } from '../shared/browser/launch';
import { runScan } from '../shared/scanner/worker';
import { newTenant, password, useApi } from './support/api';
import { useFixtureSites } from './support/fixture-sites';
import { mailsTo } from './support/mail';

const { call } = useApi();
const { sites } = useFixtureSites();
const budget = { pageMs: 8000 };

type Tenant = Awaited<ReturnType<typeof newTenant>>;

afterEach(() => resetClock());

const tenantScanning = async (paths: string[], extra: Record<string, unknown> = {}) => {
  const tenant = await newTenant(call);
  const saved = await call('PUT', '/api/v1/cmp/config', { token: tenant.token, body: { scanUrls: paths.map((path) => `${sites().site}${path}`), ...extra } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return tenant;
};

const scanNow = async (tenant: Tenant): Promise<string> => {
  const response = await call('POST', '/api/v1/cmp/scan-now', { token: tenant.token });
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  return response.body.data.scanRunId;
};

/** Receives from the scan queue until this run's message turns up, and removes it (others stay for their own tests). */
const takeMessage = async (scanRunId: string): Promise<unknown> => {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const { Messages = [] } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: process.env.SCAN_QUEUE_URL, MaxNumberOfMessages: 10, VisibilityTimeout: 1 }));
    const mine = Messages.find((message) => message.Body?.includes(scanRunId));
    if (mine) {
      await sqs().send(new DeleteMessageCommand({ QueueUrl: process.env.SCAN_QUEUE_URL, ReceiptHandle: mine.ReceiptHandle }));
      return JSON.parse(mine.Body!);
    }
  }
  throw new Error(`no message for ${scanRunId}`);
};

const report = async (tenant: Tenant, scanRunId: string) => (await call('GET', `/api/v1/cmp/scan-runs/${scanRunId}`, { token: tenant.token })).body.data;

describe('a scan run end to end', () => {
  it('completes, adds undeclared trackers without touching declared ones, and alerts the DPO once', async () => {
    const tenant = await tenantScanning(['/']);
    // The admin declared _fbp as FUNCTIONAL: the scanner must neither reclassify nor overwrite it (and FUNCTIONAL before consent is still a violation).
    const declared = await call('PUT', '/api/v1/cmp/trackers', { token: tenant.token, body: { trackers: [{ domain: '127.0.0.1', cookieName: '_fbp', category: 'FUNCTIONAL', vendor: 'Our own' }] } });
    expect(declared.status).toBe(200);

    const first = await scanNow(tenant);
    // scan-now queued exactly this run's message.
    expect(await takeMessage(first)).toEqual({ tenantId: tenant.tenantId, scanRunId: first });
    await runScan({ tenantId: tenant.tenantId, scanRunId: first }, { budget });
    const run = await report(tenant, first);
    expect(run).toMatchObject({ status: 'COMPLETED', trigger: 'MANUAL', pagesScanned: 3, error: null, newUndeclared: 5, violations: 6 });
    expect(run.startedAt).not.toBeNull();
    expect(run.findings.find((finding: { name: string }) => finding.name === '_fbp')).toMatchObject({ declared: true, classifiedBy: 'REGISTRY', category: 'FUNCTIONAL', setBeforeConsent: true });
    expect(run.findings.find((finding: { name: string }) => finding.name === '_ga')).toMatchObject({ declared: false, classifiedBy: 'OPEN_COOKIE_DATABASE', category: 'ANALYTICS' });

    const registry = (await call('GET', '/api/v1/cmp/trackers', { token: tenant.token })).body.data;
    expect(registry.find((tracker: { cookieName?: string }) => tracker.cookieName === '_fbp')).toEqual({ domain: '127.0.0.1', cookieName: '_fbp', category: 'FUNCTIONAL', vendor: 'Our own', declaredByAdmin: true });
    expect(registry.find((tracker: { cookieName?: string }) => tracker.cookieName === '_ga')).toMatchObject({ domain: '127.0.0.1', category: 'ANALYTICS', vendor: 'Google Analytics', declaredByAdmin: false, location: `${sites().site}/` });
    const publicTrackers = (await call('GET', `/api/v1/cmp/config/${tenant.tenantId}`)).body.data.trackers;
    expect(publicTrackers).toHaveLength(registry.length);

    const mails = await mailsTo(tenant.adminEmail);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Tracker scan: 5 new undeclared trackers, 5 firing before consent');
    expect(mails[0]!.body.text).toContain('cookie "_ga" (127.0.0.1): ANALYTICS, Google Analytics - FIRES BEFORE CONSENT');
    expect(mails[0]!.body.text).toContain(`seen on ${sites().site}/`);

    // Ten minutes later the same site has nothing new: the run completes and nobody is mailed.
    setClock(offsetClock(601_000));
    const second = await scanNow(tenant);
    // This time through the Lambda handler, with the message as SQS delivers it (default budgets).
    const body = JSON.stringify(await takeMessage(second));
    await scannerHandler({ Records: [sqsRecord({ MessageId: 'm1', ReceiptHandle: 'r1', Body: body }, String(process.env.SCAN_QUEUE_URL))] });
    expect(await report(tenant, second)).toMatchObject({ status: 'COMPLETED', newUndeclared: 0, violations: 6 });
    expect(await mailsTo(tenant.adminEmail)).toHaveLength(1);
  });

  it('ends a run over its budget FAILED with the reason, and sends nothing', async () => {
    const tenant = await tenantScanning(['/hang', '/about']);
    const scanRunId = await scanNow(tenant);
    // Page and run budgets equal: the first page starts however long Chromium took to launch (up to
    // 4 s), the hanging page uses its budget up, and the second can no longer start.
    await runScan({ tenantId: tenant.tenantId, scanRunId }, { budget: { pageMs: 6000, runMs: 6000 } });
    const run = await report(tenant, scanRunId);
    expect(run).toMatchObject({ status: 'FAILED', error: `The run exceeded its 6 s budget after 1 pages; ${sites().site}/about and any page after it were not scanned`, pagesScanned: 1 });
    // What the page scanned before the budget ran out found is in the report.
    expect(run.findings.map((finding: { name: string }) => finding.name)).toEqual(expect.arrayContaining(['hang_started', '_gid']));
    expect(run.completedAt).not.toBeNull();
    expect(await mailsTo(tenant.adminEmail)).toEqual([]);
    // The lock is released: ten minutes on, the next scan may start.
    setClock(offsetClock(601_000));
    await scanNow(tenant);
  });

  it("completes with what the other pages found when one page busy-loops, and names that page in the report and the DPO's mail", async () => {
    const tenant = await tenantScanning(['/', '/busy']);
    const scanRunId = await scanNow(tenant);
    await runScan({ tenantId: tenant.tenantId, scanRunId }, { budget: { pageMs: 6000, linksPerUrl: 0 } });
    const run = await report(tenant, scanRunId);
    expect(run).toMatchObject({ status: 'COMPLETED', pagesScanned: 2, error: null, failedPages: [{ url: `${sites().site}/busy`, reason: expect.stringMatching(/stopped responding/), afterConsent: false }] });
    expect(run.findings.find((finding: { name: string }) => finding.name === '_ga')).toMatchObject({ pages: [`${sites().site}/`] });
    const [mail] = await mailsTo(tenant.adminEmail);
    expect(mail?.body.text).toContain(`- ${sites().site}/busy: The page stopped responding`);
  });

  it('retries a browser that fails to start once, and completes', async () => {
    const tenant = await tenantScanning(['/about']);
    const scanRunId = await scanNow(tenant);
    // A real failed start: Chromium asked for at a path where there is none, then the real one.
    const starts: LaunchOptions[] = [];
    const failingOnce = (options: LaunchOptions) => {
      starts.push(options);
      return launchChromium(starts.length === 1 ? { ...options, executablePath: '/nonexistent/chromium' } : options);
    };
    await runScan({ tenantId: tenant.tenantId, scanRunId }, { budget: { ...budget, linksPerUrl: 0 }, launch: failingOnce });
    expect(await report(tenant, scanRunId)).toMatchObject({ status: 'COMPLETED', pagesScanned: 1, error: null });
    expect(starts).toHaveLength(2);
    // The second start had twice the time, in a profile of its own.
    expect(starts[1]!.timeoutMs).toBe(2 * 30_000);
    expect(starts[1]!.tmpDir).not.toBe(starts[0]!.tmpDir);
  });

  it('ends FAILED saying why, in words a DPO can act on, when the browser does not start twice', async () => {
    const tenant = await tenantScanning(['/about']);
    const scanRunId = await scanNow(tenant);
    // A machine too busy for Chromium to start within its time, both times: a real start that times out.
    const tooSlow = (options: LaunchOptions) => launchChromium({ ...options, timeoutMs: 1 });
    await runScan({ tenantId: tenant.tenantId, scanRunId }, { budget, launch: tooSlow });
    const run = await report(tenant, scanRunId);
    expect(run).toMatchObject({ status: 'FAILED', pagesScanned: 0 });
    expect(run.error).toBe(
      `The scanner's browser did not start in time, twice in a row: the scanning machine was too busy. Nothing was scanned. Start the scan again ("Scan now") in a few minutes; if it fails again, tell the service's operator, quoting run ${scanRunId}.`,
    );
    expect(await mailsTo(tenant.adminEmail)).toEqual([]);
  });

  it('ends FAILED, never RUNNING forever, when a delivery died mid-run and the message comes back', async () => {
    const tenant = await tenantScanning(['/about']);
    const scanRunId = await scanNow(tenant);
    expect(await markRunning(tenant.tenantId, scanRunId, new Date().toISOString())).toBe(true);
    await runScan({ tenantId: tenant.tenantId, scanRunId }, { budget });
    expect(await report(tenant, scanRunId)).toMatchObject({ status: 'FAILED', error: 'The scanner stopped before finishing this run' });
  });
});

describe('scheduled scans', () => {
  it('queues a SCHEDULED run for a tenant with scanEnabled, then not again for 30 days', async () => {
    const tenant = await tenantScanning(['/about'], { scanEnabled: true });
    const other = await tenantScanning(['/about']);
    while ((await startDueScans()) > 0);
    const runs = (await call('GET', '/api/v1/cmp/scan-runs', { token: tenant.token })).body.data;
    expect(runs).toEqual([expect.objectContaining({ trigger: 'SCHEDULED', status: 'QUEUED' })]);
    expect((await call('GET', '/api/v1/cmp/scan-runs', { token: other.token })).body.data).toEqual([]);
    await runScan({ tenantId: tenant.tenantId, scanRunId: runs[0].scanRunId }, { budget });
    // 29 days on nothing is due; 30 days on it is.
    const runsAfter = async (days: number) => {
      setClock(offsetClock(days * 86_400_000));
      while ((await startDueScans()) > 0);
      const token = (await call('POST', '/api/v1/auth/login', { body: { email: tenant.adminEmail, password } })).body.data.token;
      return (await call('GET', '/api/v1/cmp/scan-runs', { token })).body.data;
    };
    expect(await runsAfter(29)).toHaveLength(1);
    expect((await runsAfter(30.01)).map((run: { trigger: string }) => run.trigger)).toEqual(['SCHEDULED', 'SCHEDULED']);
  });
});
