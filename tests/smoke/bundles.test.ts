import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundles, type Bundles } from '../../infra/local/bundles';
import { startWorkers } from '../../infra/local/workers';
import { verifyWebhookSignature } from '../../shared/webhooks/signature';
import { newTenant, uniqueEmail, useApi } from '../support/api';
import { breachBody, createBreach } from '../support/breaches';
import { publishedNotice } from '../support/consent';
import { waitForLog } from '../support/evidence';
import { startReceiver, waitFor } from '../support/receiver';
import { confirmedRequest } from '../support/rights';
import { isOwnChange, ownTenants } from '../support/workers';

/**
 * What deploys is what is tested: every function built with the CDK stack's own esbuild options
 * (infra/bundling.ts) into a folder with no node_modules, then the API and the stream, queue and
 * scheduled functions run from those bundles (as `CMS_FUNCTIONS=bundles npm start` runs them)
 * against the local engines, through the paths a tenant and a principal take first. A bundle that
 * needs a package or a file it does not carry fails here. `npm run smoke`; CI runs it apart from
 * the suite (.ci/run).
 */
let bundles: Bundles;
let workers: ReturnType<typeof startWorkers> | undefined;
const { call } = useApi({ handlers: () => (group) => bundles.handlerOf(group) });
const run = promisify(execFile);

beforeAll(async () => {
  bundles = await buildBundles();
  workers = startWorkers(50, {
    bundles,
    streamAccept: isOwnChange,
    tenantAccept: (tenantId) => ownTenants.has(tenantId),
    scheduleScans: false,
  });
}, 180_000);

afterAll(async () => {
  await workers?.stop();
  bundles?.remove();
});

describe('the deployed bundles, run from a folder without node_modules', () => {
  let tenant: Awaited<ReturnType<typeof newTenant>>;
  let notice: Awaited<ReturnType<typeof publishedNotice>>;
  const secret = 'smoke-webhook-secret-0123456789';
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver(() => ({ status: 204 }));
  });
  afterAll(() => receiver.close());

  it('signs in (auth), subscribes a webhook and publishes a notice (webhooks, notices)', async () => {
    tenant = await newTenant(call);
    expect(JSON.parse(Buffer.from(tenant.token.split('.')[0]!, 'base64url').toString())).toMatchObject({ typ: 'at+jwt' });
    const hook = await call('POST', '/api/v1/webhooks', { token: tenant.token, body: { label: 'Smoke', url: receiver.url, secret, events: ['consent.recorded', 'consent.withdrawn'] } });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    notice = await publishedNotice(call, tenant.token);
  });

  it('records consent through the SDK and withdraws it (consent-public), and delivers the signed webhooks (stream, webhook-worker)', async () => {
    const apiKey = await tenant.apiKey();
    const recorded = await call('POST', '/api/v1/consent/sdk-record', {
      body: { apiKey, status: 'ACCEPTED', purposes: { [notice.required]: true, [notice.optional]: true }, identifierHash: 'a'.repeat(64) },
      headers: { origin: 'http://localhost' },
    });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(201);
    const { consentRecordId, withdrawalKey } = recorded.body.data;
    const withdrawn = await call('POST', '/api/v1/consent/sdk-withdraw', { body: { apiKey, consentRecordId, withdrawalKey }, headers: { origin: 'http://localhost' } });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    const delivered = await waitFor(() => {
      const events = receiver.received.map((request) => String(request.headers['x-service-event']));
      return events.includes('consent.recorded') && events.includes('consent.withdrawn') ? receiver.received : undefined;
    }, 60_000);
    for (const request of delivered) expect(verifyWebhookSignature(request.rawBody, request.headers['x-service-signature'] as string, secret)).toBe(true);
  }, 90_000);

  it('confirms a rights request made on the public form (rights, mail through the stream)', async () => {
    const { requestId } = await confirmedRequest(call, tenant.slug, { type: 'ACCESS', email: uniqueEmail('principal'), details: 'What do you hold about me?' });
    const request = await call('GET', `/api/v1/rights/requests/${requestId}`, { token: tenant.token });
    expect(request.status).toBe(200);
    expect(request.body.data.status).not.toBe('UNCONFIRMED');
  }, 60_000);

  it("reads the service's words for a principal's page from the files beside the bundle (portal)", async () => {
    const words = await call('GET', `/api/v1/words/public/${tenant.slug}?language=ta`);
    expect(words.status, JSON.stringify(words.body)).toBe(200);
    // Tamil, not the English a bundle without the built-in files falls back to.
    expect(words.body.data.language).toBe('TA');
    expect(words.body.data.english).toEqual([]);
    expect(Object.values(words.body.data.words as Record<string, string>).some((word) => /[\u0B80-\u0BFF]/.test(word))).toBe(true);
  });

  it('creates a breach and prints its Board intimation as a PDF (documents, from the breaches page, through the document printer)', async () => {
    const breach = await createBreach(call, tenant.token, breachBody());
    expect(breach.breachId).toEqual(expect.any(String));
    // The documents bundle asks the breaches bundle for the page and reaches the printer (as in AWS it invokes both functions).
    const pdf = await call('GET', `/api/v1/breaches/${breach.breachId}/board-report/pdf?stage=INTIMATION`, { token: tenant.token });
    expect(pdf.status, String(pdf.body).slice(0, 300)).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(String(pdf.body).startsWith('%PDF-')).toBe(true);
  });

  it('builds an evidence pack that verifies offline (evidence, checkpointer)', async () => {
    const email = uniqueEmail('principal');
    const recorded = await call('POST', '/api/v1/consent/record', { token: tenant.token, body: { noticeId: notice.noticeId, dataPrincipalIdentifier: email, consentGiven: { [notice.required]: true } } });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(201);
    await waitForLog(tenant.tenantId, 3, { timeoutMs: 60_000 });
    const pack = await waitFor(async () => {
      const response = await call('POST', '/api/v1/consent/evidence-packs', { token: tenant.token, body: { dataPrincipalIdentifier: email } });
      return response.status === 200 && response.body.data.pack.records.every((record: { log?: { status?: string } }) => record.log?.status === 'INTEGRATED') ? response.body.data.pack : undefined;
    }, 60_000);
    const dir = await mkdtemp(join(tmpdir(), 'smoke-pack-'));
    try {
      const file = join(dir, 'pack.json');
      await writeFile(file, JSON.stringify(pack));
      // Exit 0: every signature, proof and checkpoint in the pack checks out.
      await run(process.execPath, ['scripts/verify-evidence-pack.mjs', file]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
