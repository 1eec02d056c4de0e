import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newTenant, uniqueEmail, useApi } from './support/api';
import { axeViolations, useBrowser } from './support/browser';
import { createNotice, createPurpose, publish } from './support/notices';
import { openPortalPage } from './support/portal';
import { dialogLanguage, embedPage, openPage, useFixtureSite } from './support/widget';
import { reviewWords, showUnreviewed } from './support/words';

/**
 * The words around a Tamil notice, in the widget and on the pages: English marked lang="en" until
 * the tenant reviews its Tamil, the machine drafts when it chose to show them, its Tamil once
 * reviewed; Urdu pages right to left. Real Chromium, axe-core.
 */
const { call, state } = useApi();
const { browser } = useBrowser();
const { serve, freshPage } = useFixtureSite();

beforeAll(() => {
  process.env.PORTAL_BASE_URL = `${state.baseUrl}/portal`;
});

const tamil = {
  acceptAll: 'அனைத்தையும் ஏற்கவும்',
  rejectAll: 'அனைத்தையும் நிராகரிக்கவும்',
  'notice.saveChoices': 'தேர்வுகளைச் சேமிக்கவும்',
  privacyChoices: 'தனியுரிமைத் தேர்வுகள்',
  'portal.pageTitle': 'உங்கள் ஒப்புதலைத் திரும்பப் பெறுங்கள்',
  'portal.submit': 'ஒப்புதலைத் திரும்பப் பெறுக',
};

/** A tenant with no cookie configuration whose notice is published in English and Tamil, and one principal's consent (in Tamil). */
const tamilTenant = async () => {
  const tenant = await newTenant(call);
  const purpose = await createPurpose(call, tenant.token, { name: 'Marketing' });
  const noticeId = await createNotice(call, tenant.token, [purpose], { translations: { TA: { title: 'தனியுரிமை அறிவிப்பு', purposes: { [purpose]: { name: 'சந்தைப்படுத்தல்' } } } } });
  expect((await publish(call, tenant.token, noticeId)).status).toBe(200);
  const email = uniqueEmail('tamil');
  expect((await call('POST', '/api/v1/consent/record', { token: tenant.token, body: { noticeId, dataPrincipalIdentifier: email, consentGiven: { [purpose]: true }, language: 'TA' } })).status).toBe(201);
  const link = await call('POST', '/api/v1/consent/withdrawal-token', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId } });
  const url = serve(`/tamil-${tenant.slug}`, embedPage({ apiBaseUrl: state.baseUrl, apiKey: await tenant.apiKey(), tenantId: tenant.tenantId, attributes: { 'data-language': 'TA' } }));
  return { tenant, url, portalUrl: link.body.data.portalUrl as string };
};

/** The widget's buttons: each one's text and, where English stands in, the lang of the element saying so. */
const buttons = (page: Page): Promise<[string, string | null][]> =>
  page.evaluate(`(() => { const root = document.querySelector('[data-cms]').shadowRoot; return [...root.querySelectorAll('button')].map((b) => [b.textContent, b.querySelector('[lang]')?.getAttribute('lang') ?? null]); })()`) as Promise<[string, string | null][]>;

/** The notice banner as a fresh visitor sees it. */
const widget = async (url: string, check: (page: Page) => Promise<void>) => {
  const { page, close } = await freshPage(browser());
  try {
    await openPage(page, url);
    await check(page);
  } finally {
    await close();
  }
};

const openPortal = (url: string, languages: string[]) => openPortalPage(browser(), url, languages);

/** The page's root language and direction, its heading, and the lang of the element inside the heading (English standing in). */
const pageWords = (page: Page) =>
  page.evaluate(`(() => { const h1 = document.querySelector('h1'); return { lang: document.documentElement.lang, dir: document.documentElement.dir, heading: h1.textContent, headingLang: h1.querySelector('[lang]')?.getAttribute('lang') ?? null }; })()`) as Promise<{
    lang: string;
    dir: string;
    heading: string;
    headingLang: string | null;
  }>;

