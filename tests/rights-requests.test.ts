import { UpdateCommand } from '../shared/db/commands';
import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { principalContact } from '../shared/consent/contact';
import { principalHash } from '../shared/consent/principal';
import { db, tableName } from '../shared/db/client';
import { documentKeys } from '../shared/evidence/documents';
import { sweepRightsDue } from '../shared/rights/sweeper';
import { loginAs, newTenant, password, uniqueEmail, useApi } from './support/api';
import { addUser } from '../shared/tenants/service';
import { waitForLog } from './support/evidence';
import { failWrites } from './support/storage';
import { mailsTo } from './support/mail';
import { startReceiver, waitFor } from './support/receiver';
import { confirmedRequest, mailedLink, mappedPrincipal } from './support/rights';
import { ownTenants, useTestWorkers } from './support/workers';
import { hindiWords, reviewWords } from './support/words';

const { call, state } = useApi();
useTestWorkers();

beforeAll(() => {
  process.env.PORTAL_BASE_URL = `${state.baseUrl}/portal`;
  process.env.RIGHTS_INTAKE_MIN_MS = '300';
});
afterEach(() => resetClock());

const day = 86_400_000;
const run = promisify(execFile);
const ownSweep = () => sweepRightsDue({ accept: (tenantId) => ownTenants.has(tenantId) });
const publicView = async (token: string) => (await call('GET', `/api/v1/rights/requests/public/${token}`)).body.data;
const detail = async (token: string, requestId: string) => (await call('GET', `/api/v1/rights/requests/${requestId}`, { token })).body.data;
const dpoMails = async (to: string, requestId: string) => (await mailsTo(to)).filter((mail) => mail.body.text?.includes(requestId));

