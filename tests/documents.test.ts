import { beforeAll, describe, expect, it } from 'vitest';
import { principalHash } from '../shared/consent/principal';
import { newTenant, useApi } from './support/api';
import { breachBody, createBreach, intimate, intimationBody } from './support/breaches';
import { useBrowser } from './support/browser';
import { compact, expectReadable, pdfText, shownText } from './support/documents';
import { sha256 } from './support/consent';
import { createNotice, createPurpose, publish } from './support/notices';
import { useTestWorkers } from './support/workers';

/**
 * The documents a DPO attaches (issue 36): the Board intimation and the detailed report, the
 * evidence pack and the access summary, each as HTML and as PDF through the API. They read as
 * documents (no raw JSON, ISO times, booleans or split field names; names for ids; the fiduciary,
 * the DPO's contact and the evidence-log reference at the top; IST with UTC), and the PDF says
 * exactly what the HTML shows, as pdf.js reads it.
 */
const { call, state } = useApi();
useTestWorkers();
const { browser } = useBrowser();

let tenant: Awaited<ReturnType<typeof newTenant>>;
const email = `asha-${Math.random().toString(36).slice(2, 8)}@example.in`;
let breachId = '';
let requestId = '';

const fetchAs = (path: string) => fetch(`${state.baseUrl}${path}`, { headers: { authorization: `Bearer ${tenant.token}` } });

