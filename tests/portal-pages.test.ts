import type { Page } from 'puppeteer-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { newTenant, uniqueEmail, useApi } from './support/api';
import { axeViolations, cspViolationsOf, useBrowser } from './support/browser';
import { openPortalPage } from './support/portal';
import { waitFor } from './support/receiver';
import { lastActivityOf } from '../shared/retention/activity';
import { sha256 } from './support/consent';
import { mailsTo } from './support/mail';
import { createNotice, createPurpose, publish } from './support/notices';
import { readBuiltIn } from '../shared/words/built-in-words';
import { hindiWords, reviewWords, showUnreviewed } from './support/words';

const { call, state } = useApi();
const { browser } = useBrowser();

beforeAll(() => {
  // Links point at this test's server, as `npm start` points them at the port it bound.
  process.env.PORTAL_BASE_URL = `${state.baseUrl}/portal`;
  // The equal-time answer is not under test here; the rate-limit test makes many requests.
  process.env.PORTAL_LINK_MIN_MS = '20';
});
afterEach(() => resetClock());

const hour = 3_600_000;

/** A tenant whose published notice has a required and an optional purpose, Hindi and Urdu text, and one principal's consent. */
const consentingPrincipal = async (options: { withdrawalUrl?: string } = {}) => {
  const tenant = await newTenant(call);
  const required = await createPurpose(call, tenant.token, { name: 'Order processing', dataCategories: ['email', 'address'] });
  const optional = await createPurpose(call, tenant.token, { name: 'Marketing', dataCategories: ['email'] });
  const noticeId = await createNotice(call, tenant.token, [required, optional], {
    ...('withdrawalUrl' in options ? { withdrawalUrl: options.withdrawalUrl } : {}),
    translations: {
      HI: { title: 'गोपनीयता सूचना', purposes: { [optional]: { name: 'विपणन' } } },
      UR: { title: 'رازداری کا نوٹس', purposes: { [optional]: { name: 'مارکیٹنگ' } } },
    },
  });
  expect((await publish(call, tenant.token, noticeId)).status).toBe(200);
  const email = uniqueEmail('principal');
  const recorded = await call('POST', '/api/v1/consent/record', {
    token: tenant.token,
    body: { noticeId, dataPrincipalIdentifier: email, consentGiven: { [required]: true, [optional]: true } },
  });
  expect(recorded.status).toBe(201);
  return { tenant, noticeId, required, optional, email };
};

const withdrawalLink = async (principal: Awaited<ReturnType<typeof consentingPrincipal>>) => {
  const link = await call('POST', '/api/v1/consent/withdrawal-token', { token: principal.tenant.token, body: { dataPrincipalIdentifier: principal.email, noticeId: principal.noticeId } });
  expect(link.status).toBe(201);
  return link.body.data as { token: string; portalUrl: string };
};

const heading = (page: Page) => page.$eval('h1', (element) => element.textContent ?? '');
const pageText = (page: Page) => page.$eval('main', (element) => (element as unknown as { innerText: string }).innerText);

const open = (url: string, languages?: string[], options?: { enforceCsp?: boolean }) => openPortalPage(browser(), url, languages, options);

