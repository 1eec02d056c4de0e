import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newTenant, useApi } from './support/api';
import { axeViolations, cspViolationsOf, useBrowser } from './support/browser';
import { sha256 } from './support/consent';
import { aria, click, expectNoAxeViolations, go, textOf, useDashboardTabs, waitForText } from './support/dashboard';
import { mailsTo } from './support/mail';
import { createNotice, createPurpose, publish } from './support/notices';
import { openPortalPage } from './support/portal';
import { waitFor } from './support/receiver';
import { clickButton, dialogText, embedPage, openPage, useFixtureSite } from './support/widget';
import { reviewWords } from './support/words';
import { readBuiltIn } from '../shared/words/built-in-words';
import { useTestWorkers } from './support/workers';

/**
 * The children's surfaces in real headless Chromium against the local stack: the widget asks the
 * age and hides a prohibited purpose from a child; the parent's page from the mailed link (axe,
 * CSP, Hindi and Urdu right to left); the dashboard's Children screen (axe).
 */
const { call, state } = useApi();
const { browser } = useBrowser();
const { serve, freshPage } = useFixtureSite();
useTestWorkers();
const tabs = useDashboardTabs(browser, () => state.baseUrl);

beforeAll(() => {
  process.env.PORTAL_BASE_URL = `${state.baseUrl}/portal`;
});

const setup = async () => {
  const tenant = await newTenant(call);
  const required = await createPurpose(call, tenant.token, { name: 'Order processing', dataCategories: ['email'] });
  const ads = await createPurpose(call, tenant.token, { name: 'Personalised ads', dataCategories: ['browsing'], childProhibited: true });
  const noticeId = await createNotice(call, tenant.token, [required, ads], {
    translations: { HI: { title: 'गोपनीयता सूचना' }, UR: { title: 'رازداری کا نوٹس' } },
  });
  expect((await publish(call, tenant.token, noticeId)).status).toBe(200);
  expect((await call('PUT', '/api/v1/children/settings', { token: tenant.token, body: { audience: 'MIXED', askAge: true } })).status).toBe(200);
  return { tenant, noticeId, required, ads };
};

const linkFor = (parent: string): Promise<string> =>
  waitFor(async () => {
    for (const mail of await mailsTo(parent)) {
      const url = /(https?:\/\/\S+\/portal\/g\/g[0-9a-f]{32}[A-Za-z0-9_-]{43})/.exec(mail.body.text ?? '')?.[1];
      if (url) return url;
    }
    return undefined;
  }, 30_000);

const childRecord = async (tenant: Awaited<ReturnType<typeof setup>>['tenant'], noticeId: string, required: string, language: string) => {
  const parent = `parent-${Math.random().toString(36).slice(2)}@example.in`;
  const recorded = await call('POST', '/api/v1/consent/record', {
    token: tenant.token,
    body: { noticeId, dataPrincipalIdentifier: `child-${parent}`, consentGiven: { [required]: true }, language, principalStatus: 'CHILD', guardianEmail: parent },
  });
  expect(recorded.status).toBe(201);
  return { parent, url: await linkFor(parent), recordId: recorded.body.data.consentRecordId as string };
};

const rootAttributes = (page: Page) => page.evaluate(() => {
  const root = (globalThis as unknown as { document: { documentElement: { lang: string; dir: string } } }).document.documentElement;
  return { lang: root.lang, dir: root.dir };
});

