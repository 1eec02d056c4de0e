import { describe, expect, it } from 'vitest';
import { newTenant, useApi } from './support/api';
import { axeViolations, useBrowser } from './support/browser';
import { waitFor } from './support/receiver';
import { clickButton, configureCookies, dialogText, dialogTitles, embedPage, nextEvent, openPage, setSwitch, useFixtureSite } from './support/widget';

const { call, state } = useApi();
const { browser } = useBrowser();
const { serve, freshPage } = useFixtureSite();

/** Tags that must stay inert until their category is granted; each run leaves a mark in dataLayer. */
const blockedTags = `
<script type="text/plain" data-category="ANALYTICS">window.dataLayer.push({ event: 'analytics-ran' });</script>
<script type="text/plain" data-category="MARKETING">window.dataLayer.push({ event: 'marketing-ran' });</script>
<iframe data-category="MARKETING" data-src="about:blank" title="Advertising"></iframe>`;

/** What reached dataLayer, in order: consent commands as [command, type, state], other entries by their event. */
const dataLayer = (page: import('puppeteer-core').Page): Promise<unknown[]> =>
  page.evaluate(`(window.dataLayer || []).map((entry) => entry.event ? entry.event : [entry[0], entry[1], entry[2]])`) as Promise<unknown[]>;

const cookieSite = async (path: string, config: Record<string, unknown> = {}) => {
  const tenant = await newTenant(call);
  const apiKey = await tenant.apiKey();
  await configureCookies(call, tenant.token, config);
  const url = serve(path, embedPage({ apiBaseUrl: state.baseUrl, apiKey, tenantId: tenant.tenantId, attributes: { 'data-notice': 'off' }, body: blockedTags }));
  return { tenant, apiKey, url };
};

const consentStatus = async (apiKey: string, visitorId: string) =>
  (await call('GET', `/api/v1/cmp/consent-status?visitorId=${visitorId}`, { headers: { 'x-api-key': apiKey } })).body.data;