const waitForHeading = (page: Page, text: string) =>
  page.waitForFunction((expected) => (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('h1')?.textContent === expected, {}, text);

const statusOf = async (token: string, email: string) => (await call('GET', `/api/v1/consent/status/${sha256(email)}`, { token })).body.data[0];

describe('portal page /portal/<token>', () => {
  it('shows the consent, is not spent by opening, withdraws one purpose and confirms with the withdrawal id', async () => {
    const principal = await consentingPrincipal();
    const { token, portalUrl } = await withdrawalLink(principal);
    expect(portalUrl).toBe(`${state.baseUrl}/portal/${token}`);

    // Mail scanners open links first: opening (API and page, twice) must leave the link usable.
    expect((await call('GET', `/api/v1/consent/portal/${token}`)).status).toBe(200);
    const first = await open(portalUrl);
    await first.close();
    const page = await open(portalUrl);
    try {
      expect(await heading(page)).toBe('Withdraw your consent');
      const text = await pageText(page);
      expect(text).toContain((await call('GET', `/api/v1/consent/portal/${token}`)).body.data.tenant.name);
      expect(text).toContain('Privacy notice');
      expect(text).toContain('version 1');
      expect(text).toMatch(/Order processing\s*Consent given\s*Required/);
      expect(text).toMatch(/Marketing\s*Consent given/);
      expect(text).toContain('dpo@shop.example');
      expect(text).toContain('Data Protection Board of India');
      expect(text).toContain('What withdrawing means');
      expect(await axeViolations(page)).toEqual([]);

      await page.click('label[for="mode-some"]');
      await page.click(`label[for="purpose-${principal.optional}"]`);
      await page.type('#reason', 'Too many offers');
      await page.click('button[type="submit"]');
      await waitForHeading(page, 'Your withdrawal is recorded');
      const withdrawalId = await page.$eval('#withdrawal-id', (element) => element.textContent ?? '');
      expect(await pageText(page)).toMatch(/Purposes withdrawn\s*Marketing/);
      expect(await axeViolations(page)).toEqual([]);

      const status = await statusOf(principal.tenant.token, principal.email);
      expect(status).toMatchObject({ isWithdrawn: false, isPartiallyWithdrawn: true, withdrawnPurposes: [principal.optional] });
      const tasks = (await call('GET', '/api/v1/compliance-tasks', { token: principal.tenant.token })).body.data;
      expect(tasks.map((task: { withdrawalId: string }) => task.withdrawalId)).toEqual([withdrawalId]);
      // The DPO's task names the purpose as the DPO knows it, not by its id (issue 37, defect 6).
      expect(tasks[0].description).toContain('Marketing');
      expect(tasks[0].description).not.toContain(principal.optional);

      // The same link again: its own page, not the form.
      await page.reload({ waitUntil: 'load' });
      await waitForHeading(page, 'This link has already been used');
      expect(await pageText(page)).toContain('Used on');
      expect(await page.$eval('main a', (element) => element.getAttribute('href'))).toBe(`${state.baseUrl}/portal/t/${principal.tenant.slug}`);
      expect(await axeViolations(page)).toEqual([]);
      const used = await call('GET', `/api/v1/consent/portal/${token}`);
      expect(used.status).toBe(409);
      expect(used.body.error).toMatchObject({
        code: 'CONFLICT',
        details: { reason: 'USED', tenant: { slug: principal.tenant.slug }, newLinkUrl: `${state.baseUrl}/portal/t/${principal.tenant.slug}`, usedAt: expect.any(String) },
      });
    } finally {
      await page.close();
    }
  });

  it("counts her visit as activity at a person's first gesture on the page, never at its opening", async () => {
    const principal = await consentingPrincipal();
    const { portalUrl } = await withdrawalLink(principal);
    const page = await open(portalUrl);
    try {
      expect(await heading(page)).toBe('Withdraw your consent');
      // Opened and shown (as a mail scanner's browser would): no visit.
      await page.waitForNetworkIdle({ idleTime: 300 });
      expect(await lastActivityOf(principal.tenant.tenantId, sha256(principal.email))).toBeNull();
      await page.keyboard.press('Tab');
      await waitFor(() => lastActivityOf(principal.tenant.tenantId, sha256(principal.email)).then((at) => at ?? undefined));
    } finally {
      await page.close();
    }
  });

  it('withdraws everything with the keyboard alone', async () => {
    const principal = await consentingPrincipal();
    const { portalUrl } = await withdrawalLink(principal);
    const page = await open(portalUrl);
    try {
      // Focus starts on the heading; Tab reaches the button through the choices and the reason.
      const focusedIs = (selector: string) =>
        page.evaluate((wanted) => {
          const doc = (globalThis as unknown as { document: { activeElement: unknown; querySelector(s: string): unknown } }).document;
          return doc.activeElement === doc.querySelector(wanted);
        }, selector);
      let tabs = 0;
      while (!(await focusedIs('button[type="submit"]')) && tabs < 15) {
        await page.keyboard.press('Tab');
        tabs += 1;
      }
      expect(await focusedIs('button[type="submit"]')).toBe(true);
      await page.keyboard.press('Enter');
      await waitForHeading(page, 'Your withdrawal is recorded');
      expect(await pageText(page)).toMatch(/Purposes withdrawn\s*All purposes/);
      expect(await statusOf(principal.tenant.token, principal.email)).toMatchObject({ isWithdrawn: true });
    } finally {
      await page.close();
    }
  });

  it('switches language over the notice languages, right to left for Urdu', async () => {
    const principal = await consentingPrincipal();
    await reviewWords(call, principal.tenant.token, 'HI', hindiWords);
    const { portalUrl } = await withdrawalLink(principal);
    const page = await open(portalUrl, ['hi-IN', 'en']);
    try {
      // The browser's language picks Hindi: chrome and notice text in Hindi.
      expect(await page.$eval('html', (element) => [element.getAttribute('lang'), element.getAttribute('dir')])).toEqual(['hi', 'ltr']);
      expect(await heading(page)).toBe('अपनी सहमति वापस लें');
      expect(await pageText(page)).toContain('गोपनीयता सूचना');
      const options = await page.$$eval('#language option', (elements) => elements.map((element) => element.getAttribute('value')));
      expect(options).toEqual(['EN', 'HI', 'UR']);

      await page.select('#language', 'UR');
      expect(await page.$eval('html', (element) => [element.getAttribute('lang'), element.getAttribute('dir')])).toEqual(['ur', 'rtl']);
      const text = await pageText(page);
      expect(text).toContain('رازداری کا نوٹس');
      expect(text).toContain('مارکیٹنگ');
      // No Urdu words of the tenant's: the service's Urdu, right to left.
      const urdu = (await readBuiltIn('UR'))!.words;
      await waitForHeading(page, urdu['portal.pageTitle']!);
      expect(await page.$$('h1 [lang]')).toHaveLength(0);
      expect(await axeViolations(page)).toEqual([]);

      // Under "English until reviewed": English, label by label, each marked as English (left to right inside the Urdu page).
      await showUnreviewed(call, principal.tenant.token, 'ENGLISH');
      await page.reload({ waitUntil: 'load' });
      await page.waitForSelector('#language');
      await page.select('#language', 'UR');
      await waitForHeading(page, 'Withdraw your consent');
      expect(await page.$eval('h1 span', (element) => [element.getAttribute('lang'), element.getAttribute('dir')])).toEqual(['en', 'ltr']);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('gives expired and unknown links their own pages', async () => {
    const principal = await consentingPrincipal();
    const { portalUrl } = await withdrawalLink(principal);
    setClock(offsetClock(7 * 86_400_000 + 1_000));
    const expired = await open(portalUrl);
    try {
      expect(await heading(expired)).toBe('This link has expired');
      expect(await pageText(expired)).toContain('work for 7 days');
      expect(await axeViolations(expired)).toEqual([]);
      // On to the tenant's public page for a new link.
      await Promise.all([expired.waitForNavigation(), expired.click('main a')]);
      await waitForHeading(expired, 'Withdraw consent given to this organisation');
      expect(expired.url()).toBe(`${state.baseUrl}/portal/t/${principal.tenant.slug}`);
    } finally {
      await expired.close();
    }
    const unknown = await open(`${state.baseUrl}/portal/${'x'.repeat(43)}`);
    try {
      expect(await heading(unknown)).toBe('This link is not valid');
    } finally {
      await unknown.close();
    }
  });

  it('runs under its own Content-Security-Policy without a violation', async () => {
    const principal = await consentingPrincipal();
    const { portalUrl } = await withdrawalLink(principal);
    const page = await open(portalUrl, undefined, { enforceCsp: true });
    try {
      expect(await heading(page)).toBe('Withdraw your consent');
      await page.click('label[for="mode-some"]');
      expect(await cspViolationsOf(page)).toEqual([]);
      // The collector works: an inline script is refused and reported.
      await page.addScriptTag({ content: 'void 0' }).catch(() => undefined);
      await page.waitForFunction(() => ((globalThis as unknown as { cspViolations: string[] }).cspViolations.length > 0), { timeout: 5_000 });
      // Reported once per policy that refuses it: the header's and the page's meta tag.
      const violations = await cspViolationsOf(page);
      expect(new Set(violations)).toEqual(new Set(['script-src-elem']));
    } finally {
      await page.close();
    }
  });

  it('is served no-store, without referrer and not indexed, on every portal path', async () => {
    for (const path of [`/portal/${'x'.repeat(43)}`, '/portal/t/some-shop', `/portal/r/${'x'.repeat(43)}`, '/portal/app.js', '/portal/portal.css']) {
      const response = await fetch(`${state.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('no-store');
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(response.headers.get('x-robots-tag'), path).toBe('noindex');
      expect(response.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
    }
  });
});

const requestLink = (tenantSlug: string, email: string, ip?: string) =>
  call('POST', '/api/v1/consent/portal-link', { body: { tenantSlug, email }, ...(ip ? { ip } : {}) });

describe('public withdrawal page /portal/t/<slug>', () => {
  it('mails a working link to a consenting email, and answers a stranger the same with no mail', async () => {
    const principal = await consentingPrincipal();
    const stranger = uniqueEmail('stranger');
    const ask = async (email: string) => {
      const page = await open(`${state.baseUrl}/portal/t/${principal.tenant.slug}`);
      try {
        expect(await heading(page)).toBe('Withdraw consent given to this organisation');
        expect(await axeViolations(page)).toEqual([]);
        await page.type('#email', email);
        await page.click('button[type="submit"]');
        await waitForHeading(page, 'Check your email');
        expect(await axeViolations(page)).toEqual([]);
        return (await pageText(page)).replace(email, '<email>');
      } finally {
        await page.close();
      }
    };
    expect(await ask(principal.email)).toBe(await ask(stranger));

    const mails = await mailsTo(principal.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('your link to withdraw consent');
    const link = mails[0]!.body.text?.match(/http:\/\/127\.0\.0\.1:\d+\/portal\/[A-Za-z0-9_-]+/)?.[0];
    expect(link).toBeDefined();
    expect(await mailsTo(stranger)).toEqual([]);

    const page = await open(link!);
    try {
      expect(await heading(page)).toBe('Withdraw your consent');
      expect(await pageText(page)).toMatch(/Marketing\s*Consent given/);
    } finally {
      await page.close();
    }
  });

  it('speaks Hindi when asked, and says so when an address is malformed', async () => {
    const tenant = await newTenant(call);
    await reviewWords(call, tenant.token, 'HI', hindiWords);
    const page = await open(`${state.baseUrl}/portal/t/${tenant.slug}`);
    try {
      // Every scheduled language is offered: the tenant's reviewed Hindi, the service's words in the others.
      const offered = await page.$$eval('#language option', (elements) => elements.map((element) => element.getAttribute('value')));
      expect([offered.length, offered[0], offered.includes('HI')]).toEqual([23, 'EN', true]);
      await page.select('#language', 'HI');
      await waitForHeading(page, 'इस संगठन को दी गई सहमति वापस लें');
      expect(await page.$eval('html', (element) => element.getAttribute('lang'))).toBe('hi');
      await page.type('#email', 'not-an-address');
      await page.click('button[type="submit"]');
      await page.waitForSelector('#email-error');
      expect(await page.$eval('#email-error', (element) => element.textContent)).toContain('ईमेल पता दर्ज करें');
      expect(await page.$eval('#email', (element) => element.getAttribute('aria-invalid'))).toBe('true');
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("speaks the language a link asks for (?lang=) over the browser's, and the browser's own without one, on a fresh tenant", async () => {
    const tenant = await newTenant(call);
    const linked = await open(`${state.baseUrl}/portal/t/${tenant.slug}?lang=ta`, ['en-US', 'en']);
    try {
      await waitForHeading(linked, 'இந்த நிறுவனத்துக்கு அளித்த ஒப்புதலைத் திரும்பப் பெறுங்கள்');
      expect(await linked.$eval('html', (element) => element.getAttribute('lang'))).toBe('ta');
      expect(await axeViolations(linked)).toEqual([]);
    } finally {
      await linked.close();
    }
    const urdu = await open(`${state.baseUrl}/portal/t/${tenant.slug}`, ['ur-IN', 'en']);
    try {
      await waitForHeading(urdu, 'اس ادارے کو دی گئی رضامندی واپس لیں');
      expect(await urdu.$eval('html', (element) => [element.getAttribute('lang'), element.getAttribute('dir')])).toEqual(['ur', 'rtl']);
      expect(await axeViolations(urdu)).toEqual([]);
    } finally {
      await urdu.close();
    }
  });

  it('answers 202 alike over the API, 404 for an unknown tenant, and limits per address and per IP', async () => {
    // At the start of an hour, so the hourly windows do not roll over mid-test.
    setClock(offsetClock(hour - (Date.now() % hour) + 1_000));
    const principal = await consentingPrincipal();
    const known = await requestLink(principal.tenant.slug, principal.email);
    const unknown = await requestLink(principal.tenant.slug, uniqueEmail('nobody'));
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(known.body).toEqual(unknown.body);
    expect((await requestLink('no-such-tenant-here', principal.email)).status).toBe(404);

    // Per address: 3 an hour whichever IPs ask (the first request above was one).
    const perAddress = [];
    for (let i = 0; i < 3; i += 1) perAddress.push((await requestLink(principal.tenant.slug, principal.email)).status);
    expect(perAddress).toEqual([202, 202, 429]);
    expect((await mailsTo(principal.email)).length).toBe(3);

    // Per IP: 10 an hour whatever addresses it asks for.
    const ip = '203.0.113.77';
    const perIp = [];
    for (let i = 0; i < 11; i += 1) perIp.push((await requestLink(principal.tenant.slug, uniqueEmail('many'), ip)).status);
    expect(perIp).toEqual([...Array(10).fill(202), 429]);
    const limited = await requestLink(principal.tenant.slug, uniqueEmail('many'), ip);
    expect(limited.body.error.code).toBe('RATE_LIMIT');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it("is the public notice's withdrawal route when the notice names none", async () => {
    const principal = await consentingPrincipal({ withdrawalUrl: undefined });
    const apiKey = await principal.tenant.apiKey();
    const publicNotice = await call('GET', `/api/v1/consent/public-notice?apiKey=${apiKey}`, { headers: { origin: 'https://shop.example' } });
    expect(publicNotice.status).toBe(200);
    expect(publicNotice.body.data.withdrawalUrl).toBe(`${state.baseUrl}/portal/t/${principal.tenant.slug}`);
  });
});