describe('rights requests', () => {
  it('takes a public ACCESS request from intake through confirmation to the answer on the principal\'s link, with both events and log entries', async () => {
    const tenant = await newTenant(call);
    const email = uniqueEmail('principal');
    const map = await mappedPrincipal(call, tenant, email);
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      const webhook = await call('POST', '/api/v1/webhooks', { token: tenant.token, body: { label: 'Rights', url: receiver.url, secret: 'whsec_rights_0123456789', events: ['rights.submitted', 'rights.resolved'] } });
      expect(webhook.status).toBe(201);

      const made = await call('POST', '/api/v1/rights/requests/public', { body: { tenantSlug: tenant.slug, type: 'ACCESS', email: email.toUpperCase(), details: 'What do you hold about me?' } });
      expect(made).toMatchObject({ status: 202, body: { data: { accepted: true } } });
      const token = await mailedLink(email, /confirm your request/);
      // Opening the link (a mail scanner, the principal twice) confirms nothing.
      expect(await publicView(token)).toMatchObject({ status: 'UNVERIFIED', type: 'ACCESS', details: 'What do you hold about me?', confirmBy: expect.any(String), dueAt: null });
      expect((await publicView(token)).status).toBe('UNVERIFIED');
      expect((await call('GET', '/api/v1/rights/requests', { token: tenant.token })).body.data.items).toEqual([expect.objectContaining({ status: 'UNVERIFIED', channel: 'WEB' })]);

      const confirmed = await call('POST', `/api/v1/rights/requests/public/${token}/confirm`);
      expect(confirmed.status).toBe(200);
      expect(confirmed.headers.get('cache-control')).toBe('no-store');
      const submitted = confirmed.body.data;
      expect(submitted).toMatchObject({ status: 'SUBMITTED', daysLeft: 30, overdue: false, dpoContact: tenant.adminEmail });
      expect(Date.parse(submitted.dueAt) - Date.parse(submitted.submittedAt)).toBe(30 * day);
      expect((await call('POST', `/api/v1/rights/requests/public/${token}/confirm`)).status).toBe(409);

      const requestId = submitted.requestId as string;
      const seen = await detail(tenant.token, requestId);
      expect(seen).toMatchObject({ principalHash: principalHash(email), channel: 'WEB', loggedBy: null, closure: null });
      expect(seen.timeline.map((entry: { status: string; by: string; actor: unknown }) => `${entry.status} ${entry.by} ${String(entry.actor)}`)).toEqual(['UNVERIFIED principal null', 'SUBMITTED principal null']);
      expect(seen.assets.map((asset: { name: string; state: unknown }) => [asset.name, asset.state])).toEqual([['CRM', null], ['Orders', null]]);
      expect(JSON.stringify(seen)).not.toContain(email);
      // Written for a DPO: the request named in words, the channel and times as people read them (issue 37).
      const [received] = await dpoMails(tenant.adminEmail, requestId);
      expect(received?.subject).toMatch(/^New rights request: an access request, to answer by \d{1,2} [A-Z][a-z]{2} \d{4}$/);
      expect(received?.body.text).toMatch(/^An access request was received on your request form on .+ IST\. It must be answered by .+ IST\./);
      expect(received?.body.text).not.toMatch(/ACCESS|WEB|\d{4}-\d{2}-\d{2}T/);

      // The DPO's preview of the s.11 summary: the right processors, never the lawful disclosure.
      const summary = (await call('GET', `/api/v1/rights/requests/${requestId}/summary`, { token: await tenant.userToken('VIEWER') })).body.data;
      expect(summary.sharedWith.map((entry: { name: string; dataCategories: string[] }) => [entry.name, entry.dataCategories])).toEqual([
        ['Courier Co', ['address', 'email']],
        ['Mailer Ltd', ['email']],
      ]);
      expect(summary.purposes.map((purpose: { name: string; assets: { name: string }[] }) => [purpose.name, purpose.assets.map((asset) => asset.name)])).toEqual([
        ['Delivery', ['Orders']],
        ['Marketing', ['CRM']],
      ]);
      expect(summary.records).toEqual([expect.objectContaining({ noticeId: map.noticeId, noticeTitle: 'Privacy notice', noticeVersion: 1, language: 'EN', fullyWithdrawn: false })]);

      expect((await call('POST', `/api/v1/rights/requests/${requestId}/start`, { token: tenant.token })).body.data.status).toBe('IN_PROGRESS');
      expect((await call('POST', `/api/v1/rights/requests/${requestId}/start`, { token: tenant.token })).status).toBe(409);
      const resolved = await call('POST', `/api/v1/rights/requests/${requestId}/resolve`, { token: tenant.token, body: { outcome: 'FULFILLED', response: 'Your summary is on your request page.' } });
      expect(resolved.status).toBe(200);
      expect(resolved.body.data).toMatchObject({ status: 'RESOLVED', outcome: 'FULFILLED', daysLeft: null });
      expect((await call('POST', `/api/v1/rights/requests/${requestId}/resolve`, { token: tenant.token, body: { outcome: 'REJECTED', response: 'No.' } })).status).toBe(409);

      // The answer mail brings a link of its own; the first link shows the answer too.
      const answerToken = await mailedLink(email, /the answer to your request/);
      const answerMail = (await mailsTo(email)).find((mail) => /the answer to your request/.test(mail.subject))!;
      expect(answerMail.body.text).toContain(tenant.adminEmail);
      for (const link of [token, answerToken]) {
        const answer = await publicView(link);
        expect(answer).toMatchObject({ status: 'RESOLVED', outcome: 'FULFILLED', response: 'Your summary is on your request page.', linkValidUntil: expect.any(String) });
        expect(answer.summary.sharedWith.map((entry: { name: string }) => entry.name)).toEqual(['Courier Co', 'Mailer Ltd']);
        expect(JSON.stringify(answer)).not.toContain('Cyber cell');
      }

      const events = await waitFor(() => {
        const types = receiver.received.map((entry) => JSON.parse(entry.rawBody.toString('utf8')) as { type: string; data: Record<string, unknown> });
        return types.some((event) => event.type === 'rights.resolved') && types.some((event) => event.type === 'rights.submitted') ? types : undefined;
      });
      expect(events.find((event) => event.type === 'rights.submitted')!.data).toMatchObject({
        requestId,
        type: 'ACCESS',
        channel: 'WEB',
        principalHash: principalHash(email),
        dueAt: submitted.dueAt,
        assets: [{ assetId: map.crm.assetId, name: 'CRM', system: 'crm' }, { assetId: map.orders.assetId, name: 'Orders', system: 'orders database' }],
      });
      expect(events.find((event) => event.type === 'rights.resolved')!.data).toMatchObject({ requestId, type: 'ACCESS', outcome: 'FULFILLED', principalHash: principalHash(email) });

      // Log verification covers the request: its submission and resolution are entries, and altering one is reported.
      const documents = (await detail(tenant.token, requestId)).documents as { documentId: string; documentType: string }[];
      expect(documents.map((document) => document.documentType)).toEqual(['rights.submitted', 'rights.resolved']);
      // The consent record, the submission and the resolution.
      await waitForLog(tenant.tenantId, 3);
      const verified = (await call('GET', '/api/v1/consent/proof-chain/verify', { token: tenant.token })).body.data;
      expect(verified).toMatchObject({ intact: true, treeSize: 3, checked: 3, problems: [] });
      await db().send(
        new UpdateCommand({ TableName: tableName(), Key: documentKeys.document(tenant.tenantId, documents[1]!.documentId), UpdateExpression: 'SET canonical = :c', ExpressionAttributeValues: { ':c': '{"forged":true}' } }),
      );
      const tampered = (await call('GET', '/api/v1/consent/proof-chain/verify', { token: tenant.token })).body.data;
      expect(tampered.problems).toEqual([expect.objectContaining({ kind: 'document', id: documents[1]!.documentId, reason: expect.stringContaining('altered') })]);
    } finally {
      await receiver.close();
    }
  });

  it('answers the public form identically for any address, no sooner than the minimum time, and limits it per IP and per address', async () => {
    const tenant = await newTenant(call);
    const known = uniqueEmail('known');
    await mappedPrincipal(call, tenant, known);
    const answers = [];
    for (const email of [known, uniqueEmail('stranger')]) {
      const started = Date.now();
      const response = await call('POST', '/api/v1/rights/requests/public', { body: { tenantSlug: tenant.slug, type: 'ERASURE', email, details: 'Please erase my data' } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      answers.push({ status: response.status, body: response.body, keys: [...response.headers.keys()].filter((name) => name !== 'date' && name !== 'x-request-id').sort() });
      // Both get the same mail: the form tells nothing, only the mailbox's owner can go on.
      expect(await mailedLink(email, /confirm your request/)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    expect(answers[0]).toEqual(answers[1]);
    // The mail speaks the form's language, in the words the tenant reviewed, its HTML part saying so.
    await reviewWords(call, tenant.token, 'HI', hindiWords);
    const hindi = uniqueEmail('hindi');
    expect((await call('POST', '/api/v1/rights/requests/public', { body: { tenantSlug: tenant.slug, type: 'GRIEVANCE', email: hindi, details: 'शिकायत', language: 'HI' } })).status).toBe(202);
    expect(await mailedLink(hindi, /अपने अनुरोध की पुष्टि करें/)).toBeTruthy();
    expect((await mailsTo(hindi))[0]!.body.html).toMatch(/^<!doctype html>\n<html lang="hi" dir="ltr">/);
    expect((await call('POST', '/api/v1/rights/requests/public', { body: { tenantSlug: 'no-such-tenant', type: 'ACCESS', email: known, details: 'x' } })).status).toBe(404);
    const invalid = await call('POST', '/api/v1/rights/requests/public', { body: { tenantSlug: tenant.slug, type: 'NOMINATION', email: known, details: 'x' } });
    expect(invalid.body.error.fields).toEqual({ nominee: expect.any(String) });

    const repeated = uniqueEmail('repeat');
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt += 1) statuses.push((await call('POST', '/api/v1/rights/requests/public', { body: { tenantSlug: tenant.slug, type: 'ACCESS', email: repeated, details: 'x' } })).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
    const ip = '198.51.100.23';
    const byIp = [];
    for (let attempt = 0; attempt < 6; attempt += 1) byIp.push((await call('POST', '/api/v1/rights/requests/public', { ip, body: { tenantSlug: tenant.slug, type: 'ACCESS', email: uniqueEmail('ip'), details: 'x' } })).status);
    expect(byIp).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('validates before counting: malformed bodies never spend the form\'s 5 an hour, and have a bound of their own', async () => {
    const tenant = await newTenant(call);
    // At the start of an hour, so every request below shares one window of both limits.
    setClock(offsetClock(3_600_000 - (Date.now() % 3_600_000) + 1_000));
    process.env.RATE_LIMIT_MALFORMED_PER_IP_PER_HOUR = '8';
    try {
      const ip = '198.51.100.41';
      const post = (body: unknown) => call('POST', '/api/v1/rights/requests/public', { ip, body });
      const malformed = [
        () => post({ tenantSlug: tenant.slug, type: 'ACCESS', details: 'no email' }),
        () => post({ tenantSlug: tenant.slug, type: 'OPINION', email: uniqueEmail('bad'), details: 'x' }),
        () => post({ tenantSlug: tenant.slug, type: 'ACCESS', email: 'not an address', details: 'x' }),
        () => post({ tenantSlug: tenant.slug, type: 'ACCESS', email: uniqueEmail('bad'), details: 'x', extra: true }),
        () => call('POST', '/api/v1/rights/requests/public', { ip, rawBody: '{"tenantSlug": ' }),
        () => post([]),
      ];
      const refused = [];
      for (const send of malformed) refused.push(await send());
      expect(refused.map((response) => response.status)).toEqual([400, 400, 400, 400, 400, 400]);
      expect(refused.every((response) => response.body.error.code === 'VALIDATION_ERROR')).toBe(true);
      // The address can still make its 5 real requests an hour, and no more.
      const real = [];
      for (let attempt = 0; attempt < 6; attempt += 1) real.push((await post({ tenantSlug: tenant.slug, type: 'ACCESS', email: uniqueEmail('real'), details: 'x' })).status);
      expect(real).toEqual([202, 202, 202, 202, 202, 429]);
      // Malformed traffic has its own bound: past it, 429 RATE_LIMIT instead of a 400 worked out each time.
      const more = [];
      for (let attempt = 0; attempt < 3; attempt += 1) more.push(await post({ tenantSlug: tenant.slug }));
      expect(more.map((response) => response.status)).toEqual([400, 400, 429]);
      expect(more[2]!.body.error.code).toBe('RATE_LIMIT');
      expect(Number(more[2]!.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      delete process.env.RATE_LIMIT_MALFORMED_PER_IP_PER_HOUR;
    }
  });

  it('expires a request not confirmed within 24 hours: 410 on confirm, EXPIRED after the sweep', async () => {
    const tenant = await newTenant(call);
    const email = uniqueEmail('late');
    expect((await call('POST', '/api/v1/rights/requests/public', { body: { tenantSlug: tenant.slug, type: 'CORRECTION', email, details: 'My address changed' } })).status).toBe(202);
    const token = await mailedLink(email, /confirm your request/);
    const requestId = (await publicView(token)).requestId as string;
    setClock(offsetClock(25 * 3_600_000));
    const late = await call('POST', `/api/v1/rights/requests/public/${token}/confirm`);
    expect(late.status).toBe(410);
    expect(late.body.error).toMatchObject({ code: 'GONE', details: { reason: 'EXPIRED' } });
    expect((await publicView(token)).status).toBe('EXPIRED');
    expect(await ownSweep()).toBeGreaterThanOrEqual(1);
    // An access token lasts 15 minutes: sign in again a day later.
    const token2 = await loginAs(call, tenant.adminEmail);
    const expired = await detail(token2, requestId);
    expect(expired).toMatchObject({ status: 'EXPIRED', submittedAt: null, dueAt: null });
    expect(expired.timeline.at(-1)).toMatchObject({ status: 'EXPIRED', by: 'system' });
    expect((await call('GET', '/api/v1/rights/requests?status=EXPIRED', { token: token2 })).body.data.items.map((item: { requestId: string }) => item.requestId)).toEqual([requestId]);
    expect(await ownSweep()).toBe(0);
    expect((await call('GET', '/api/v1/rights/requests/public/unknown-token-0123456789', {})).status).toBe(404);
  });

  it('refuses to fulfil an ERASURE with a PENDING asset, then withdraws all the principal\'s consent (RIGHTS_REQUEST), forgets the sealed email and keeps the records', async () => {
    const tenant = await newTenant(call);
    const email = uniqueEmail('erase');
    const map = await mappedPrincipal(call, tenant, email);
    const logged = await call('POST', '/api/v1/rights/requests', { token: tenant.token, body: { type: 'ERASURE', dataPrincipalIdentifier: email, details: 'Erase me', channel: 'LETTER' } });
    expect(logged.status).toBe(201);
    const requestId = logged.body.data.requestId as string;
    expect(logged.body.data).toMatchObject({ status: 'SUBMITTED', channel: 'LETTER', loggedBy: expect.any(String) });
    expect(logged.body.data.assets.map((asset: { name: string; state: string }) => [asset.name, asset.state])).toEqual([['CRM', 'PENDING'], ['Orders', 'PENDING']]);
    // A principal the team knows by email is told where to follow it.
    expect(await mailedLink(email, /your request is received/)).toBeTruthy();

    const refused = await call('POST', `/api/v1/rights/requests/${requestId}/resolve`, { token: tenant.token, body: { outcome: 'FULFILLED', response: 'Erased.' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details.pendingAssets).toHaveLength(2);
    const noNote = await call('POST', `/api/v1/rights/requests/${requestId}/assets/${map.orders.assetId}`, { token: tenant.token, body: { state: 'RETAINED' } });
    expect(noNote.body.error.fields).toEqual({ note: expect.any(String) });
    await Promise.all([
      call('POST', `/api/v1/rights/requests/${requestId}/assets/${map.crm.assetId}`, { token: tenant.token, body: { state: 'DONE' } }),
      call('POST', `/api/v1/rights/requests/${requestId}/assets/${map.orders.assetId}`, { token: tenant.token, body: { state: 'RETAINED', note: 'Invoices: 8 years under the Companies Act, 2013' } }),
    ]);
    const marked = await detail(tenant.token, requestId);
    expect(marked.assets.map((asset: { name: string; state: string }) => [asset.name, asset.state])).toEqual([['CRM', 'DONE'], ['Orders', 'RETAINED']]);

    // The email the DPO's record kept sealed (for duties such as breach intimation) goes with the erasure.
    expect((await principalContact(tenant.tenantId, principalHash(email))).sealed).toEqual(expect.any(String));
    const resolved = await call('POST', `/api/v1/rights/requests/${requestId}/resolve`, { token: tenant.token, body: { outcome: 'FULFILLED', response: 'Erased, invoices kept as the law requires.' } });
    expect(resolved.status).toBe(200);
    expect((await principalContact(tenant.tenantId, principalHash(email))).sealed).toBeUndefined();
    expect(resolved.body.data.withdrawalId).toEqual(expect.any(String));
    expect((await detail(tenant.token, requestId)).withdrawalId).toBe(resolved.body.data.withdrawalId);
    const records = (await call('GET', `/api/v1/consent/status/${principalHash(email)}`, { token: tenant.token })).body.data;
    expect(records).toEqual([expect.objectContaining({ isWithdrawn: true, withdrawnAt: expect.any(String) })]);
    const tasks = (await call('GET', '/api/v1/compliance-tasks', { token: tenant.token })).body.data;
    expect(tasks).toEqual([expect.objectContaining({ withdrawalId: resolved.body.data.withdrawalId })]);
  });

  it("keeps the team's note apart from what the principal asked: her page shows only her words; the timeline names who acted by email and role, as they were then", async () => {
    const tenant = await newTenant(call);
    const email = uniqueEmail('caller');
    await mappedPrincipal(call, tenant, email);
    const teamNote = 'Asha phoned at 10:40 and asked for a copy; identity checked against order 1234.';
    const logged = await call('POST', '/api/v1/rights/requests', { token: tenant.token, body: { type: 'ACCESS', dataPrincipalIdentifier: email, details: 'Please send me a copy of my data.', teamNote, channel: 'PHONE' } });
    expect(logged.status, JSON.stringify(logged.body)).toBe(201);
    const requestId = logged.body.data.requestId as string;
    expect(logged.body.data).toMatchObject({ details: 'Please send me a copy of my data.', teamNote });
    const mine = await publicView(await mailedLink(email, /your request is received/));
    expect(mine.details).toBe('Please send me a copy of my data.');
    expect(JSON.stringify(mine)).not.toContain('identity checked');

    const dpoEmail = uniqueEmail('dpo');
    await addUser({ tenantId: tenant.tenantId, email: dpoEmail, password, role: 'DPO' });
    expect((await call('POST', `/api/v1/rights/requests/${requestId}/start`, { token: await loginAs(call, dpoEmail), body: {} })).status).toBe(200);
    const seen = await detail(tenant.token, requestId);
    expect(seen.timeline.map((entry: { status: string; actor: unknown }) => [entry.status, entry.actor])).toEqual([
      ['SUBMITTED', { userId: expect.any(String), email: tenant.adminEmail, role: 'SUPER_ADMIN', asRecordedThen: true }],
      ['IN_PROGRESS', { userId: expect.any(String), email: dpoEmail, role: 'DPO', asRecordedThen: true }],
    ]);
  });

  it('records a fulfilled NOMINATION, which the principal\'s next access summary lists', async () => {
    const tenant = await newTenant(call);
    const email = uniqueEmail('nominator');
    await mappedPrincipal(call, tenant, email);
    const nominee = { name: 'Meera Rao', email: 'meera@example.in', relationship: 'Sister' };
    const { requestId } = await confirmedRequest(call, tenant.slug, { type: 'NOMINATION', email, details: 'My sister, please', nominee });
    expect((await detail(tenant.token, requestId)).nominee).toEqual(nominee);
    expect((await call('POST', `/api/v1/rights/requests/${requestId}/resolve`, { token: tenant.token, body: { outcome: 'FULFILLED', response: 'Recorded.' } })).status).toBe(200);
    const access = await confirmedRequest(call, tenant.slug, { type: 'ACCESS', email, details: 'My data please' });
    const summary = (await call('GET', `/api/v1/rights/requests/${access.requestId}/summary`, { token: tenant.token })).body.data;
    expect(summary.nominees).toEqual([{ name: 'Meera Rao', relationship: 'Sister', nominatedAt: expect.any(String) }]);
  });

  it('answers a grievance with the Board and a closure receipt that the offline verifier checks against the log', async () => {
    const tenant = await newTenant(call);
    const email = uniqueEmail('grieved');
    const logged = await call('POST', '/api/v1/rights/requests', { token: tenant.token, body: { type: 'GRIEVANCE', dataPrincipalIdentifier: email, details: 'You ignored my erasure request', channel: 'EMAIL' } });
    const requestId = logged.body.data.requestId as string;
    const resolved = await call('POST', `/api/v1/rights/requests/${requestId}/resolve`, { token: tenant.token, body: { outcome: 'REJECTED', response: 'The erasure was done on 3 May; see the attached log.' } });
    expect(resolved.status).toBe(200);
    const mail = (await mailsTo(email)).find((item) => /the answer to your request/.test(item.subject))!;
    expect(mail.body.text).toContain('Data Protection Board of India');
    const receipt = /^([\w-]+\.[\w-]+\.[\w-]+)$/m.exec(mail.body.text ?? '')?.[1];
    expect(receipt).toBe(resolved.body.data.closure.receipt);

    await waitForLog(tenant.tenantId, 2);
    const token = await mailedLink(email, /the answer to your request/);
    const answer = (await call('GET', `/api/v1/rights/requests/public/${token}`)).body;
    expect(answer.data.closure.log.status).toBe('INTEGRATED');
    const keys = (await call('GET', '/api/v1/consent/log/keys')).body;
    const dir = await mkdtemp(join(tmpdir(), 'closure-'));
    await writeFile(join(dir, 'closure.jws'), receipt!);
    await writeFile(join(dir, 'answer.json'), JSON.stringify(answer));
    await writeFile(join(dir, 'keys.json'), JSON.stringify(keys));
    const verify = (jws: string) =>
      run(process.execPath, ['scripts/verify-receipt.mjs', '--closure', join(dir, jws), join(dir, 'answer.json'), join(dir, 'keys.json')]).catch((error: { code: number; stdout: string }) => error);
    expect(await verify('closure.jws')).toMatchObject({ stdout: expect.stringMatching(new RegExp(`^VALID: grievance ${requestId} was closed REJECTED at .*; its resolution is leaf 1 of the tenant's log`)) });
    // A receipt claiming another outcome (re-signed or not) does not pass.
    const [header, payload, signature] = receipt!.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    await writeFile(join(dir, 'altered.jws'), `${header}.${Buffer.from(JSON.stringify({ ...claims, out: 'FULFILLED' })).toString('base64url')}.${signature}`);
    expect(await verify('altered.jws')).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the receipt signature does not verify/) });
    // The answer file altered under a genuine receipt: its outcome, its response, whose answer it is.
    const verifyAnswer = async (alter: (data: any) => void) => {
      const altered = structuredClone(answer);
      alter(altered.data);
      await writeFile(join(dir, 'answer.json'), JSON.stringify(altered));
      return verify('closure.jws');
    };
    expect(await verifyAnswer((data) => (data.outcome = 'FULFILLED'))).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: answer.json says outcome FULFILLED, the receipt and the logged resolution REJECTED/) });
    expect(await verifyAnswer((data) => (data.response = 'Your data was erased on 3 May.'))).toMatchObject({
      code: 1,
      stdout: expect.stringMatching(/^INVALID: the response in answer.json does not hash to the responseHash the logged resolution holds: the answer's text was altered/),
    });
    expect(await verifyAnswer((data) => {
      data.outcome = 'FULFILLED';
      data.response = 'Done.';
    })).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: answer.json says outcome FULFILLED/) });
    expect(await verifyAnswer((data) => (data.requestId = randomUUID()))).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: answer.json is the answer to request .+, the receipt names request /) });
    expect(await verifyAnswer(() => undefined)).toMatchObject({ stdout: expect.stringMatching(/^VALID/) });
  });

  it('never answers a request or a resolution whose write failed with a 2xx, and stores none of it', async () => {
    const tenant = await newTenant(call);
    const email = uniqueEmail('unlucky');
    const logged = await call('POST', '/api/v1/rights/requests', { token: tenant.token, body: { type: 'GRIEVANCE', dataPrincipalIdentifier: 'customer-9', details: 'Late', channel: 'PHONE' } });
    const requestId = logged.body.data.requestId as string;
    // Rate-limit counters are UpdateCommands: they go through, so the requests reach their own writes.
    const { restore } = failWrites({ except: (command) => command === 'UpdateItem' });
    try {
      expect((await call('POST', '/api/v1/rights/requests/public', { body: { tenantSlug: tenant.slug, type: 'ACCESS', email, details: 'x' } })).status).toBe(500);
      expect((await call('POST', `/api/v1/rights/requests/${requestId}/resolve`, { token: tenant.token, body: { outcome: 'FULFILLED', response: 'Done' } })).status).toBe(500);
    } finally {
      restore();
    }
    // The request, its link and its mail are one transaction: none of them was written.
    expect((await call('GET', '/api/v1/rights/requests', { token: tenant.token })).body.data.items.map((item: { requestId: string; status: string }) => [item.requestId, item.status])).toEqual([[requestId, 'SUBMITTED']]);
  });

  it('lets exactly one of five racing resolves win', async () => {
    const tenant = await newTenant(call);
    const logged = await call('POST', '/api/v1/rights/requests', { token: tenant.token, body: { type: 'GRIEVANCE', dataPrincipalIdentifier: 'customer-42', details: 'Rude support', channel: 'PHONE' } });
    const requestId = logged.body.data.requestId as string;
    const statuses = await Promise.all(
      ['FULFILLED', 'REJECTED', 'PARTIALLY_FULFILLED', 'FULFILLED', 'REJECTED'].map(async (outcome) => (await call('POST', `/api/v1/rights/requests/${requestId}/resolve`, { token: tenant.token, body: { outcome, response: `Answer ${outcome}` } })).status),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(4);
    expect((await detail(tenant.token, requestId)).timeline.filter((entry: { status: string }) => entry.status === 'RESOLVED')).toHaveLength(1);
  });

  it('mails the DPO at submission, a week before the due date and once overdue, each once however often the sweep runs', async () => {
    const tenant = await newTenant(call);
    expect((await call('PUT', '/api/v1/rights/settings', { token: tenant.token, body: { requestResponseDays: 10 } })).body.data).toMatchObject({ requestResponseDays: 10, grievanceResponseDays: 30, identifiersRequired: ['email'] });
    const logged = await call('POST', '/api/v1/rights/requests', { token: tenant.token, body: { type: 'UPDATING', dataPrincipalIdentifier: 'customer-7', details: 'New phone number', channel: 'IN_PERSON' } });
    const requestId = logged.body.data.requestId as string;
    expect(logged.body.data.daysLeft).toBe(10);
    const subjects = async () => (await dpoMails(tenant.adminEmail, requestId)).map((mail) => mail.subject.replace(/, .*/, ''));
    expect(await subjects()).toEqual(['New rights request: an updating request']);

    setClock(offsetClock(2 * day));
    await Promise.all([ownSweep(), ownSweep()]);
    expect(await subjects()).toEqual(['New rights request: an updating request']);
    setClock(offsetClock(4 * day));
    await Promise.all([ownSweep(), ownSweep()]);
    await ownSweep();
    expect(await subjects()).toEqual(['New rights request: an updating request', 'Rights request due in 7 days: an updating request']);
    setClock(offsetClock(11 * day));
    await Promise.all([ownSweep(), ownSweep()]);
    await ownSweep();
    expect(await subjects()).toEqual(['New rights request: an updating request', 'Rights request due in 7 days: an updating request', 'Rights request overdue: an updating request']);
    const later = await loginAs(call, tenant.adminEmail);
    const overdue = (await call('GET', '/api/v1/rights/requests?overdue=true', { token: later })).body.data.items;
    expect(overdue).toEqual([expect.objectContaining({ requestId, overdue: true, daysLeft: -1 })]);
    expect((await call('GET', '/api/v1/rights/requests?overdue=true&type=ACCESS', { token: later })).body.data.items).toEqual([]);
  });
});
