import type { Page } from 'puppeteer-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { newTenant, uniqueEmail, useApi } from './support/api';
import { axeViolations, collectCspViolations, cspViolationsOf, useBrowser } from './support/browser';
import { mailsTo } from './support/mail';
import { mailedLink, mappedPrincipal } from './support/rights';
import { hindiWords, reviewWords } from './support/words';

/**
 * The rights pages in headless Chromium: "Your rights" on the tenant's page (the Rule 14
 * publication and the request form, keyboard only), the request's link (Confirm, status, the
 * answer with the access summary, Hindi), expired and unknown links, under the page's own CSP,
 * axe-core on every view.
 */
const { call, state } = useApi();
const { browser } = useBrowser();

beforeAll(() => {
  process.env.PORTAL_BASE_URL = `${state.baseUrl}/portal`;
  process.env.RIGHTS_INTAKE_MIN_MS = '20';
});
afterEach(() => resetClock());

const text = (page: Page) => page.$eval('main', (element) => (element as unknown as { innerText: string }).innerText);
const heading = (page: Page) => page.$eval('h1', (element) => element.textContent ?? '');
const waitForHeading = (page: Page, wanted: string) =>
  page.waitForFunction((expected) => (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('h1')?.textContent === expected, {}, wanted);
const waitForText = (page: Page, wanted: string) =>
  page.waitForFunction((expected) => ((globalThis as unknown as { document: { querySelector(s: string): { innerText: string } | null } }).document.querySelector('main')?.innerText ?? '').includes(expected), {}, wanted);
const focusedId = (page: Page) => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id ?? '');

