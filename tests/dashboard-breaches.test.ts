import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wallClockOf } from '../shared/time/format';
import { newTenant, useApi } from './support/api';
import { useBrowser } from './support/browser';
import { publishedNotice, recordConsent, sha256 } from './support/consent';
import { aria, click, expectNoAxeViolations, fill, openSignedIn, setValue, textOf, waitForH1, waitForText } from './support/dashboard';
import { mailsTo } from './support/mail';
import { startTestWorkers } from './support/workers';

/**
 * The Breaches screen in real headless Chromium against the local server: a breach recorded after
 * a failed save that named its fields, both clocks, "Notify affected principals" with its progress
 * read live while the run waits for the workers, the Board intimation filed, the report refused
 * while items are missing, the extension, the report filed, closing, the timeline; a VIEWER's
 * read-only view and keyboard use. axe-core on every state; results checked through the API.
 */
const { call, state } = useApi();
const { browser } = useBrowser();
let workers: ReturnType<typeof startTestWorkers> | undefined;

let tenant: Awaited<ReturnType<typeof newTenant>>;
let page: Page;
let breachId = '';
const principal = `asha-${Math.random().toString(36).slice(2, 8)}@example.in`;
const hourMs = 3_600_000;
/** A time typed in the forms: the tenant's wall clock (India's), whatever zone the browser is in. */
const local = (offsetHours: number) => wallClockOf(new Date(Date.now() + offsetHours * hourMs).toISOString(), 'Asia/Kolkata');

beforeAll(async () => {
  process.env.RATE_LIMIT_BEARER_PER_MINUTE = '100000';
  process.env.RATE_LIMIT_LOGIN_PER_IP_PER_MINUTE = '1000';
  workers = startTestWorkers();
  tenant = await newTenant(call);
  const { noticeId, required } = await publishedNotice(call, tenant.token);
  expect((await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: principal, consentGiven: { [required]: true } })).status).toBe(201);
  const apiKey = await tenant.apiKey();
  const sdk = await call('POST', '/api/v1/consent/sdk-record', { body: { apiKey, status: 'ACCEPTED', purposes: { [required]: true }, identifierHash: sha256('customer-7') }, headers: { origin: 'http://localhost' } });
  expect(sdk.status).toBe(201);
  page = await openSignedIn(browser(), state.baseUrl, tenant.adminEmail, '/breaches');
  await waitForH1(page, 'Breaches');
});

afterAll(async () => {
  await page?.close();
  await workers?.stop();
  delete process.env.RATE_LIMIT_BEARER_PER_MINUTE;
  delete process.env.RATE_LIMIT_LOGIN_PER_IP_PER_MINUTE;
});

const breach = async () => (await call('GET', `/api/v1/breaches/${breachId}`, { token: tenant.token })).body.data;