describe('the words around a Tamil notice', () => {
  it('in the widget, without a cookie configuration: English marked lang="en" until reviewed, machine drafts by choice, Tamil once reviewed', async () => {
    const { tenant, url } = await tamilTenant();
    expect((await call('GET', `/api/v1/cmp/config/${tenant.tenantId}`)).status).toBe(404);

    await widget(url, async (page) => {
      expect(await dialogLanguage(page)).toEqual({ lang: 'ta', dir: 'ltr' });
      const shown = await buttons(page);
      expect(shown).toContainEqual(['Accept all', 'en']);
      expect(shown).toContainEqual(['Privacy choices', 'en']);
      expect(await axeViolations(page, '[data-cms]')).toEqual([]);
    });

    expect((await call('POST', '/api/v1/words/draft', { token: tenant.token, body: { language: 'TA' } })).status).toBe(200);
    await widget(url, async (page) => expect(await buttons(page)).toContainEqual(['Accept all', 'en']));
    await showUnreviewed(call, tenant.token, 'MACHINE_DRAFTS');
    await widget(url, async (page) => {
      expect(await buttons(page)).toContainEqual(['[TA machine draft] Accept all', null]);
      expect(await axeViolations(page, '[data-cms]')).toEqual([]);
    });

    await showUnreviewed(call, tenant.token, 'ENGLISH');
    await reviewWords(call, tenant.token, 'TA', tamil);
    await widget(url, async (page) => {
      const shown = await buttons(page);
      for (const key of ['acceptAll', 'rejectAll', 'notice.saveChoices', 'privacyChoices'] as const) expect(shown).toContainEqual([tamil[key], null]);
      // A word not reviewed yet stays English, marked.
      expect(await page.evaluate(`document.querySelector('[data-cms]').shadowRoot.querySelector('[role=dialog] h3 [lang="en"]')?.textContent`)).toBe('Your rights');
      expect(await axeViolations(page, '[data-cms]')).toEqual([]);
    });
  });

  it('on the withdrawal page: English marked lang="en" until reviewed, machine drafts by choice, Tamil once reviewed', async () => {
    const { tenant, portalUrl } = await tamilTenant();
    const look = async () => {
      const page = await openPortal(portalUrl, ['ta-IN', 'en']);
      try {
        expect(await page.$eval('main', (element) => (element as unknown as { innerText: string }).innerText)).toContain('தனியுரிமை அறிவிப்பு');
        expect(await axeViolations(page)).toEqual([]);
        return { ...(await pageWords(page)), submit: await page.$eval('button[type="submit"]', (element) => [element.textContent, element.querySelector('[lang]')?.getAttribute('lang') ?? null]) };
      } finally {
        await page.close();
      }
    };
    expect(await look()).toEqual({ lang: 'ta', dir: 'ltr', heading: 'Withdraw your consent', headingLang: 'en', submit: ['Withdraw consent', 'en'] });
    expect((await call('POST', '/api/v1/words/draft', { token: tenant.token, body: { language: 'TA' } })).status).toBe(200);
    await showUnreviewed(call, tenant.token, 'MACHINE_DRAFTS');
    expect(await look()).toMatchObject({ heading: '[TA machine draft] Withdraw your consent', headingLang: null });
    await showUnreviewed(call, tenant.token, 'ENGLISH');
    await reviewWords(call, tenant.token, 'TA', tamil);
    expect(await look()).toEqual({ lang: 'ta', dir: 'ltr', heading: tamil['portal.pageTitle'], headingLang: null, submit: [tamil['portal.submit'], null] });
  });
});

describe('Urdu pages', () => {
  it('read right to left, with English standing in left to right', async () => {
    const tenant = await newTenant(call);
    await reviewWords(call, tenant.token, 'UR', { 'portal.publicHeading': 'اس تنظیم کو دی گئی رضامندی واپس لیں', 'portal.sendLink': 'مجھے رضامندی واپس لینے کا لنک ای میل کریں' });
    const page = await openPortal(`${state.baseUrl}/portal/t/${tenant.slug}`, ['ur-PK', 'en']);
    try {
      expect(await pageWords(page)).toEqual({ lang: 'ur', dir: 'rtl', heading: 'اس تنظیم کو دی گئی رضامندی واپس لیں', headingLang: null });
      expect(await page.$eval('label[for="email"] [lang]', (element) => [element.getAttribute('lang'), element.getAttribute('dir'), element.textContent])).toEqual(['en', 'ltr', 'Email address']);
      expect(await page.$$eval('#language option', (elements) => elements.map((element) => element.getAttribute('value')))).toEqual(['EN', 'UR']);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
