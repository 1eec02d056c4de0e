import { describe, expect, it } from 'vitest';
import { showUnreviewed } from './support/words';
import { passEdgeBound, useClockReset } from './support/clock';
import { newTenant, useApi } from './support/api';
import { useBrowser } from './support/browser';
import { chooseLanguage, clickButton, configureCookies, dialogLanguage, dialogTitles, embedPage, nextEvent, openPage, useFixtureSite } from './support/widget';

const { call, state } = useApi();
const { browser } = useBrowser();
const { serve, freshPage } = useFixtureSite();
useClockReset();

const cookieSite = async (path: string, config: Record<string, unknown> = {}, attributes: Record<string, string> = {}) => {
  const tenant = await newTenant(call);
  const apiKey = await tenant.apiKey();
  await configureCookies(call, tenant.token, config);
  const url = serve(path, embedPage({ apiBaseUrl: state.baseUrl, apiKey, tenantId: tenant.tenantId, attributes: { 'data-notice': 'off', ...attributes } }));
  return { tenant, url };
};

describe('cookie banner configuration', () => {
  it('reads both banners in one request per page view, revalidated by its ETag, and asks again once a change of the offered categories reaches the page within the bound', async () => {
    const { tenant, url } = await cookieSite('/etag');
    const { page, close } = await freshPage(browser());
    const reads: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/v1/') && response.request().method() === 'GET') reads.push(`${new URL(response.url()).pathname} ${response.status()}`);
    });
    try {
      await openPage(page, url);
      const consented = await nextEvent(page, 'consent');
      await clickButton(page, 'Reject all');
      await consented();
      await openPage(page, url);
      expect(await dialogTitles(page)).toEqual([]);
      expect(reads).toEqual(['/api/v1/widget/bootstrap 200', '/api/v1/widget/bootstrap 304']);

      await configureCookies(call, tenant.token, { categories: { UNCLASSIFIED: { enabled: false } } });
      // The edge keeps its copy for the bound: this page view still has the configuration the choice answered.
      await openPage(page, url);
      expect(await dialogTitles(page)).toEqual([]);
      passEdgeBound();
      await openPage(page, url);
      expect(reads.slice(2)).toEqual(['/api/v1/widget/bootstrap 304', '/api/v1/widget/bootstrap 200']);
      expect(await dialogTitles(page)).toEqual(['We value your privacy']);
    } finally {
      await close();
    }
  });

  it("shows the tenant's labels in the language chosen, from data-language, and switches back to English", async () => {
    const { tenant, url } = await cookieSite('/labels', { languages: ['en', 'hi'] }, { 'data-language': 'HI' });
    expect((await call('POST', '/api/v1/cmp/translations/draft', { token: tenant.token, body: { language: 'hi' } })).status).toBe(200);
    // Machine drafts are shown only by the tenant's choice.
    await showUnreviewed(call, tenant.token, 'MACHINE_DRAFTS');
    const { page, close } = await freshPage(browser());
    try {
      await openPage(page, url);
      expect(await dialogTitles(page)).toEqual(['[HI machine draft] We value your privacy']);
      expect(await dialogLanguage(page)).toEqual({ lang: 'hi', dir: 'ltr' });
      // The switcher names each language in itself, from the configuration (the widget carries no table of names).
      expect(await page.evaluate(`[...document.querySelector('[data-cms]').shadowRoot.querySelectorAll('#cms-c-lang option')].map((option) => [option.value, option.lang, option.textContent])`)).toEqual([['EN', 'en', 'English'], ['HI', 'hi', 'हिन्दी']]);
      await chooseLanguage(page, 'EN');
      expect(await dialogTitles(page)).toEqual(['We value your privacy']);
    } finally {
      await close();
    }
  });

  it("says in PUT /cmp/config when the theme fails 4.5:1, and the widget falls back to readable colours", async () => {
    const tenant = await newTenant(call);
    const readable = await configureCookies(call, tenant.token);
    expect(readable.themeContrast).toEqual({ minimum: 4.5, failures: [] });
    const saved = await configureCookies(call, tenant.token, { bannerTheme: { textColor: '#bbbbbb', backgroundColor: '#ffffff' } });
    expect(saved.themeContrast.failures).toEqual([{ pair: 'textColor on backgroundColor', ratio: 1.91 }]);
    const url = serve('/contrast', embedPage({ apiBaseUrl: state.baseUrl, apiKey: await tenant.apiKey(), tenantId: tenant.tenantId, attributes: { 'data-notice': 'off' } }));
    const { page, close } = await freshPage(browser());
    try {
      await openPage(page, url);
      const colours = await page.evaluate(`(() => { const dialog = document.querySelector('[data-cms]').shadowRoot.querySelector('[role=dialog]'); const style = getComputedStyle(dialog); return [style.color, style.backgroundColor]; })()`);
      expect(colours).toEqual(['rgb(17, 24, 39)', 'rgb(255, 255, 255)']);
    } finally {
      await close();
    }
  });

  it('asks again once the decision is older than reconsentDays, at the position data-position names', async () => {
    const { url } = await cookieSite('/reconsent', { reconsentDays: 30 }, { 'data-position': 'top-center' });
    const { page, close } = await freshPage(browser());
    try {
      await openPage(page, url);
      expect(await page.evaluate(`document.querySelector('[data-cms]').shadowRoot.querySelector('.c').className`)).toBe('c tc');
      const consented = await nextEvent(page, 'consent');
      await clickButton(page, 'Accept all');
      await consented();
      await openPage(page, url);
      expect(await dialogTitles(page)).toEqual([]);
      // The same decision, dated 31 days back: past reconsentDays, so it no longer counts.
      await page.evaluate(`(() => {
        const stored = JSON.parse(decodeURIComponent(document.cookie.match(/cms_consent=([^;]*)/)[1]));
        stored.t = new Date(Date.now() - 31 * 86400000).toISOString();
        document.cookie = 'cms_consent=' + encodeURIComponent(JSON.stringify(stored)) + ';path=/';
      })()`);
      await openPage(page, url);
      expect(await dialogTitles(page)).toEqual(['We value your privacy']);
      expect((await page.evaluate('window.cms.getConsent()')) as any).toEqual({ notice: null, cookies: null });
    } finally {
      await close();
    }
  });
});
