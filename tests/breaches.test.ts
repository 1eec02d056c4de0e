import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetClock, setClock, offsetClock } from '../shared/clock';
import { loginAs, newTenant, useApi } from './support/api';
import { breachBody, createBreach, getBreach, intimate, intimationBody, outboxEvents } from './support/breaches';
import { publishedNotice, recordConsent, sha256 } from './support/consent';
import { deliveredMails } from './support/mail';
import { failWrites } from './support/storage';
import { publish } from './support/notices';
import { startReceiver, waitFor } from './support/receiver';
import { useTestWorkers } from './support/workers';
import { hindiWords, reviewWords } from './support/words';

/**
 * The breach register through the API against the local stack: both clocks, principal intimation
 * by notice and by hash list (mails read back from the SES emulator, each once, in Hindi for a
 * principal who consented in Hindi, the rest handed to the tenant as breach.principals), the
 * Board intimation, the detailed report refused while an item is missing and then filed, late
 * for a backdated awareAt, the extension, closing, the timeline and log verification.
 */
const { call, state } = useApi();
useTestWorkers();

const hourMs = 3_600_000;
const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}@example.in`;

beforeAll(() => {
  process.env.RATE_LIMIT_BEARER_PER_MINUTE = '100000';
});
afterEach(() => resetClock());

/** A tenant with principals: two on notice A (one consented in Hindi), one hash-only on A, one on notice B (A's revision). */
const tenantWithPrincipals = async () => {
  const tenant = await newTenant(call);
  const { noticeId, required, optional } = await publishedNotice(call, tenant.token);
  const asha = unique('asha');
  const ravi = unique('ravi');
  const meera = unique('meera');
  const hashOnly = sha256(`customer-${Math.random()}`);
  // Notice A is English only; its revision B also has a Hindi text.
  expect((await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: asha, consentGiven: { [required]: true, [optional]: true } })).status).toBe(201);
  const apiKey = await tenant.apiKey();
  const sdk = await call('POST', '/api/v1/consent/sdk-record', { body: { apiKey, status: 'ACCEPTED', purposes: { [required]: true, [optional]: false }, identifierHash: hashOnly }, headers: { origin: 'http://localhost' } });
  expect(sdk.status).toBe(201);
  const revised = await call('POST', `/api/v1/notices/${noticeId}/revise`, { token: tenant.token, body: {} });
  const noticeB = revised.body.data.id as string;
  expect((await call('POST', `/api/v1/notices/${noticeB}/translations`, { token: tenant.token, body: { language: 'HI', title: 'गोपनीयता सूचना' } })).status).toBe(201);
  expect((await publish(call, tenant.token, noticeB)).status).toBe(200);
  // Meera and Ravi consent to B, Ravi in Hindi: his latest consent is in Hindi.
  expect((await recordConsent(call, tenant.token, { noticeId: noticeB, dataPrincipalIdentifier: meera, consentGiven: { [required]: true } })).status).toBe(201);
  expect((await recordConsent(call, tenant.token, { noticeId: noticeB, dataPrincipalIdentifier: ravi, consentGiven: { [required]: true }, language: 'HI' })).status).toBe(201);
  return { tenant, noticeA: noticeId, noticeB, required, optional, asha, ravi, meera, hashOnly };
};

const hindi = {
  whatHappened: 'आपके कुछ ऑर्डर विवरण कुछ घंटों तक दूसरों को दिख सकते थे।',
  consequences: 'कोई आपको हमारे नाम से नकली मेल भेज सकता है।',
  mitigation: 'हमने एक घंटे के भीतर बकेट बंद कर दिया और कुंजियाँ बदल दीं।',
  safetySteps: 'पासवर्ड माँगने वाले मेल के लिंक न खोलें।',
};

const mailsFor = async (address: string) => (await deliveredMails()).filter((mail) => mail.destination.to.includes(address));

describe('breach register: create and clocks', () => {
  it('records a breach with both clocks from awareAt, emits breach.created and keeps it to its tenant', async () => {
    const tenant = await newTenant(call);
    const awareAt = new Date(Date.now() - 2 * hourMs).toISOString();
    const breach = await createBreach(call, tenant.token, breachBody({ awareAt }));
    expect(breach).toMatchObject({
      status: 'OPEN',
      awareAt,
      boardIntimationDueAt: awareAt,
      detailedReportDueAt: new Date(Date.parse(awareAt) + 72 * hourMs).toISOString(),
      affectedCount: null,
      intimation: { status: 'NOT_STARTED', progress: { total: 0, mailed: 0, viaTenant: 0, awaitingTenant: 0, failed: 0 }, reached: 0, handoff: { webhookSubscribed: false } },
    });
    expect(breach.clocks.boardIntimation).toMatchObject({ dueAt: awareAt, filedAt: null, late: null, overdue: false });
    expect(breach.clocks.detailedReport).toMatchObject({ filedAt: null, late: null, overdue: false });
    const [event] = await outboxEvents(tenant.tenantId, 'breach.created');
    expect(event?.data).toMatchObject({ breachId: breach.breachId, awareAt, affectedScope: 'ALL', boardIntimationDueAt: awareAt });

    // 7 hours later the intimation is overdue (BREACH_BOARD_INTIMATION_LATE_HOURS, 6), the report not yet.
    setClock(offsetClock(5 * hourMs));
    const token = await loginAs(call, tenant.adminEmail);
    const later = await getBreach(call, token, breach.breachId);
    expect(later.clocks.boardIntimation.overdue).toBe(true);
    expect(later.clocks.detailedReport.overdue).toBe(false);
    expect((await call('GET', '/api/v1/breaches?overdue=true', { token })).body.data.map((item: any) => item.breachId)).toEqual([breach.breachId]);
    expect((await call('GET', '/api/v1/breaches?overdue=false', { token })).body.data).toEqual([]);
    expect((await call('GET', '/api/v1/breaches?status=CLOSED', { token })).body.data).toEqual([]);
    resetClock();

    const stranger = await newTenant(call);
    expect((await call('GET', `/api/v1/breaches/${breach.breachId}`, { token: stranger.token })).status).toBe(404);
    expect((await call('POST', `/api/v1/breaches/${breach.breachId}/board-intimation`, { token: stranger.token, body: {} })).status).toBe(404);
    expect((await call('GET', '/api/v1/breaches', { token: stranger.token })).body.data).toEqual([]);
    const viewer = await tenant.userToken('VIEWER');
    expect((await call('GET', `/api/v1/breaches/${breach.breachId}`, { token: viewer })).status).toBe(200);
    expect((await call('PUT', `/api/v1/breaches/${breach.breachId}`, { token: viewer, body: { title: 'x' } })).status).toBe(403);
  });

  it('refuses an awareAt in the future, an occurrence after awareness, unknown notices and purposes, and lists that do not fit the scope', async () => {
    const tenant = await newTenant(call);
    const future = new Date(Date.now() + hourMs).toISOString();
    const fieldsOf = async (body: Record<string, unknown>) => {
      const response = await call('POST', '/api/v1/breaches', { token: tenant.token, body });
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      return response.body.error.fields;
    };
    expect(await fieldsOf(breachBody({ awareAt: future }))).toHaveProperty('awareAt');
    expect(await fieldsOf(breachBody({ occurredAt: new Date().toISOString() }, 2))).toHaveProperty('occurredAt');
    const missingNotice = '00000000-0000-4000-8000-00000000000a';
    expect(await fieldsOf(breachBody({ affected: { scope: 'NOTICES', noticeIds: [missingNotice] } }))).toEqual({ 'affected.noticeIds': expect.stringContaining(missingNotice) });
    expect(await fieldsOf(breachBody({ affected: { scope: 'PURPOSES', purposeIds: [missingNotice] } }))).toHaveProperty(['affected.purposeIds']);
    expect(await fieldsOf(breachBody({ affected: { scope: 'NOTICES' } }))).toHaveProperty(['affected.noticeIds']);
    expect(await fieldsOf(breachBody({ affected: { scope: 'ALL', principalHashes: ['a'.repeat(64)] } }))).toHaveProperty(['affected.principalHashes']);
    expect(await fieldsOf(breachBody({ title: '' }))).toHaveProperty('title');
    expect((await call('GET', '/api/v1/breaches', { token: tenant.token })).body.data).toEqual([]);
  });

  it("names the data map's assets it touched: another tenant's or an unknown asset is 400, the detail and the Board intimation list them", async () => {
    const tenant = await newTenant(call);
    const other = await newTenant(call);
    const asset = async (owner: { token: string }, name: string) => {
      const response = await call('POST', '/api/v1/data-assets', { token: owner.token, body: { name, system: `${name} database`, location: 'IN', dataCategories: ['email'] } });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return response.body.data.assetId as string;
    };
    const orders = await asset(tenant, 'Orders');
    const crm = await asset(tenant, 'CRM');
    const foreign = await asset(other, 'Theirs');
    const refused = await call('POST', '/api/v1/breaches', { token: tenant.token, body: breachBody({ assetIds: [orders, foreign] }) });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toEqual({ assetIds: expect.stringContaining(foreign) });
    const { breachId } = await createBreach(call, tenant.token, breachBody({ assetIds: [orders] }));
    expect((await getBreach(call, tenant.token, breachId)).assets).toEqual([{ assetId: orders, name: 'Orders', system: 'Orders database', location: 'IN' }]);
    const changed = await call('PUT', `/api/v1/breaches/${breachId}`, { token: tenant.token, body: { assetIds: [orders, crm] } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.assets.map((named: { name: string }) => named.name)).toEqual(['Orders', 'CRM']);
    expect(changed.body.data.timeline.at(-1)).toMatchObject({ action: 'updated', details: { assetIds: { from: [orders], to: [orders, crm] } } });
    const filing = await call('POST', `/api/v1/breaches/${breachId}/board-intimation`, { token: tenant.token, body: {} });
    expect(filing.status).toBe(201);
    expect(filing.body.data.document.description.assets.map((named: { system: string }) => named.system)).toEqual(['Orders database', 'CRM database']);
  });

  it('never answers 2xx for a write that failed, and stores nothing of it', async () => {
    const tenant = await newTenant(call);
    const breach = await createBreach(call, tenant.token, breachBody());
    // Rate-limit reservations (UpdateItem) still work; the breach's own transactions fail.
    const storage = failWrites({ except: (command) => command === 'UpdateItem' });
    try {
      expect((await call('POST', '/api/v1/breaches', { token: tenant.token, body: breachBody({ title: 'Second' }) })).status).toBe(500);
      expect((await call('POST', `/api/v1/breaches/${breach.breachId}/board-intimation`, { token: tenant.token, body: {} })).status).toBe(500);
      expect((await call('PUT', `/api/v1/breaches/${breach.breachId}`, { token: tenant.token, body: { title: 'Renamed' } })).status).toBe(500);
    } finally {
      storage.restore();
    }
    const listed = (await call('GET', '/api/v1/breaches', { token: tenant.token })).body.data;
    expect(listed.map((item: { title: string }) => item.title)).toEqual(['Order database exposed']);
    expect(listed[0].clocks.boardIntimation.filedAt).toBeNull();
    expect((await getBreach(call, tenant.token, breach.breachId)).timeline.map((entry: { action: string }) => entry.action)).toEqual(['created']);
  });
});

describe('breach register: intimating the affected principals', () => {
  it('mails the principals of a notice once each, in Hindi for the one whose latest consent was in Hindi, and hands the rest to the tenant', async () => {
    const { tenant, noticeA, asha, ravi, meera, hashOnly } = await tenantWithPrincipals();
    const breach = await createBreach(call, tenant.token, breachBody({ affected: { scope: 'NOTICES', noticeIds: [noticeA] } }));
    const done = await intimate(call, tenant.token, breach.breachId, intimationBody({ translations: { HI: hindi } }));
    // Notice A: Asha and the hash-only principal; Ravi and Meera consented to B only.
    // The hash-only principal is handed to the tenant, but no webhook of its takes breach.principals: not reached.
    expect(done.intimation.progress).toEqual({ total: 2, mailed: 1, viaTenant: 0, awaitingTenant: 1, failed: 0 });
    expect(done.intimation).toMatchObject({ reached: 1, handoff: { webhookSubscribed: false } });
    expect(done.affectedCount).toBe(2);
    const ashaMails = await mailsFor(asha);
    expect(ashaMails).toHaveLength(1);
    expect(ashaMails[0]!.subject).toContain('a personal data breach that affects your data');
    for (const part of ['What happened', 'Some of your order details', 'What this may mean for you', 'What we have done', 'What you can do', 'Whom to contact', 'dpo@shop.example', breach.breachId]) {
      expect(ashaMails[0]!.body.text).toContain(part);
    }
    // The register's own description (a storage bucket, a region) is the team's, never the principal's.
    for (const internal of ['misconfigured storage bucket', 'ap-south-1']) expect(ashaMails[0]!.body.text).not.toContain(internal);
    expect(await mailsFor(ravi)).toEqual([]);
    expect(await mailsFor(meera)).toEqual([]);
    const [handed] = await outboxEvents(tenant.tenantId, 'breach.principals');
    expect(handed?.data).toMatchObject({ breachId: breach.breachId, page: 0, principalHashes: [hashOnly] });
    expect(JSON.stringify(await outboxEvents(tenant.tenantId, 'breach.principals'))).not.toContain('@');

    // A second call reaches nobody again.
    const again = await intimate(call, tenant.token, breach.breachId);
    expect(again.intimation).toMatchObject({ runs: 2, progress: { total: 2, mailed: 1, viaTenant: 0, awaitingTenant: 1, failed: 0 } });
    expect(await mailsFor(asha)).toHaveLength(1);
    expect(await outboxEvents(tenant.tenantId, 'breach.principals')).toHaveLength(1);

    // By hash list: Ravi (his latest consent in Hindi), Asha again (a new breach: mailed again) and a stranger to the records.
    const stranger = sha256('not-a-principal');
    const listed = await createBreach(call, tenant.token, breachBody({ affected: { scope: 'PRINCIPALS', principalHashes: [sha256(ravi), stranger, sha256(ravi)] } }));
    expect(listed.affectedCount).toBe(2);
    expect((await call('POST', `/api/v1/breaches/${listed.breachId}/principals`, { token: tenant.token, body: { principalHashes: [sha256(asha), stranger] } })).status).toBe(200);
    // The tenant has reviewed its Hindi words by now: the run takes them.
    await reviewWords(call, tenant.token, 'HI', hindiWords);
    const listedDone = await intimate(call, tenant.token, listed.breachId, intimationBody({ translations: { HI: hindi } }));
    expect(listedDone.intimation.progress).toEqual({ total: 3, mailed: 2, viaTenant: 0, awaitingTenant: 1, failed: 0 });
    const raviMails = await mailsFor(ravi);
    expect(raviMails).toHaveLength(1);
    expect(raviMails[0]!.subject).toContain('आपके डेटा को प्रभावित करने वाला व्यक्तिगत डेटा उल्लंघन');
    for (const part of ['क्या हुआ', hindi.consequences, hindi.mitigation, hindi.safetySteps, 'किससे संपर्क करें', 'dpo@shop.example']) expect(raviMails[0]!.body.text).toContain(part);
    expect(raviMails[0]!.body.text).not.toContain('What this may mean for you');
    expect(raviMails[0]!.body.html).toMatch(/^<!doctype html>\n<html lang="hi" dir="ltr">/);
    expect(ashaMails[0]!.body.html).toMatch(/^<!doctype html>\n<html lang="en" dir="ltr">/);
    expect(await mailsFor(asha)).toHaveLength(2);
  });

  it("counts a principal handed to the tenant's systems as reached only once a subscribed webhook acknowledges her page, once however many webhooks get it", async () => {
    const { tenant, noticeA, hashOnly } = await tenantWithPrincipals();
    const failing = await startReceiver(() => ({ status: 500 }));
    const healthy = await startReceiver(() => ({ status: 200 }));
    try {
      for (const [label, url] of [['Down', failing.url], ['Up', healthy.url], ['Up again', healthy.url]]) {
        const hook = await call('POST', '/api/v1/webhooks', { token: tenant.token, body: { label, url, secret: 'whsec_test_secret_0123456789', events: ['breach.principals'] } });
        expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      }
      const breach = await createBreach(call, tenant.token, breachBody({ affected: { scope: 'NOTICES', noticeIds: [noticeA] } }));
      expect(breach.intimation.handoff).toEqual({ webhookSubscribed: true });
      await intimate(call, tenant.token, breach.breachId);
      const acknowledged = await waitFor(async () => {
        const read = await getBreach(call, tenant.token, breach.breachId);
        return read.intimation.progress.viaTenant === 1 ? read : undefined;
      });
      expect(acknowledged.intimation.progress).toEqual({ total: 2, mailed: 1, viaTenant: 1, awaitingTenant: 0, failed: 0 });
      expect(acknowledged.intimation.reached).toBe(2);
      expect(healthy.received.map((request) => JSON.parse(request.rawBody.toString()).data.principalHashes)).toEqual([[hashOnly], [hashOnly]]);
      // The second delivery of the same page counts nobody again.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await getBreach(call, tenant.token, breach.breachId)).intimation.progress.viaTenant).toBe(1);
    } finally {
      await Promise.all([failing.close(), healthy.close()]);
    }
  });

  it('refuses listing hashes outside scope PRINCIPALS, and an intimation without its texts', async () => {
    const tenant = await newTenant(call);
    const breach = await createBreach(call, tenant.token, breachBody());
    const added = await call('POST', `/api/v1/breaches/${breach.breachId}/principals`, { token: tenant.token, body: { principalHashes: ['b'.repeat(64)] } });
    expect(added.status).toBe(409);
    const missingText = await call('POST', `/api/v1/breaches/${breach.breachId}/principal-intimation`, { token: tenant.token, body: { consequences: 'x' } });
    expect(missingText.status).toBe(400);
    expect(Object.keys(missingText.body.error.fields).sort()).toEqual(['contact', 'mitigation', 'safetySteps', 'whatHappened']);
  });
});

describe('breach register: filings with the Board', () => {
  it('files the intimation, refuses the report while an item is missing, files it late for a backdated awareAt, and verifies in the log', async () => {
    const { tenant, noticeA } = await tenantWithPrincipals();
    const breach = await createBreach(call, tenant.token, breachBody({ title: 'Leak <script>alert(1)</script>', affected: { scope: 'NOTICES', noticeIds: [noticeA] } }, 80));
    const intimation = await call('POST', `/api/v1/breaches/${breach.breachId}/board-intimation`, { token: tenant.token, body: {} });
    expect(intimation.status).toBe(201);
    // Filed 80 hours after awareness: later than the 6 hours "without delay" is held to here.
    expect(intimation.body.data).toMatchObject({ stage: 'INTIMATION', filed: true, late: true, missing: {} });
    expect(intimation.body.data.document.description).toMatchObject({ nature: expect.stringContaining('bucket'), timing: { awareAt: breach.awareAt, occurredAt: null } });
    expect((await call('POST', `/api/v1/breaches/${breach.breachId}/board-intimation`, { token: tenant.token, body: {} })).status).toBe(409);

    const refused = await call('POST', `/api/v1/breaches/${breach.breachId}/board-report`, { token: tenant.token, body: {} });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.error.fields).sort()).toEqual(['causeFindings', 'factsAndReasons', 'mitigationMeasures', 'occurredAt', 'principalIntimation', 'remedialMeasures']);
    const preview = await call('GET', `/api/v1/breaches/${breach.breachId}/board-report`, { token: tenant.token });
    expect(preview.body.data).toMatchObject({ filed: false, missing: refused.body.error.fields });

    const report = {
      occurredAt: new Date(Date.now() - 90 * hourMs).toISOString(),
      factsAndReasons: 'A bucket policy was widened during a migration.',
      mitigationMeasures: 'Bucket closed; access keys rotated.',
      causeFindings: 'No malicious actor; an operator error.',
    };
    const updated = await call('PUT', `/api/v1/breaches/${breach.breachId}`, { token: tenant.token, body: report });
    expect(updated.status).toBe(200);
    await intimate(call, tenant.token, breach.breachId);
    const stillMissing = await call('POST', `/api/v1/breaches/${breach.breachId}/board-report`, { token: tenant.token, body: {} });
    expect(stillMissing.body.error.fields).toEqual({ remedialMeasures: expect.stringContaining('(v)') });
    expect((await call('PUT', `/api/v1/breaches/${breach.breachId}`, { token: tenant.token, body: { remedialMeasures: 'Policy changes need a second reviewer.' } })).status).toBe(200);
    expect((await call('POST', `/api/v1/breaches/${breach.breachId}/close`, { token: tenant.token, body: {} })).status).toBe(409);

    const filed = await call('POST', `/api/v1/breaches/${breach.breachId}/board-report`, { token: tenant.token, body: {} });
    expect(filed.status).toBe(201);
    expect(filed.body.data).toMatchObject({ stage: 'DETAILED_REPORT', filed: true, late: true });
    // The hash-only principal was handed to the tenant, whose systems nothing acknowledged: not reached.
    expect(filed.body.data.document.items).toMatchObject({ ii: report.factsAndReasons, vi: { total: 2, mailed: 1, viaTenant: 0, awaitingTenant: 1, failed: 0, runs: 1 } });
    expect((await call('POST', `/api/v1/breaches/${breach.breachId}/board-report`, { token: tenant.token, body: {} })).status).toBe(409);
    const [reported] = (await outboxEvents(tenant.tenantId, 'breach.reported')).filter((event) => event.data.stage === 'DETAILED_REPORT');
    expect(reported?.data).toEqual({ breachId: breach.breachId, stage: 'DETAILED_REPORT', filedAt: filed.body.data.filedAt, late: true });

    // The frozen document, read back; changing the breach afterwards does not change it.
    expect((await call('PUT', `/api/v1/breaches/${breach.breachId}`, { token: tenant.token, body: { factsAndReasons: 'Rewritten later.' } })).status).toBe(200);
    const frozen = await call('GET', `/api/v1/breaches/${breach.breachId}/board-report`, { token: tenant.token });
    expect(frozen.body.data).toMatchObject({ filed: true, late: true, documentId: filed.body.data.documentId });
    expect(frozen.body.data.document).toEqual(filed.body.data.document);

    const page = await fetch(`${state.baseUrl}/api/v1/breaches/${breach.breachId}/board-report?format=html&stage=DETAILED_REPORT`, { headers: { authorization: `Bearer ${tenant.token}` } });
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);
    const text = await page.text();
    expect(text).toContain('Leak &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(text).not.toMatch(/<script|src=|href=|@import|url\(/i);
    expect(text).toContain('Filed late');

    // Closed: nothing changes any more; the timeline names who did what.
    expect((await call('POST', `/api/v1/breaches/${breach.breachId}/close`, { token: tenant.token, body: {} })).status).toBe(200);
    expect((await call('PUT', `/api/v1/breaches/${breach.breachId}`, { token: tenant.token, body: { title: 'Again' } })).status).toBe(409);
    const detail = await getBreach(call, tenant.token, breach.breachId);
    expect(detail.status).toBe('CLOSED');
    expect(detail.timeline.map((entry: any) => entry.action)).toEqual([
      'created', 'board-intimation', 'updated', 'principal-intimation', 'intimation-completed', 'updated', 'board-report', 'updated', 'closed',
    ]);
    expect(detail.timeline[2]).toMatchObject({ by: { email: tenant.adminEmail, role: 'SUPER_ADMIN' }, details: { factsAndReasons: { from: null, to: report.factsAndReasons } } });
    expect(detail.timeline[4].by).toBeNull();

    // Every filing and batch is a leaf of the tenant's log, re-read and re-hashed by verification.
    const verified = await call('GET', '/api/v1/consent/proof-chain/verify', { token: tenant.token });
    expect(verified.body.data).toMatchObject({ intact: true, problems: [] });
  });

  it('is not late within its deadlines, and the Board\'s extension moves the report\'s due time', async () => {
    const tenant = await newTenant(call);
    const breach = await createBreach(call, tenant.token, breachBody({ occurredAt: new Date(Date.now() - 3 * hourMs).toISOString(), affected: { scope: 'PRINCIPALS', principalHashes: ['c'.repeat(64)] } }, 1));
    const intimation = await call('POST', `/api/v1/breaches/${breach.breachId}/board-intimation`, { token: tenant.token, body: {} });
    expect(intimation.body.data.late).toBe(false);
    const grantedUntil = new Date(Date.parse(breach.detailedReportDueAt) + 48 * hourMs).toISOString();
    const early = await call('POST', `/api/v1/breaches/${breach.breachId}/extension`, { token: tenant.token, body: { grantedUntil: breach.awareAt, reference: 'DPB/2026/17' } });
    expect(early.status).toBe(400);
    const extended = await call('POST', `/api/v1/breaches/${breach.breachId}/extension`, { token: tenant.token, body: { grantedUntil, reference: 'DPB/2026/17' } });
    expect(extended.status).toBe(200);
    expect(extended.body.data).toMatchObject({ detailedReportDueAt: grantedUntil, extension: { grantedUntil, reference: 'DPB/2026/17' } });
    expect(extended.body.data.timeline.at(-1)).toMatchObject({ action: 'extension', details: { previousDueAt: breach.detailedReportDueAt, grantedUntil } });
    await intimate(call, tenant.token, breach.breachId);
    await call('PUT', `/api/v1/breaches/${breach.breachId}`, { token: tenant.token, body: { factsAndReasons: 'f', mitigationMeasures: 'm', causeFindings: 'c', remedialMeasures: 'r' } });
    // 100 hours after awareness: past the 72 hours, within the extension.
    setClock(offsetClock(99 * hourMs));
    const filed = await call('POST', `/api/v1/breaches/${breach.breachId}/board-report`, { token: await loginAs(call, tenant.adminEmail), body: {} });
    expect(filed.status).toBe(201);
    expect(filed.body.data.late).toBe(false);
  });
});