describe('Breaches screen as the DPO', () => {
  it('records a breach after a failed save that named each field, and shows both clocks', async () => {
    await waitForText(page, 'No breaches recorded.');
    await expectNoAxeViolations(page);
    await click(page, aria('Record a breach', 'button'));
    await page.waitForSelector('dialog[open]');
    await expectNoAxeViolations(page);
    // An awareAt in the future and nothing else: the API's messages beside the fields, the form kept.
    await setValue(page, '#breach-aware', local(2));
    await click(page, aria('Record breach', 'button'));
    await page.waitForSelector('dialog [role="alert"]');
    expect(await page.$('#breach-title-problem')).not.toBeNull();
    expect(await page.$eval('#breach-nature', (element) => element.getAttribute('aria-invalid'))).toBe('true');
    await expectNoAxeViolations(page);

    await fill(page, aria('Title', 'textbox'), 'Order database exposed');
    await setValue(page, '#breach-aware', local(-2));
    await fill(page, aria('Nature: what happened', 'textbox'), 'A storage bucket with order records was public.');
    await fill(page, aria('Extent: how much and whose data', 'textbox'), 'Names and emails of customers.');
    await fill(page, aria('Location: systems, sites, processors', 'textbox'), 'Order service');
    await fill(page, aria('Likely impact on the principals', 'textbox'), 'Phishing mails.');
    await fill(page, aria('Data categories', 'textbox'), 'email, name');
    await page.select('#breach-scope', 'NOTICES');
    await click(page, aria('Privacy notice (version 1, published)', 'checkbox'));
    await click(page, aria('Record breach', 'button'));
    await waitForH1(page, 'Order database exposed');
    breachId = page.url().split('/').pop()!;
    await waitForText(page, 'Due without delay: 2 h');
    await waitForText(page, '2 d 21 h left');
    expect(await breach()).toMatchObject({ title: 'Order database exposed', affected: { scope: 'NOTICES' }, dataCategories: ['email', 'name'] });
    await expectNoAxeViolations(page);
  });

  it('previews the mail a principal gets (only the texts written for them), warns that nobody takes breach.principals, then notifies and follows the run live', async () => {
    // The workers wait, so the run is seen in progress; the page then follows it without a reload.
    await workers?.stop();
    await waitForText(page, 'No webhook of yours takes breach.principals');
    await fill(page, aria('What happened, in plain words for them (a)', 'textbox'), 'Your name and email were visible to others for a day.');
    await fill(page, aria('What this may mean for them (b)', 'textbox'), 'Someone may send you mails in our name.');
    await fill(page, aria('What you have done and are doing (c)', 'textbox'), 'We closed the bucket.');
    await fill(page, aria('What they can do to protect themselves (d)', 'textbox'), 'Do not open links asking for passwords.');
    await fill(page, aria('Whom to contact (e)', 'textbox'), 'dpo@shop.example');
    await page.select('#notify-language', 'HI');
    await page.type('#notify-HI-whatHappened', 'आपका नाम और ईमेल एक दिन तक दूसरों को दिख रहा था।');
    await page.type('#notify-HI-consequences', 'कोई आपको हमारे नाम से मेल भेज सकता है।');
    await page.type('#notify-HI-mitigation', 'हमने बकेट बंद कर दिया।');
    await page.type('#notify-HI-safetySteps', 'पासवर्ड माँगने वाले लिंक न खोलें।');
    await click(page, aria('Preview the mail', 'button'));
    await waitForText(page, 'Your name and email were visible to others for a day.', '.mail-preview');
    const preview = await textOf(page, '.mail-preview');
    // The register's own description (its location: an internal system) never reaches a principal.
    expect(preview).not.toContain('Order service');
    expect(preview).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(preview).toContain('IST');
    await expectNoAxeViolations(page);
    await click(page, aria('Preview in Hindi', 'button'));
    await waitForText(page, 'आपका नाम और ईमेल', '.mail-preview');
    await expectNoAxeViolations(page);
    await click(page, aria('Notify affected principals', 'button'));
    await waitForText(page, 'Intimating…');
    expect(await page.$(aria('Intimation running', 'progressbar'))).not.toBeNull();
    await expectNoAxeViolations(page);
    workers = startTestWorkers();
    // The hash-only principal was handed to the tenant's systems, which nothing receives: not reached.
    await waitForText(page, 'Intimated. 1 of 2 reached: 1 by email, 0 by your systems. Not reached: 1', 'main', 30_000);
    await waitForText(page, '1 principal(s) without an email have not been told');
    expect(await mailsTo(principal)).toHaveLength(1);
    expect((await breach()).intimation.progress).toEqual({ total: 2, mailed: 1, viaTenant: 0, awaitingTenant: 1, failed: 0 });
  });

  it('files the Board intimation, lists what the report lacks, records the extension, files the report and closes', async () => {
    // Filing asks first, and says the service records it but does not send it to the Board.
    await click(page, aria('File Board intimation', 'button'));
    await page.waitForSelector('dialog[open]');
    await waitForText(page, 'The service does not send it to the Data Protection Board.', 'dialog[open]');
    await expectNoAxeViolations(page);
    await click(page, aria('Cancel', 'button'));
    await page.waitForFunction(() => !(globalThis as any).document.querySelector('dialog[open]'));
    expect((await breach()).clocks.boardIntimation.filedAt).toBeNull();
    await click(page, aria('File Board intimation', 'button'));
    await click(page, `dialog[open] ${aria('Record as filed', 'button')}`);
    await waitForText(page, 'The Board intimation is recorded as filed.');
    await waitForText(page, 'Filed ', '[aria-labelledby="filing-INTIMATION"]');
    expect((await breach()).clocks.boardIntimation.filedAt).toEqual(expect.any(String));
    await waitForText(page, '(ii) the facts, circumstances and reasons of the breach is missing');
    await click(page, aria('File detailed report', 'button'));
    await waitForText(page, 'It cannot be filed yet.', 'dialog[open]');
    await waitForText(page, '(iii)', 'dialog[open]');
    await click(page, `dialog[open] ${aria('Record as filed', 'button')}`);
    await page.waitForSelector('dialog[open] [role="alert"]');
    await expectNoAxeViolations(page);
    await click(page, aria('Cancel', 'button'));
    await page.waitForFunction(() => !(globalThis as any).document.querySelector('dialog[open]'));

    await setValue(page, '#extension-until', local(120));
    await fill(page, aria("Board's reference", 'textbox'), 'DPB/2026/17');
    await click(page, aria('Record extension', 'button'));
    await waitForText(page, 'The Board allowed until');
    expect((await breach()).extension).toMatchObject({ reference: 'DPB/2026/17' });

    await click(page, aria('Edit breach', 'button'));
    await page.waitForSelector('dialog[open]');
    await setValue(page, '#breach-occurred', local(-5));
    await fill(page, aria('(ii) Facts, circumstances and reasons', 'textbox'), 'A policy was widened in a migration.');
    await fill(page, aria('(iii) Measures to mitigate the risk', 'textbox'), 'Bucket closed, keys rotated.');
    await fill(page, aria('(iv) Findings on who caused it', 'textbox'), 'An operator error.');
    await fill(page, aria('(v) Remedial measures against recurrence', 'textbox'), 'Second reviewer for policies.');
    await expectNoAxeViolations(page);
    await click(page, aria('Save changes', 'button'));
    await waitForText(page, 'The breach is saved.');
    await waitForText(page, 'Nothing is missing: it can be filed.', '[aria-labelledby="filing-DETAILED_REPORT"]');
    await click(page, aria('File detailed report', 'button'));
    await waitForText(page, 'have not been told; the report says so', 'dialog[open]');
    await click(page, `dialog[open] ${aria('Record as filed', 'button')}`);
    await waitForText(page, 'The detailed report is recorded as filed.');
    expect((await breach()).clocks.detailedReport).toMatchObject({ late: false, filedAt: expect.any(String) });

    await click(page, aria('Close breach', 'button'));
    await page.waitForSelector('dialog[open]');
    await (await page.waitForSelector(`dialog ${aria('Close breach', 'button')}`))!.click();
    await waitForText(page, 'The breach is closed.');
    await waitForText(page, 'Closed ');
    const text = await textOf(page);
    expect(text).not.toContain('Edit breach');
    for (const step of ['Recorded the breach', 'Started the intimation of the principals', 'Filed the Board intimation', "Recorded the Board's extension", 'Changed: ', 'Filed the detailed report', 'Closed the breach']) {
      expect(text).toContain(step);
    }
    expect(text).toContain(`by ${tenant.adminEmail} (administrator)`);
    // Changed fields as the form names them, never field names.
    const timeline = await textOf(page, 'section[aria-labelledby="timeline-heading"]');
    for (const label of ['When it occurred', '(ii) Facts, circumstances and reasons', '(v) Remedial measures against recurrence']) expect(timeline).toContain(label);
    expect(timeline).not.toMatch(/occurredAt|remedialMeasures|[a-z][A-Z][a-z]+/);
    await expectNoAxeViolations(page);
  });

  it('opens and closes the create form by keyboard, focus returning to its button', async () => {
    await click(page, aria('Breaches', 'link'));
    await waitForH1(page, 'Breaches');
    await page.waitForSelector('table');
    let found = false;
    for (let index = 0; index < 40 && !found; index++) {
      await page.keyboard.press('Tab');
      found = await page.evaluate(() => (globalThis as any).document.activeElement?.textContent === 'Record a breach');
    }
    expect(found).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForSelector('dialog[open]');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !(globalThis as any).document.querySelector('dialog[open]') && (globalThis as any).document.activeElement?.textContent === 'Record a breach');
    expect(await textOf(page)).toContain('Filed');
  });
});

describe('Breaches screen as a VIEWER', () => {
  it('reads the register and a breach, and is offered no change', async () => {
    const viewer = await tenant.userToken('VIEWER');
    expect(viewer).toBeTruthy();
    const viewerEmail = (await call('GET', '/api/v1/users', { token: tenant.token })).body.data.find((user: { role: string }) => user.role === 'VIEWER').email as string;
    const opened = await openSignedIn(browser(), state.baseUrl, viewerEmail, `/breaches/${breachId}`);
    try {
      await waitForH1(opened, 'Order database exposed');
      await waitForText(opened, 'Timeline');
      const text = await textOf(opened);
      for (const absent of ['Record a breach', 'Notify affected principals', 'File detailed report', 'Edit breach', 'Close breach']) expect(text).not.toContain(absent);
      await expectNoAxeViolations(opened);
    } finally {
      await opened.close();
    }
  });
});
