import type { Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../shared/tenants/service';
import { newTenant, password, uniqueEmail, useApi } from './support/api';
import { axeViolations, collectCspViolations, cspViolationsOf, useBrowser } from './support/browser';
import { useFixtureSites } from './support/fixture-sites';
import { useTestWorkers } from './support/workers';

/**
 * The cookie-consent screen in real headless Chromium: the configuration form with field errors
 * and its live preview (the real cms.js in a sandboxed frame, following unsaved changes), cookie
 * analytics after web events, the tracker registry, a scan of a loopback fixture site run by the
 * local workers and its report, the way to its words, the collect-only plan and the VIEWER.
 */
const { call, state } = useApi();
const { browser } = useBrowser();
const { sites } = useFixtureSites();
useTestWorkers();

type Tenant = Awaited<ReturnType<typeof newTenant>>;
let tenant: Tenant;
let page: Page;

const aria = (name: string, role: string) => `::-p-aria([name="${name}"][role="${role}"])`;
const waitForH1 = (target: Page, text: string) =>
  target.waitForFunction((expected) => (globalThis as any).document.querySelector('h1')?.textContent === expected, { timeout: 15_000 }, text);
const waitForText = (target: Page, text: string, timeout = 15_000) =>
  target.waitForFunction((expected) => (globalThis as any).document.querySelector('main')?.innerText.includes(expected), { timeout }, text);
const expectNoAxeViolations = async (target: Page) => expect(await axeViolations(target)).toEqual([]);
const click = async (target: Page, name: string, role = 'button') => (await target.waitForSelector(aria(name, role)))!.click();
const valueOf = (target: Page, selector: string) => target.$eval(selector, (element) => (element as unknown as { value: string }).value);
const replaceText = async (target: Page, selector: string, text: string) => {
  await target.click(selector, { clickCount: 3 });
  await target.keyboard.press('Backspace');
  await target.type(selector, text);
};

const signedIn = async (email: string) => {
  const opened = await browser().newPage();
  // axe is injected as an inline script, which the dashboard's policy refuses.
  await opened.setBypassCSP(true);
  await opened.setViewport({ width: 1280, height: 1000 });
  await opened.goto(`${state.baseUrl}/dashboard/cookie-consent`, { waitUntil: 'load' });
  await opened.waitForSelector('#email');
  await opened.type('#email', email);
  await opened.type('#password', password);
  await click(opened, 'Sign in');
  await waitForH1(opened, 'Cookie consent');
  await opened.waitForFunction(() => !(globalThis as any).document.querySelector('main')?.innerText.includes('Loading'), { timeout: 15_000 });
  return opened;
};

/** The preview frame's banner (inside the widget's shadow root): its background colour and text, once the widget has drawn it. */
const previewBanner = async (target: Page, check: (banner: { background: string; text: string }) => boolean) => {
  const deadline = Date.now() + 15_000;
  let last: { background: string; text: string } | undefined;
  while (Date.now() < deadline) {
    const frame: Frame | undefined = target.frames().find((candidate) => candidate.url().endsWith('/widget/preview'));
    last = await frame
      ?.evaluate(() => {
        const root = (globalThis as any).document.querySelector('[data-cms]')?.shadowRoot;
        const container = root?.querySelector('.c');
        if (!container || !container.textContent) return undefined;
        return { background: (globalThis as any).getComputedStyle(container).getPropertyValue('--bg').trim(), text: container.textContent as string };
      })
      .catch(() => undefined);
    if (last && check(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`preview banner never matched: ${JSON.stringify(last)}`);
};

beforeAll(async () => {
  tenant = await newTenant(call);
});

afterAll(async () => {
  await page?.close();
});

describe('cookie consent as the DPO', () => {
  it('configures the banner: a field error keeps the form, the preview follows unsaved theme changes, the save lands', async () => {
    page = await signedIn(tenant.adminEmail);
    await waitForText(page, 'Cookie consent is not set up yet');
    // The real widget in the preview, with the defaults.
    await previewBanner(page, (banner) => banner.background === '#ffffff' && banner.text.includes('We value your privacy'));
    await expectNoAxeViolations(page);

    // A dark theme, unsaved: the preview changes.
    await replaceText(page, '#theme-backgroundColor', '#111827');
    await replaceText(page, '#theme-textColor', '#ffffff');
    await replaceText(page, '#theme-primaryColor', '#93c5fd');
    await previewBanner(page, (banner) => banner.background === '#111827');
    // The banner opening again in the preview did not take the focus from the field being edited.
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('theme-primaryColor');
    expect((await call('GET', `/api/v1/cmp/config/${tenant.tenantId}`)).status).toBe(404);

    // A bad colour: the API's message beside the field, every other value kept.
    await replaceText(page, '#theme-primaryColor', '#12');
    await page.type('#scan-urls', `${sites().site}/`);
    await (await page.$('::-p-text(Hindi)'))!.click();
    await click(page, 'Save configuration');
    const fieldError = await page.waitForSelector('#theme-primaryColor-error');
    expect(await fieldError!.evaluate((element) => element.textContent)).toContain('hex colour');
    expect(await page.$eval('#theme-primaryColor', (element) => element.getAttribute('aria-invalid'))).toBe('true');
    expect(await page.$('[role="alert"]')).not.toBeNull();
    expect(await valueOf(page, '#theme-backgroundColor')).toBe('#111827');
    expect(await valueOf(page, '#scan-urls')).toBe(`${sites().site}/`);
    await expectNoAxeViolations(page);

    await replaceText(page, '#theme-primaryColor', '#93c5fd');
    await click(page, 'Save configuration');
    await waitForText(page, 'Saved (revision');
    const saved = (await call('GET', `/api/v1/cmp/config/${tenant.tenantId}`)).body.data;
    expect(saved.bannerTheme).toMatchObject({ backgroundColor: '#111827', textColor: '#ffffff', primaryColor: '#93c5fd' });
    expect(saved.scanUrls).toEqual([`${sites().site}/`]);
    expect(saved.languages).toEqual(['en', 'hi']);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: '/tmp/cookie-consent-config.png', fullPage: true });
  });

  it('shows accept, reject and partial rates after web events posted through the API', async () => {
    const decide = (categories: Record<string, boolean>) =>
      call('POST', '/api/v1/cmp/web-event', { body: { tenantId: tenant.tenantId, event: 'COOKIE_CONSENT_GIVEN', categories } });
    for (const categories of [{ ANALYTICS: true, MARKETING: true }, { ANALYTICS: true, MARKETING: true }, { ANALYTICS: false, MARKETING: false }, { ANALYTICS: true, MARKETING: false }]) {
      expect((await decide(categories)).status).toBe(201);
    }
    const analytics = (await call('GET', '/api/v1/cmp/analytics', { token: tenant.token })).body.data;
    expect(analytics.totals).toMatchObject({ decisions: 4, accept: 2, reject: 1, partial: 1 });
    await click(page, 'Show analytics');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('#cookie-decisions')?.textContent === '4');
    const figure = (id: string) => page.$eval(`#${id}`, (element) => element.textContent);
    expect(await figure('cookie-accept')).toBe('50%');
    expect(await figure('cookie-reject')).toBe('25%');
    expect(await figure('cookie-partial')).toBe('25%');
    const today = analytics.daily.at(-1);
    expect(await page.$$eval('table.cookie-daily tbody tr:last-child td', (cells) => cells.map((cell) => cell.textContent))).toEqual(
      [today.date, '4', '2', '1', '1', '0'],
    );
    await expectNoAxeViolations(page);
  });

  it('declares a tracker in the registry', async () => {
    await page.type('#tracker-domain', 'analytics.example.com');
    await page.type('#tracker-cookieName', '_example_id');
    await page.type('#tracker-vendor', 'Example Analytics');
    await click(page, 'Declare tracker');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('table.trackers')?.innerText.includes('_example_id'));
    const trackers = (await call('GET', '/api/v1/cmp/trackers', { token: tenant.token })).body.data;
    expect(trackers).toEqual([expect.objectContaining({ domain: 'analytics.example.com', cookieName: '_example_id', category: 'ANALYTICS', declaredByAdmin: true })]);
    await expectNoAxeViolations(page);
  });

  it('scans the fixture site with "Scan now" and opens the report with its violations highlighted', async () => {
    await click(page, 'Scan now');
    await page.waitForSelector('table.scan-runs');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('table.scan-runs tbody tr .badge')?.textContent === 'Completed', { timeout: 120_000 });
    const [run] = (await call('GET', '/api/v1/cmp/scan-runs', { token: tenant.token })).body.data;
    expect(run).toMatchObject({ status: 'COMPLETED', trigger: 'MANUAL' });
    expect(run.violations).toBeGreaterThan(0);
    // The registry now lists what the scanner found.
    await page.waitForFunction(() => (globalThis as any).document.querySelector('table.trackers')?.innerText.includes('Found by scanner'));
    await expectNoAxeViolations(page);

    await (await page.waitForSelector(`a[href="/dashboard/cookie-consent/scans/${run.scanRunId}"]`))!.click();
    await waitForH1(page, 'Scan report');
    await page.waitForSelector('#violation-findings');
    const report = (await call('GET', `/api/v1/cmp/scan-runs/${run.scanRunId}`, { token: tenant.token })).body.data;
    const violations = report.findings.filter((finding: { setBeforeConsent: boolean; category: string }) => finding.setBeforeConsent && finding.category !== 'NECESSARY');
    expect(await page.$$eval('#violation-findings tbody tr.violation', (rows) => rows.length)).toBe(violations.length);
    expect(await page.$$eval('#all-findings tbody tr', (rows) => rows.length)).toBe(report.findings.length);
    expect(await page.$eval('#violation-findings', (element) => (element as unknown as { innerText: string }).innerText)).toContain('_ga');
    await expectNoAxeViolations(page);
    await page.screenshot({ path: '/tmp/cookie-consent-report.png', fullPage: true });
    await click(page, 'Cookie consent', 'link');
    await waitForH1(page, 'Cookie consent');
  });

  it("sends its words to \"Words people see\", and the preview shows the tenant's English once saved there", async () => {
    await page.waitForFunction(() => !(globalThis as any).document.querySelector('main')?.innerText.includes('Loading'));
    expect((await call('PUT', '/api/v1/words/languages/en', { token: tenant.token, body: { labels: { title: 'Cookies at Acme' } } })).status).toBe(200);
    await click(page, 'Words people see', 'link');
    await waitForH1(page, 'Words people see');
    await click(page, 'Cookie consent', 'link');
    await waitForH1(page, 'Cookie consent');
    await previewBanner(page, (banner) => banner.text.includes('Cookies at Acme'));
    await expectNoAxeViolations(page);
  });
});

