import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { readBuiltIn } from '../shared/words/built-in-words';
import { newTenant, uniqueEmail, useApi } from './support/api';
import { axeViolations, useBrowser } from './support/browser';
import { passEdgeBound, useClockReset } from './support/clock';
import { createNotice, createPurpose, publish } from './support/notices';
import { openPortalPage } from './support/portal';
import { dialogLanguage, embedPage, openPage, useFixtureSite } from './support/widget';
import { mailedLink } from './support/rights';
import { reviewWords, showUnreviewed } from './support/words';

/**
 * The words around a notice, in the widget and on the pages. A fresh tenant shows the service's
 * built-in words in Tamil, Hindi and Urdu (right to left) with no translation work of its own; its
 * own override stands over the service's word; and under "English until reviewed", English marked
 * lang="en" until the tenant reviews its Tamil, the machine drafts when it chose to show them, its
 * Tamil once reviewed. Real Chromium, axe-core.
 */
const { call, state } = useApi();
const { browser } = useBrowser();
const { serve, freshPage } = useFixtureSite();
useClockReset();

beforeAll(() => {
  process.env.PORTAL_BASE_URL = `${state.baseUrl}/portal`;
  process.env.RIGHTS_INTAKE_MIN_MS = '20';
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

/** The notice banner as a fresh visitor sees it, once the change of words just made has reached pages (within the edge's bound). */
const widget = async (url: string, check: (page: Page) => Promise<void>) => {
  passEdgeBound();
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
  it('in the widget, without a cookie configuration, under "English until reviewed": English marked lang="en" until reviewed, machine drafts by choice, Tamil once reviewed', async () => {
    const { tenant, url } = await tamilTenant();
    expect((await call('GET', `/api/v1/cmp/config/${tenant.tenantId}`)).status).toBe(404);
    await showUnreviewed(call, tenant.token, 'ENGLISH');

    await widget(url, async (page) => {
      expect(await dialogLanguage(page)).toEqual({ lang: 'ta', dir: 'ltr' });
      // The switcher names each language in itself, from the public notice (the widget carries no table of names).
      expect(await page.evaluate(`[...document.querySelector('[data-cms]').shadowRoot.querySelectorAll('#cms-n-lang option')].map((option) => option.textContent)`)).toEqual(['English', 'தமிழ்']);
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

  it('on the withdrawal page, under "English until reviewed": English marked lang="en" until reviewed, machine drafts by choice, Tamil once reviewed', async () => {
    const { tenant, portalUrl } = await tamilTenant();
    await showUnreviewed(call, tenant.token, 'ENGLISH');
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
  it('read right to left, with English standing in left to right under "English until reviewed"', async () => {
    const tenant = await newTenant(call);
    await showUnreviewed(call, tenant.token, 'ENGLISH');
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

/** The tenant's own notice text in each language under test (its text stays its own to translate). */
const noticeTexts = {
  TA: { title: 'தனியுரிமை அறிவிப்பு', introText: 'கீழே உள்ள நோக்கங்களுக்கு மட்டுமே உங்கள் தரவைப் பயன்படுத்துகிறோம்.', rightsText: 'உங்கள் தரவை அணுகலாம், திருத்தலாம், அழிக்கலாம்.', complaintText: 'எங்கள் குறைதீர்ப்பு அலுவலரிடம் புகார் அளிக்கலாம்.', purpose: 'சந்தைப்படுத்தல்' },
  HI: { title: 'गोपनीयता सूचना', introText: 'हम आपके डाटा का उपयोग केवल नीचे दिए प्रयोजनों के लिए करते हैं।', rightsText: 'आप अपने डाटा तक पहुंच, सुधार और उसे मिटाने के लिए कह सकते हैं।', complaintText: 'आप हमारे शिकायत अधिकारी से शिकायत कर सकते हैं।', purpose: 'विपणन' },
  UR: { title: 'رازداری کا نوٹس', introText: 'ہم آپ کا ڈیٹا صرف نیچے دیے گئے مقاصد کے لیے استعمال کرتے ہیں۔', rightsText: 'آپ اپنے ڈیٹا تک رسائی، تصحیح اور اسے مٹانے کا کہہ سکتے ہیں۔', complaintText: 'آپ ہمارے شکایات افسر سے شکایت کر سکتے ہیں۔', purpose: 'مارکیٹنگ' },
} as const;

/** A fresh tenant whose notice it published in English and `language` (its own text), with no words of its own, and one principal's consent in that language. */
const freshTenant = async (language: keyof typeof noticeTexts) => {
  const tenant = await newTenant(call);
  const text = noticeTexts[language];
  const purpose = await createPurpose(call, tenant.token, { name: 'Marketing' });
  const { purpose: purposeName, ...notice } = text;
  const noticeId = await createNotice(call, tenant.token, [purpose], { translations: { [language]: { ...notice, purposes: { [purpose]: { name: purposeName } } } } });
  expect((await publish(call, tenant.token, noticeId)).status).toBe(200);
  const email = uniqueEmail(`fresh-${language.toLowerCase()}`);
  expect((await call('POST', '/api/v1/consent/record', { token: tenant.token, body: { noticeId, dataPrincipalIdentifier: email, consentGiven: { [purpose]: true }, language } })).status).toBe(201);
  const link = await call('POST', '/api/v1/consent/withdrawal-token', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId } });
  const url = serve(`/fresh-${tenant.slug}`, embedPage({ apiBaseUrl: state.baseUrl, apiKey: await tenant.apiKey(), tenantId: tenant.tenantId, attributes: { 'data-language': language } }));
  return { tenant, url, email, portalUrl: link.body.data.portalUrl as string };
};

/** Text inside the widget's dialog that is marked as English (English standing in for a word; the language switcher's "English" is English by right). */
const englishInWidget = (page: Page) =>
  page.evaluate(`[...document.querySelector('[data-cms]').shadowRoot.querySelectorAll('[role=dialog] [lang="en"]:not(option)')].map((element) => element.textContent)`) as Promise<string[]>;
/** Text on a page that is marked as English (the switcher's "English" aside). */
const englishOnPage = (page: Page) => page.$$eval('main [lang="en"]:not(option)', (elements) => elements.map((element) => element.textContent));
const mainText = (page: Page) => page.$eval('main', (element) => (element as unknown as { innerText: string }).innerText);
/** Waits until the page's main region shows `text` (the rights section arrives after the page's first view). */
const waitForMain = (page: Page, text: string) =>
  page.waitForFunction((wanted) => ((globalThis as unknown as { document: { querySelector(s: string): { innerText: string } | null } }).document.querySelector('main')?.innerText ?? '').includes(wanted), { timeout: 15_000 }, text);

describe("the service's built-in words on a fresh tenant, with no translation work by the tenant", () => {
  it.each([
    ['TA', 'ta-IN', 'ltr'],
    ['HI', 'hi-IN', 'ltr'],
    ['UR', 'ur-IN', 'rtl'],
  ] as const)('in %s: the widget, the withdrawal page, the rights page and the request page and its mail', async (language, tag, dir) => {
    const words = (await readBuiltIn(language))!.words;
    const { tenant, url, portalUrl } = await freshTenant(language);

    await widget(url, async (page) => {
      expect(await dialogLanguage(page)).toEqual({ lang: language.toLowerCase(), dir });
      const shown = await buttons(page);
      for (const key of ['acceptAll', 'rejectAll', 'notice.saveChoices', 'privacyChoices'] as const) expect(shown).toContainEqual([words[key], null]);
      expect(await englishInWidget(page)).toEqual([]);
      expect(await axeViolations(page, '[data-cms]')).toEqual([]);
    });

    const withdrawal = await openPortal(portalUrl, [tag, 'en']);
    try {
      expect(await pageWords(withdrawal)).toEqual({ lang: language.toLowerCase(), dir, heading: words['portal.pageTitle'], headingLang: null });
      expect(await withdrawal.$eval('button[type="submit"]', (element) => element.textContent)).toBe(words['portal.submit']);
      expect(await englishOnPage(withdrawal)).toEqual([]);
      expect(await axeViolations(withdrawal)).toEqual([]);
    } finally {
      await withdrawal.close();
    }

    const rights = await openPortal(`${state.baseUrl}/portal/t/${tenant.slug}`, [tag, 'en']);
    try {
      expect(await pageWords(rights)).toEqual({ lang: language.toLowerCase(), dir, heading: words['portal.publicHeading'], headingLang: null });
      await waitForMain(rights, words['rights.rightsHeading']!);
      expect(await mainText(rights)).toContain(words['rights.typeName_ACCESS']);
      expect(await englishOnPage(rights)).toEqual([]);
      // Every scheduled language is offered, the service's words standing in for the tenant's.
      expect(await rights.$$eval('#language option', (elements) => elements.length)).toBe(23);
      expect(await axeViolations(rights)).toEqual([]);
    } finally {
      await rights.close();
    }

    // A request made in the language: its mail and its page are in it too.
    const email = uniqueEmail(`asker-${language.toLowerCase()}`);
    expect((await call('POST', '/api/v1/rights/requests/public', { body: { tenantSlug: tenant.slug, type: 'ACCESS', email, details: 'Everything you hold', language } })).status).toBe(202);
    const subject = words['mail.rights.confirmSubject']!.replace('{tenant}', '');
    const token = await mailedLink(email, new RegExp(subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    const request = await openPortal(`${state.baseUrl}/portal/r/${token}`, [tag, 'en']);
    try {
      expect(await pageWords(request)).toMatchObject({ lang: language.toLowerCase(), dir, heading: words['rights.requestPageTitle'], headingLang: null });
      await waitForMain(request, words['rights.status_UNVERIFIED']!);
      expect(await axeViolations(request)).toEqual([]);
    } finally {
      await request.close();
    }
  });

  it("shows the tenant's own word instead of the service's, and only its reviewed words under \"English until reviewed\"", async () => {
    const tamil = (await readBuiltIn('TA'))!.words;
    const { tenant, url, portalUrl } = await freshTenant('TA');
    await reviewWords(call, tenant.token, 'TA', { acceptAll: 'எல்லாவற்றுக்கும் சரி', 'portal.pageTitle': 'ஒப்புதலைத் திரும்பப் பெறுங்கள்' });

    await widget(url, async (page) => {
      const shown = await buttons(page);
      expect(shown).toContainEqual(['எல்லாவற்றுக்கும் சரி', null]);
      expect(shown).not.toContainEqual([tamil.acceptAll, null]);
      expect(shown).toContainEqual([tamil.rejectAll, null]);
      expect(await axeViolations(page, '[data-cms]')).toEqual([]);
    });
    const page = await openPortal(portalUrl, ['ta-IN', 'en']);
    try {
      expect(await pageWords(page)).toMatchObject({ heading: 'ஒப்புதலைத் திரும்பப் பெறுங்கள்', headingLang: null });
      expect(await page.$eval('button[type="submit"]', (element) => element.textContent)).toBe(tamil['portal.submit']);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }

    await showUnreviewed(call, tenant.token, 'ENGLISH');
    await widget(url, async (page) => {
      const shown = await buttons(page);
      expect(shown).toContainEqual(['எல்லாவற்றுக்கும் சரி', null]);
      expect(shown).toContainEqual(['Reject all', 'en']);
      expect(await axeViolations(page, '[data-cms]')).toEqual([]);
    });
    const english = await openPortal(portalUrl, ['ta-IN', 'en']);
    try {
      expect(await pageWords(english)).toMatchObject({ lang: 'ta', heading: 'ஒப்புதலைத் திரும்பப் பெறுங்கள்', headingLang: null });
      expect(await english.$eval('button[type="submit"]', (element) => [element.textContent, element.querySelector('[lang]')?.getAttribute('lang') ?? null])).toEqual(['Withdraw consent', 'en']);
      expect(await axeViolations(english)).toEqual([]);
    } finally {
      await english.close();
    }
  });
});