const open = async (path: string, languages = ['en-US', 'en']): Promise<Page> => {
  const page = await browser().newPage();
  await collectCspViolations(page);
  await page.evaluateOnNewDocument((preferred) => {
    Object.defineProperty((globalThis as unknown as { navigator: object }).navigator, 'languages', { get: () => preferred });
  }, languages);
  await page.goto(`${state.baseUrl}${path}`, { waitUntil: 'load' });
  await page.waitForFunction(() => !(globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector('#loading'));
  return page;
};

/** axe is injected as an inline script, which the page's policy refuses: check the policy first, then let axe in. */
const accessible = async (page: Page) => {
  expect(await cspViolationsOf(page)).toEqual([]);
  await page.setBypassCSP(true);
  await page.reload({ waitUntil: 'load' });
  await page.waitForFunction(() => !(globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector('#loading'));
  expect(await axeViolations(page)).toEqual([]);
};

describe('"Your rights" on /portal/t/<slug>', () => {
  it('publishes the means and takes a nomination with the keyboard alone, answering "check your email"', async () => {
    const tenant = await newTenant(call);
    expect((await call('PUT', '/api/v1/rights/settings', { token: tenant.token, body: { grievanceResponseDays: 15, identifiersRequired: ['email', 'order number'] } })).status).toBe(200);
    const page = await open(`/portal/t/${tenant.slug}`);
    try {
      await waitForText(page, 'Your rights');
      const shown = await text(page);
      expect(shown).toContain('Requests are answered within 30 days, grievances within 15 days.');
      expect(shown).toContain('needs: email, order number.');
      expect(shown).toContain(tenant.adminEmail);
      expect(shown).toMatch(/A nomination: a person who may exercise your rights/);
      await accessible(page);

      // Keyboard only: Tab to the request type, choose a nomination, fill the form, Enter.
      const email = uniqueEmail('nominator');
      for (let tabs = 0; (await focusedId(page)) !== 'request-type' && tabs < 40; tabs += 1) await page.keyboard.press('Tab');
      expect(await focusedId(page)).toBe('request-type');
      for (let presses = 0; presses < 6; presses += 1) await page.keyboard.press('ArrowDown');
      await page.waitForSelector('#nominee-name');
      expect(await focusedId(page)).toBe('request-type');
      const typeInto = async (id: string, value: string) => {
        for (let tabs = 0; (await focusedId(page)) !== id && tabs < 10; tabs += 1) await page.keyboard.press('Tab');
        expect(await focusedId(page)).toBe(id);
        await page.keyboard.type(value);
      };
      await typeInto('request-email', email);
      await typeInto('request-details', 'Please record my nominee.');
      await typeInto('nominee-name', 'Meera Rao');
      await typeInto('nominee-email', 'meera@example.in');
      await typeInto('nominee-relationship', 'Sister');
      await page.keyboard.press('Enter');
      await waitForHeading(page, 'Check your email');
      expect(await text(page)).toContain(`If ${email} is your address, a link to confirm your request is on its way.`);
      expect(await focusedId(page)).toBe('');
      expect(await cspViolationsOf(page)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);

      const token = await mailedLink(email, /confirm your request/);
      expect(await (await call('GET', `/api/v1/rights/requests/public/${token}`)).body.data).toMatchObject({ type: 'NOMINATION', status: 'UNVERIFIED', nominee: { name: 'Meera Rao', relationship: 'Sister' } });
    } finally {
      await page.close();
    }
  });
});

describe('the request page /portal/r/<token>', () => {
  it('confirms, shows status and due date, then the answer with the access summary, in English and Hindi', async () => {
    const tenant = await newTenant(call);
    await reviewWords(call, tenant.token, 'HI', hindiWords);
    const email = uniqueEmail('asker');
    await mappedPrincipal(call, tenant, email);
    expect((await call('POST', '/api/v1/rights/requests/public', { body: { tenantSlug: tenant.slug, type: 'ACCESS', email, details: 'Everything you hold, please' } })).status).toBe(202);
    const token = await mailedLink(email, /confirm your request/);
    const page = await open(`/portal/r/${token}`);
    try {
      expect(await heading(page)).toBe('Your request');
      expect(await text(page)).toMatch(/Status\s*Waiting for your confirmation/);
      await accessible(page);
      // Keyboard only: Tab to Confirm, Enter.
      for (let tabs = 0; (await focusedId(page)) !== 'confirm' && tabs < 20; tabs += 1) await page.keyboard.press('Tab');
      expect(await focusedId(page)).toBe('confirm');
      await page.keyboard.press('Enter');
      await waitForText(page, 'Received on');
      expect(await text(page)).toMatch(/Status\s*Received/);
      expect(await text(page)).toMatch(/To be answered by\s*.*\(30 days left\)/);
      expect(await axeViolations(page)).toEqual([]);

      const requestId = (await call('GET', `/api/v1/rights/requests/public/${token}`)).body.data.requestId as string;
      expect((await call('POST', `/api/v1/rights/requests/${requestId}/resolve`, { token: tenant.token, body: { outcome: 'FULFILLED', response: 'Here is all we hold.' } })).status).toBe(200);
      await page.reload({ waitUntil: 'load' });
      await waitForText(page, 'Outcome');
      const answer = await text(page);
      expect(answer).toContain('Here is all we hold.');
      expect(answer).toMatch(/Outcome\s*Fulfilled/);
      expect(answer).toContain('Who your data is shared with');
      expect(answer).toContain('Courier Co');
      expect(answer).toContain('Mailer Ltd');
      expect(answer).not.toContain('Cyber cell');
      expect(answer).toMatch(/Delivery\s*Data\s*email, address\s*Held in\s*Orders \(IN\)/);
      expect(answer).toContain(tenant.adminEmail);
      expect(await page.$eval('a[download]', (element) => element.getAttribute('href'))).toMatch(/^blob:/);
      expect(await axeViolations(page)).toEqual([]);

      await page.select('#language', 'HI');
      await waitForHeading(page, 'आपका अनुरोध');
      expect(await page.$eval('html', (element) => element.getAttribute('lang'))).toBe('hi');
      expect(await text(page)).toContain('आपका डेटा किनके साथ साझा होता है');
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('says so for an expired request (with the way to a new one), an unknown link, and a grievance\'s answer with its receipt', async () => {
    const tenant = await newTenant(call);
    const email = uniqueEmail('slow');
    expect((await call('POST', '/api/v1/rights/requests/public', { body: { tenantSlug: tenant.slug, type: 'ERASURE', email, details: 'Erase me' } })).status).toBe(202);
    const token = await mailedLink(email, /confirm your request/);
    setClock(offsetClock(25 * 3_600_000));
    const expired = await open(`/portal/r/${token}`);
    const unknown = await open(`/portal/r/${'x'.repeat(43)}`);
    try {
      expect(await text(expired)).toContain('This request was not confirmed within 24 hours');
      expect(await expired.$eval('main a', (element) => element.getAttribute('href'))).toBe(`/portal/t/${tenant.slug}`);
      await accessible(expired);
      expect(await heading(unknown)).toBe('This link is not valid');
      await accessible(unknown);
    } finally {
      await Promise.all([expired.close(), unknown.close()]);
    }
    resetClock();

    const grieved = uniqueEmail('grieved');
    const logged = await call('POST', '/api/v1/rights/requests', { token: tenant.token, body: { type: 'GRIEVANCE', dataPrincipalIdentifier: grieved, details: 'No answer for weeks', channel: 'EMAIL' } });
    await call('POST', `/api/v1/rights/requests/${logged.body.data.requestId}/resolve`, { token: tenant.token, body: { outcome: 'PARTIALLY_FULFILLED', response: 'Sorry; we have answered now.' } });
    const answerToken = await mailedLink(grieved, /the answer to your request/);
    expect((await mailsTo(grieved)).map((mail) => mail.subject)).toEqual([expect.stringContaining('your request is received'), expect.stringContaining('the answer to your request')]);
    const page = await open(`/portal/r/${answerToken}`);
    try {
      await waitForText(page, 'Outcome');
      expect(await text(page)).toContain('complain to the Data Protection Board of India');
      expect(await page.$eval('#closure-receipt', (element) => element.textContent)).toBe(logged.body.data.closure?.receipt ?? (await call('GET', `/api/v1/rights/requests/${logged.body.data.requestId}`, { token: tenant.token })).body.data.closure.receipt);
      await accessible(page);
    } finally {
      await page.close();
    }
  });
});