const denied = { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', analytics_storage: 'denied', functionality_storage: 'denied', personalization_storage: 'denied' };

describe('cookie banner', () => {
  it('sets Consent Mode first, runs blocked tags only once granted, records the decision, and applies it on the next page', async () => {
    const { tenant, apiKey, url } = await cookieSite('/consent-mode');
    expect(
      (await call('PUT', '/api/v1/cmp/trackers', { token: tenant.token, body: { trackers: [{ domain: '127.0.0.1', cookieName: '_ga', category: 'ANALYTICS' }] } })).status,
    ).toBe(200);
    const { page, close } = await freshPage(browser());
    try {
      await page.evaluateOnNewDocument('window.__before = Object.keys(window)');
      const { errors } = await openPage(page, url);
      expect(await dialogTitles(page)).toEqual(['We value your privacy']);
      // No globals but window.cms, and the dataLayer Consent Mode needs (numeric keys are the page's frames; __ and puppeteer_ keys the test's and puppeteer's).
      expect(await page.evaluate('Object.keys(window).filter((key) => !window.__before.includes(key) && !/^(\\d+|__.*|puppeteer_.*)$/.test(key)).sort()')).toEqual(['cms', 'dataLayer']);
      expect(await dataLayer(page)).toEqual([['consent', 'default', { ...denied, security_storage: 'granted', wait_for_update: 500 }]]);
      expect(await page.$eval('iframe', (frame) => frame.getAttribute('src'))).toBeNull();
      expect(await axeViolations(page, '[data-cms]')).toEqual([]);

      await clickButton(page, 'Manage preferences');
      expect(await axeViolations(page, '[data-cms]')).toEqual([]);
      await setSwitch(page, 'cms-k-ANALYTICS', true);
      const consented = await nextEvent(page, 'consent');
      await clickButton(page, 'Save preferences');
      const { cookies } = await consented();
      expect(cookies.categories).toEqual({ NECESSARY: true, FUNCTIONAL: false, ANALYTICS: true, MARKETING: false, UNCLASSIFIED: false });
      const granted = { ...denied, analytics_storage: 'granted' };
      expect(await dataLayer(page)).toEqual([['consent', 'default', expect.any(Object)], ['consent', 'update', granted], 'analytics-ran']);
      expect(await page.$eval('iframe', (frame) => frame.getAttribute('src'))).toBeNull();

      // CDP's cookie store learns of document.cookie writes asynchronously: wait for it.
      const stored = await waitFor(async () => (await page.cookies()).find((cookie) => cookie.name === 'cms_consent'));
      expect(stored).toMatchObject({ sameSite: 'Lax', secure: false, path: '/' });
      expect(JSON.parse(decodeURIComponent(stored!.value))).toMatchObject({ v: cookies.visitorId, c: cookies.categories });
      expect(await consentStatus(apiKey, cookies.visitorId)).toMatchObject({ found: true, withdrawn: false, categories: { ANALYTICS: true, MARKETING: false } });

      // The next page: no banner, and the grant applies at once (Consent Mode update, the tag runs).
      await openPage(page, url);
      expect(await dialogTitles(page)).toEqual([]);
      expect(await dataLayer(page)).toEqual([['consent', 'default', expect.any(Object)], ['consent', 'update', granted], 'analytics-ran']);

      // Turning analytics off is a withdrawal: the registry's analytics cookie is deleted.
      await page.evaluate(`document.cookie = '_ga=GA1.1.123; path=/'`);
      await page.evaluate('window.cms.showCookiePreferences()');
      await setSwitch(page, 'cms-k-ANALYTICS', false);
      const withdrawn = await nextEvent(page, 'withdraw');
      await clickButton(page, 'Save preferences');
      await withdrawn();
      // Read as the page's scripts see it (CDP's store may lag behind).
      expect(await page.evaluate('document.cookie')).not.toMatch(/(^|; )_ga=/);
      expect(await page.evaluate('document.cookie')).toMatch(/(^|; )cms_consent=/);
      expect(await consentStatus(apiKey, cookies.visitorId)).toMatchObject({ found: true, withdrawn: true, categories: { ANALYTICS: false } });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('starts MARKETING off under Global Privacy Control and says why; Escape leaves the preferences; Accept all grants marketing tags', async () => {
    const { url } = await cookieSite('/gpc', { defaultDeny: false });
    const { page, close } = await freshPage(browser());
    try {
      await page.evaluateOnNewDocument("Object.defineProperty(navigator, 'globalPrivacyControl', { get: () => true })");
      await openPage(page, url);
      expect(await dialogText(page)).toContain('Global Privacy Control');
      await clickButton(page, 'Manage preferences');
      const switches = await page.evaluate(
        `Object.fromEntries([...document.querySelector('[data-cms]').shadowRoot.querySelectorAll('input')].map((input) => [input.id, input.checked]))`,
      );
      expect(switches).toEqual({ 'cms-k-NECESSARY': true, 'cms-k-FUNCTIONAL': true, 'cms-k-ANALYTICS': true, 'cms-k-MARKETING': false, 'cms-k-UNCLASSIFIED': true });
      // Escape leaves the preferences: back to the first layer while nothing is decided.
      await page.keyboard.press('Escape');
      expect(await dialogTitles(page)).toEqual(['We value your privacy']);
      const consented = await nextEvent(page, 'consent');
      await clickButton(page, 'Accept all');
      await consented();
      expect(await dataLayer(page)).toContain('marketing-ran');
      expect(await page.$eval('iframe', (frame) => frame.getAttribute('src'))).toBe('about:blank');
    } finally {
      await close();
    }
  });

  it('never offers analytics or marketing on a child-directed site', async () => {
    const { url } = await cookieSite('/children', {
      childDirected: true,
      categories: { ANALYTICS: { enabled: false, toggleable: false }, MARKETING: { enabled: false, toggleable: false } },
    });
    const { page, close } = await freshPage(browser());
    try {
      await openPage(page, url);
      await clickButton(page, 'Manage preferences');
      const ids = await page.evaluate(`[...document.querySelector('[data-cms]').shadowRoot.querySelectorAll('input')].map((input) => input.id)`);
      expect(ids).toEqual(['cms-k-NECESSARY', 'cms-k-FUNCTIONAL', 'cms-k-UNCLASSIFIED']);
    } finally {
      await close();
    }
  });

  it('shows no banner and breaks nothing when the API is unreachable: every optional category stays denied', async () => {
    const tenant = await newTenant(call);
    const url = serve(
      '/api-down',
      embedPage({ apiBaseUrl: state.baseUrl, apiKey: 'cms_unreachable_key', tenantId: tenant.tenantId, body: blockedTags })
        // The script still loads; the API base points at a closed port.
        .replace(`data-api-base="${state.baseUrl}/api/v1"`, 'data-api-base="http://127.0.0.1:9/api/v1"'),
    );
    const { page, close } = await freshPage(browser());
    try {
      const { errors } = await openPage(page, url);
      expect(await page.$('[data-cms]')).toBeNull();
      expect(await page.evaluate('window.cms.getConsent()')).toEqual({ notice: null, cookies: null });
      expect(await dataLayer(page)).toEqual([['consent', 'default', expect.any(Object)]]);
      // Odd names from the host page are unknown events, never a thrown TypeError.
      const identified = await page.evaluate(
        `(() => { window.cms.on('constructor', () => 1); window.cms.on('__proto__', () => 1); window.cms.on('hasOwnProperty', 'not a function'); return window.cms.identify({ identifierHash: 'x' }); })()`,
      );
      expect(identified).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