describe('children in the browser', () => {
  it('the widget asks the age, never offers a prohibited purpose to a child, and records the child\'s decision as waiting', async () => {
    const { tenant, ads } = await setup();
    const apiKey = await tenant.apiKey();
    const url = serve('/kids', embedPage({ apiBaseUrl: state.baseUrl, apiKey, tenantId: tenant.tenantId, attributes: { 'data-cookies': 'off' } }));
    const { page, close } = await freshPage(browser());
    try {
      const { errors } = await openPage(page, url);
      expect(await dialogText(page)).toContain('Are you 18 or older?');
      expect(await dialogText(page)).toContain('Personalised ads');
      await page.evaluate(`(() => { const root = document.querySelector('[data-cms]').shadowRoot; root.querySelectorAll('input[type=radio][name=cms-age]')[1].click(); })()`);
      await waitFor(async () => ((await dialogText(page)).includes('Email of your parent or guardian') ? true : undefined), 5000);
      expect(await dialogText(page)).not.toContain('Personalised ads');
      expect(await page.evaluate(`!!document.querySelector('[data-cms]').shadowRoot.getElementById('cms-p-${ads}')`)).toBe(false);
      const parent = `widget-parent-${Math.random().toString(36).slice(2)}@example.in`;
      await page.evaluate(`(() => { const input = document.querySelector('[data-cms]').shadowRoot.querySelector('input[type=email]'); input.value = ${JSON.stringify(parent)}; input.dispatchEvent(new Event('input')); })()`);
      expect(await axeViolations(page)).toEqual([]);
      await clickButton(page, 'Accept all');
      const link = await linkFor(parent);
      expect(link).toContain('/portal/g/');
      const listed = (await call('GET', '/api/v1/children/guardian-requests', { token: tenant.token })).body.data.items;
      expect(listed).toHaveLength(1);
      const proof = (await call('GET', `/api/v1/consent/records/${listed[0].consentRecordId}/proof`, { token: tenant.token })).body.data;
      expect(proof.payload.child).toMatchObject({ principalStatus: 'CHILD', guardianHash: sha256(parent) });
      expect(proof.payload.consentGiven[ads]).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the parent\'s page: axe clean under its own CSP, approve in the browser, then the link is gone', async () => {
    const { tenant, noticeId, required } = await setup();
    const { url } = await childRecord(tenant, noticeId, required, 'EN');
    const strict = await openPortalPage(browser(), url, ['en'], { enforceCsp: true });
    expect(await strict.$eval('h1', (element) => element.textContent)).toBe('Consent for your child');
    expect(await cspViolationsOf(strict)).toEqual([]);
    await strict.close();
    // Opening the page spent nothing; axe is injected, so this one bypasses the policy.
    const page = await openPortalPage(browser(), url, ['en']);
    try {
      await page.click('#method-SELF_DECLARED');
      await page.type('#birthYear', '1984');
      // Sent without the name or the declaration: nothing is sent, and each field says what it needs, in the page's words (not the API's).
      await page.click('form button[type=submit]');
      await page.waitForSelector('#form-error');
      expect(await page.$eval('#form-error', (element) => [element.getAttribute('role'), element.textContent])).toEqual(['alert', 'This could not be confirmed, and nothing was changed. Please check:Enter your full name.Tick the box to declare that you are the parent or lawful guardian.']);
      expect(await page.$eval('#name', (element) => [element.getAttribute('aria-invalid'), element.getAttribute('aria-describedby')])).toEqual(['true', 'name-error']);
      expect(await page.$eval('#name-error', (element) => element.textContent)).toBe('Enter your full name.');
      expect(await page.$eval('#birthYear', (element) => [(element as unknown as { value: string }).value, element.getAttribute('aria-invalid')])).toEqual(['1984', null]);
      expect(await axeViolations(page)).toEqual([]);
      await page.type('#name', 'Asha Rao');
      await page.click('#declaration');
      expect(await axeViolations(page)).toEqual([]);
      await page.click('form button[type=submit]');
      await page.waitForFunction(() => (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('h1')?.textContent === 'Your consent is recorded');
      expect(await axeViolations(page)).toEqual([]);
      const again = await openPortalPage(browser(), url);
      expect(await again.$eval('h1', (element) => element.textContent)).toBe('This link is not valid');
      await again.close();
    } finally {
      await page.close();
    }
  });

  it('the parent\'s page in Hindi, and in Urdu right to left, in the tenant\'s words', async () => {
    const { tenant, noticeId, required } = await setup();
    await reviewWords(call, tenant.token, 'HI', { 'guardian.pageTitle': 'आपके बच्चे के लिए सहमति' });
    await reviewWords(call, tenant.token, 'UR', { 'guardian.pageTitle': 'آپ کے بچے کے لیے رضامندی' });
    for (const [language, title, lang, dir] of [
      ['HI', 'आपके बच्चे के लिए सहमति', 'hi', 'ltr'],
      ['UR', 'آپ کے بچے کے لیے رضامندی', 'ur', 'rtl'],
    ] as const) {
      const { url } = await childRecord(tenant, noticeId, required, language);
      const page = await openPortalPage(browser(), url, ['en']);
      try {
        expect(await page.$eval('h1', (element) => element.textContent)).toBe(title);
        expect(await rootAttributes(page)).toEqual({ lang, dir });
        // Words the tenant has not reviewed in this language are the service's built-in ones, the field messages too.
        const builtIn = (await readBuiltIn(language))!.words;
        expect(await page.$eval('form button[type=submit]', (element) => element.textContent)).toBe(builtIn['guardian.approve']);
        await page.click('form button[type=submit]');
        await page.waitForSelector('#form-error');
        expect(await page.$eval('#form-error li', (element) => element.textContent)).toBe(builtIn['guardian.error.method']);
        expect(await axeViolations(page)).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });

  it('the dashboard\'s Children screen: requests, resend, the policy; axe clean', async () => {
    const { tenant, noticeId, required } = await setup();
    await childRecord(tenant, noticeId, required, 'EN');
    const page = await tabs.signedInTab(tenant.adminEmail);
    await go(page, 'Children', 'Children and lawful guardians');
    await waitForText(page, 'Waiting for the guardian');
    await waitForText(page, 'left');
    await expectNoAxeViolations(page);
    await click(page, aria('Resend link', 'button'));
    await waitForText(page, 'A fresh link was mailed');
    await click(page, aria('Evidence', 'button'));
    await waitForText(page, 'No decision yet.');
    await expectNoAxeViolations(page);

    // A record's view says whether it is in force and, once the parent approved, how and when the parent was verified.
    const waiting = await childRecord(tenant, noticeId, required, 'EN');
    await page.goto(`${state.baseUrl}/dashboard/records/${waiting.recordId}`, { waitUntil: 'load' });
    await waitForText(page, 'Consent in force');
    expect(await textOf(page, '#consent-state')).toBe("Not in force: a child's or guarded person's decision, waiting for the parent or lawful guardian to approve it.");
    const token = waiting.url.slice(waiting.url.lastIndexOf('/') + 1);
    expect((await call('POST', `/api/v1/children/guardian/${token}/approve`, { body: { method: 'SELF_DECLARED', name: 'Asha Rao', birthYear: 1984, declaration: true } })).status).toBe(200);
    await page.reload({ waitUntil: 'load' });
    await waitForText(page, 'Approved by the parent');
    expect(await textOf(page, '#consent-state')).toBe('In force.');
    expect(await textOf(page, '#guardian-verification')).toMatch(/^Approved by the parent or lawful guardian .+, verified as an identifiable adult by: Declared by the parent: name and year of birth \(rule 10\(1\)\(b\)\(i\)\)\.$/);
    await expectNoAxeViolations(page);
  });
});