describe('cookie consent under the real Content-Security-Policy', () => {
  it('runs the screen and the framed preview without a violation', async () => {
    const strict = await browser().newPage();
    try {
      await collectCspViolations(strict);
      await strict.goto(`${state.baseUrl}/dashboard/cookie-consent`, { waitUntil: 'load' });
      await strict.waitForSelector('#email');
      await strict.type('#email', tenant.adminEmail);
      await strict.type('#password', password);
      await click(strict, 'Sign in');
      await waitForH1(strict, 'Cookie consent');
      // The preview page's own policy (script-src 'self', connect-src 'none') lets the widget draw the banner.
      await previewBanner(strict, (banner) => banner.background === '#111827');
      const frame = strict.frames().find((candidate) => candidate.url().endsWith('/widget/preview'))!;
      expect(await cspViolationsOf(frame)).toEqual([]);
      expect(await cspViolationsOf(strict)).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe('cookie consent for other plans and roles', () => {
  it('says plainly that a collect-only plan has no cookie consent', async () => {
    const collectOnly = await newTenant(call, { plan: 'collect-only' });
    const other = await signedIn(collectOnly.adminEmail);
    try {
      await waitForText(other, "Cookie consent is not on your organisation's plan");
      expect(await other.$$('form')).toHaveLength(0);
      await expectNoAxeViolations(other);
    } finally {
      await other.close();
    }
  });

  it('shows a VIEWER the configuration, registry and scans without any change offered', async () => {
    const email = uniqueEmail('viewer');
    await addUser({ tenantId: tenant.tenantId, email, password, role: 'VIEWER' });
    const viewer = await signedIn(email);
    try {
      await viewer.waitForSelector('table.scan-runs');
      for (const name of ['Save configuration', 'Scan now', 'Declare tracker']) expect(await viewer.$$(aria(name, 'button'))).toHaveLength(0);
      expect(await viewer.$eval('#theme-backgroundColor', (element) => (element as unknown as { matches: (selector: string) => boolean }).matches(':disabled'))).toBe(true);
      await previewBanner(viewer, (banner) => banner.background === '#111827');
      await expectNoAxeViolations(viewer);
    } finally {
      await viewer.close();
    }
  });
});