/** The document at `path` as HTML and as PDF, and what each says. */
const both = async (path: string, method: 'GET' | 'POST' = 'GET', body?: unknown) => {
  // The page is `format=html`; the printed page is the same path with /pdf (group `documents`).
  const [base, search] = path.split('?');
  const send = (url: string) =>
    fetch(`${state.baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${tenant.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const [html, pdf] = await Promise.all([send(`${base}?${search ? `${search}&` : ''}format=html`), send(`${base}/pdf${search ? `?${search}` : ''}`)]);
  expect(html.status).toBe(200);
  expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(html.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'none'/);
  expect(pdf.status, await pdf.clone().text()).toBe(200);
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
  const page = await html.text();
  const bytes = new Uint8Array(await pdf.arrayBuffer());
  expect(Buffer.from(bytes.slice(0, 5)).toString()).toBe('%PDF-');
  return { page, shown: await shownText(browser(), page), printed: await pdfText(bytes) };
};

beforeAll(async () => {
  process.env.RATE_LIMIT_BEARER_PER_MINUTE = '100000';
  tenant = await newTenant(call);
  const delivery = await createPurpose(call, tenant.token, { name: 'Delivery', dataCategories: ['email', 'address'] });
  const newsletter = await createPurpose(call, tenant.token, { name: 'Newsletter', dataCategories: ['email'] });
  const noticeId = await createNotice(call, tenant.token, [delivery, newsletter]);
  expect((await publish(call, tenant.token, noticeId)).status).toBe(200);
  expect((await call('POST', '/api/v1/consent/record', { token: tenant.token, body: { noticeId, dataPrincipalIdentifier: email, consentGiven: { [delivery]: true, [newsletter]: true } } })).status).toBe(201);
  // Someone the tenant knows only by a hash: no email, so only the tenant's systems could tell her.
  const apiKey = await tenant.apiKey();
  const hashed = await call('POST', '/api/v1/consent/sdk-record', { body: { apiKey, status: 'ACCEPTED', purposes: { [delivery]: true, [newsletter]: false }, identifierHash: sha256(`customer-${Math.random()}`) }, headers: { origin: 'http://localhost' } });
  expect(hashed.status).toBe(201);
  // She withdraws the newsletter on the withdrawal page, as the README's tour does.
  const link = await call('POST', '/api/v1/consent/withdrawal-token', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId } });
  const portalToken = String(link.body.data.portalUrl).split('/').at(-1);
  const withdrawn = await call('POST', `/api/v1/consent/portal/${portalToken}/withdraw`, { body: { withdrawAll: false, purposeIds: [newsletter], reason: 'Too many mails' } });
  expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
  const asset = await call('POST', '/api/v1/data-assets', { token: tenant.token, body: { name: 'Orders', system: 'orders database', location: 'IN', dataCategories: ['email', 'address'], purposeIds: [delivery], processorIds: [] } });
  expect(asset.status).toBe(201);

  const logged = await call('POST', '/api/v1/rights/requests', { token: tenant.token, body: { type: 'ACCESS', dataPrincipalIdentifier: email, channel: 'EMAIL', details: 'Please tell me what you hold about me.' } });
  expect(logged.status, JSON.stringify(logged.body)).toBe(201);
  requestId = logged.body.data.requestId;

  const breach = await createBreach(call, tenant.token, breachBody({ affected: { scope: 'PURPOSES', purposeIds: [delivery] }, assetIds: [asset.body.data.assetId] }, 2));
  breachId = breach.breachId;
  expect((await call('POST', `/api/v1/breaches/${breachId}/board-intimation`, { token: tenant.token, body: {} })).status).toBe(201);
  const items = {
    occurredAt: new Date(Date.now() - 5 * 3_600_000).toISOString(),
    factsAndReasons: 'A bucket policy was widened during a migration.',
    mitigationMeasures: 'Bucket closed; access keys rotated.',
    causeFindings: 'No malicious actor; an operator error.',
    remedialMeasures: 'Policy changes need a second reviewer.',
  };
  expect((await call('PUT', `/api/v1/breaches/${breachId}`, { token: tenant.token, body: items })).status).toBe(200);
  await intimate(call, tenant.token, breachId, intimationBody());
  expect((await call('POST', `/api/v1/breaches/${breachId}/board-report`, { token: tenant.token, body: {} })).status).toBe(201);
}, 180_000);

describe('documents a DPO attaches, as HTML and PDF', () => {
  it("the Board intimation: Rule 7(2)(a)'s words, names for ids, the head every document has", async () => {
    const { shown, printed } = await both(`/api/v1/breaches/${breachId}/board-report?stage=INTIMATION`);
    const json = (await call('GET', `/api/v1/breaches/${breachId}/board-report?stage=INTIMATION`, { token: tenant.token })).body.data;
    expectReadable(shown, json);
    for (const part of ['Intimation of a personal data breach to the Data Protection Board', 'A description of the breach, including its nature, extent, timing and location of occurrence and the likely impact', 'Data Fiduciary', 'Data Protection Officer', tenant.adminEmail, 'Evidence log reference', json.documentId, 'Those who gave consent for the purposes Delivery', 'Orders (orders database)', 'IST', 'UTC)']) {
      expect(shown).toContain(part);
    }
    expect(compact(printed)).toBe(compact(shown));
  });

  it("the detailed report: items (i) to (vi) under the Rule's labels, and who was not reached, said plainly", async () => {
    const { page, shown, printed } = await both(`/api/v1/breaches/${breachId}/board-report`);
    const json = (await call('GET', `/api/v1/breaches/${breachId}/board-report`, { token: tenant.token })).body.data;
    expectReadable(shown, json);
    for (const part of ['(i) Updated and detailed information in respect of such description', '(iv) Any findings regarding the person who caused the breach', '(vi) A report regarding the intimations given to affected Data Principals', 'Told by email', '1 Data Principal', 'Filed']) {
      expect(shown).toContain(part);
    }
    // The hash-only principal was handed to the tenant's systems, which nothing receives: not reached, and the report warns.
    expect(json.document.items.vi).toMatchObject({ mailed: 1, viaTenant: 0, awaitingTenant: 1 });
    expect(shown).toMatch(/no known email and no system of the Data Fiduciary is subscribed/);
    expect(page).toContain('@media print');
    expect(compact(printed)).toBe(compact(shown));
  });

  it('the evidence pack: decisions in words, the evidence under written labels, the JSON still embedded for the verifier', async () => {
    const { page, shown, printed } = await both('/api/v1/consent/evidence-packs', 'POST', { dataPrincipalIdentifier: email });
    const pack = (await call('POST', '/api/v1/consent/evidence-packs', { token: tenant.token, body: { dataPrincipalIdentifier: email } })).body.data.pack;
    expectReadable(shown, pack);
    for (const part of ['Consent evidence pack', 'Agreed to Delivery', 'withdrew Newsletter by the Data Principal, on the withdrawal page', 'Verified: a member of the Data Fiduciary’s team recorded it in the dashboard', `${tenant.adminEmail} (administrator), as the team list reads now`, 'Too many mails', 'Data Protection Officer']) {
      expect(shown).toContain(part);
    }
    expect(page).toContain('<script type="application/json" id="evidence-pack">');
    expect(compact(printed)).toBe(compact(shown));
  });

  it('the access summary: a withdrawn purpose is no current use, and the document says so as the JSON does', async () => {
    const summary = (await call('GET', `/api/v1/rights/requests/${requestId}/summary`, { token: tenant.token })).body.data;
    expect(summary.purposes.map((purpose: { name: string; lawfulBasis: string }) => [purpose.name, purpose.lawfulBasis])).toEqual([['Delivery', 'CONSENT']]);
    expect(summary.records[0].purposesWithdrawn.map((purpose: { name: string }) => purpose.name)).toEqual(['Newsletter']);
    const { shown, printed } = await both(`/api/v1/rights/requests/${requestId}/summary`);
    expectReadable(shown, summary);
    const uses = shown.slice(shown.indexOf('What the personal data is used for now'), shown.indexOf('Shared with'));
    expect(uses).toContain('Delivery');
    expect(uses).not.toContain('Newsletter');
    expect(shown).toContain(principalHash(email));
    expect(compact(printed)).toBe(compact(shown));
  });

  it('answers JSON as it always did without a format, and refuses an unknown one', async () => {
    expect((await fetchAs(`/api/v1/breaches/${breachId}/board-report`)).headers.get('content-type')).toContain('application/json');
    const refused = await call('GET', `/api/v1/rights/requests/${requestId}/summary?format=docx`, { token: tenant.token });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toHaveProperty('format');
  });

  it('prints at …/pdf only: format=pdf is refused on the document routes, and the PDF is named as the page', async () => {
    for (const path of [`/api/v1/breaches/${breachId}/board-report?format=pdf`, `/api/v1/rights/requests/${requestId}/summary?format=pdf`]) {
      const refused = await call('GET', path, { token: tenant.token });
      expect(refused.status, path).toBe(400);
      expect(refused.body.error.fields, path).toHaveProperty('format');
    }
    const pdf = await fetchAs(`/api/v1/rights/requests/${requestId}/summary/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="access-summary-${requestId}.pdf"`);
    expect((await fetchAs(`/api/v1/rights/requests/${requestId}/summary?format=html`)).headers.get('content-disposition')).toBe(`inline; filename="access-summary-${requestId}.html"`);
  });

  it("answers a printed document's refusals as its own route does: another tenant's breach is 404, a missing token 401, a bad stage 400", async () => {
    const other = await newTenant(call);
    const foreign = await call('GET', `/api/v1/breaches/${breachId}/board-report/pdf`, { token: other.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual((await call('GET', `/api/v1/breaches/${breachId}/board-report?format=html`, { token: other.token })).body);
    expect((await call('GET', `/api/v1/breaches/${breachId}/board-report/pdf`, {})).status).toBe(401);
    const badStage = await call('GET', `/api/v1/breaches/${breachId}/board-report/pdf?stage=SUMMARY`, { token: tenant.token });
    expect(badStage.status).toBe(400);
    expect(badStage.body.error.fields).toHaveProperty('stage');
    const missing = await call('GET', `/api/v1/breaches/${crypto.randomUUID()}/board-report/pdf`, { token: tenant.token });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  });
});
