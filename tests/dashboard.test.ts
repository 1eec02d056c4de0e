import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../shared/tenants/service';
import { newTenant, password, uniqueEmail, useApi } from './support/api';
import { axeViolations, collectCspViolations, cspViolationsOf, useBrowser } from './support/browser';
import { publishedNotice, recordConsent } from './support/consent';
import { waitForLog } from './support/evidence';
import { startTestWorkers } from './support/workers';

/**
 * The DPO dashboard in real headless Chromium against the local server, driven through the
 * accessible names the issue fixes: sign in, every screen (axe-core on each), records found by
 * email with their proof verified in the browser, withdrawal links and tasks, API keys, the
 * VIEWER's read-only screens, keyboard use, sign out.
 */
const { call, state } = useApi();
const { browser } = useBrowser();
let workers: ReturnType<typeof startTestWorkers>;

type Tenant = Awaited<ReturnType<typeof newTenant>>;
let tenant: Tenant;
let noticeId: string;
let principal: string;
let recordId: string;
let viewerEmail: string;
let page: Page;

const aria = (name: string, role: string) => `::-p-aria([name="${name}"][role="${role}"])`;
const mainText = (target: Page) => target.$eval('main', (element) => (element as unknown as { innerText: string }).innerText);
const waitForH1 = (target: Page, text: string) =>
  target.waitForFunction((expected) => (globalThis as any).document.querySelector('h1')?.textContent === expected, { timeout: 15_000 }, text);
const expectNoAxeViolations = async (target: Page) => expect(await axeViolations(target)).toEqual([]);

const openDashboard = async (path = '/dashboard/') => {
  const opened = await browser().newPage();
  // axe is injected as an inline script, which the dashboard's policy refuses (the CSP test runs without this).
  await opened.setBypassCSP(true);
  await opened.goto(`${state.baseUrl}${path}`, { waitUntil: 'load' });
  return opened;
};

const signIn = async (target: Page, email: string, secret: string) => {
  await target.waitForSelector(aria('Email', 'textbox'));
  const emailBox = await target.$(aria('Email', 'textbox'));
  await emailBox!.click({ clickCount: 3 });
  await emailBox!.type(email);
  const passwordBox = await target.$('#password');
  await passwordBox!.click({ clickCount: 3 });
  await passwordBox!.type(secret);
  await (await target.$(aria('Sign in', 'button')))!.click();
};

const go = async (target: Page, link: string, heading = link) => {
  await (await target.waitForSelector(`nav ${aria(link, 'link')}`))!.click();
  await waitForH1(target, heading);
};

beforeAll(async () => {
  process.env.PORTAL_BASE_URL = `${state.baseUrl}/portal`;
  // The walk through every screen makes more than one user's share of 100 a minute (rate limits have their own tests).
  process.env.RATE_LIMIT_BEARER_PER_MINUTE = '100000';
  workers = startTestWorkers();
  tenant = await newTenant(call);
  const notice = await publishedNotice(call, tenant.token);
  noticeId = notice.noticeId;
  const consentGiven = { [notice.required]: true, [notice.optional]: true };
  principal = uniqueEmail('principal');
  const recorded = await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: principal, consentGiven });
  expect(recorded.status).toBe(201);
  recordId = recorded.body.data.consentRecordId;
  // A second principal withdraws, so there is a compliance task to mark done.
  const other = uniqueEmail('withdrawer');
  expect((await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: other, consentGiven })).status).toBe(201);
  expect((await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: other, noticeId } })).status).toBe(200);
  // Two records and a withdrawal, counted and covered by a signed checkpoint.
  await waitForLog(tenant.tenantId, 3);
  viewerEmail = uniqueEmail('viewer');
  await addUser({ tenantId: tenant.tenantId, email: viewerEmail, password, role: 'VIEWER' });
});

afterAll(async () => {
  delete process.env.RATE_LIMIT_BEARER_PER_MINUTE;
  await page?.close();
  await workers?.stop();
});

describe('dashboard pages from the server', () => {
  it('serves index.html for every client route with a strict CSP, never cached, and hashed files immutable', async () => {
    const index = await fetch(`${state.baseUrl}/dashboard/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toContain('text/html');
    expect(index.headers.get('cache-control')).toBe('no-store');
    const csp = index.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await index.text();
    const deep = await fetch(`${state.baseUrl}/dashboard/records/${recordId}`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(html);
    const script = html.match(/src="(\/dashboard\/[^"]+\.js)"/)?.[1];
    const asset = await fetch(`${state.baseUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${state.baseUrl}/dashboard/chunks/missing-ABCDEFGH.js`)).status).toBe(404);
  });

  it('runs under its own Content-Security-Policy without a violation', async () => {
    const strict = await browser().newPage();
    try {
      await collectCspViolations(strict);
      await strict.goto(`${state.baseUrl}/dashboard/`, { waitUntil: 'load' });
      await signIn(strict, tenant.adminEmail, password);
      await waitForH1(strict, 'Overview');
      await strict.waitForSelector('#total-consents');
      await go(strict, 'API keys');
      expect(await cspViolationsOf(strict)).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe('dashboard as the DPO (SUPER_ADMIN)', () => {
  it('signs in: a wrong password shows the API message and keeps the email; the right one opens the deep link', async () => {
    page = await openDashboard('/dashboard/records');
    await waitForH1(page, 'Sign in');
    await expectNoAxeViolations(page);
    const refused = await call('POST', '/api/v1/auth/login', { body: { email: tenant.adminEmail, password: 'wrong-password-1' } });
    expect(refused.status).toBe(401);
    await signIn(page, tenant.adminEmail, 'wrong-password-1');
    const alert = await page.waitForSelector('[role="alert"]');
    expect(await alert!.evaluate((element) => element.textContent)).toBe(refused.body.error.message);
    expect(await page.$eval('#email', (element) => (element as unknown as { value: string }).value)).toBe(tenant.adminEmail);
    await expectNoAxeViolations(page);
    await signIn(page, tenant.adminEmail, password);
    await waitForH1(page, 'Consent records');
    // Focus moved to the screen's heading.
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.tagName)).toBe('H1');
  });

  it('navigates every link of the nav landmark, each screen axe-clean with its heading focused', async () => {
    const links = ['Overview', 'Notices', 'Consent records', 'Withdrawals', 'Rights requests', 'Data map', 'Breaches', 'Webhooks', 'API keys', 'Consent settings', 'Children', 'Retention', 'Cookie consent', 'Words people see', 'Team'];
    const names = await page.$$eval('nav a', (anchors) => anchors.map((anchor) => anchor.textContent));
    expect(names).toEqual(links);
    // A screen's heading is its link's words, but where the link is short for it.
    const headings: Record<string, string> = { Children: 'Children and lawful guardians', Retention: 'Retention and erasure' };
    for (const link of links) {
      await go(page, link, headings[link] ?? link);
      // Let the screen's data arrive before axe looks at it.
      await page.waitForFunction(() => !(globalThis as any).document.querySelector('main [role="status"].muted')?.textContent?.startsWith('Loading'));
      expect(await page.evaluate(() => (globalThis as any).document.activeElement?.tagName)).toBe('H1');
      expect(await page.$eval(`nav ${aria(link, 'link')}`, (element) => element.getAttribute('aria-current'))).toBe('page');
      await expectNoAxeViolations(page);
    }
    // Back returns to the screen before.
    await page.goBack();
    await waitForH1(page, 'Words people see');
  });

  it('shows the overview figures the API gives, with the daily chart', async () => {
    await go(page, 'Overview');
    await page.waitForSelector('#total-consents');
    const analytics = (await call('GET', '/api/v1/consent/analytics', { token: tenant.token })).body.data;
    expect(analytics).toMatchObject({ totalConsents: 2, consentWithdrawn: 1, withdrawalRate: 50, consentsLast30Days: 2 });
    expect(analytics.daily).toHaveLength(30);
    expect(analytics.daily.at(-1).consents).toBe(2);
    const figure = (id: string) => page.$eval(`#${id}`, (element) => element.textContent);
    expect(await figure('total-consents')).toBe('2');
    expect(await figure('withdrawal-rate')).toBe('50%');
    expect(await figure('consents-30-days')).toBe('2');
    expect(await figure('open-tasks')).toBe('1');
    expect(await figure('overdue-tasks')).toBe('0');
    expect(await figure('cookie-accept-rate')).toMatch(/%|Not configured/);
    expect(await page.$$eval('.chart rect', (bars) => bars.length)).toBe(30);
    await expectNoAxeViolations(page);
  });

  it("finds a record by the principal's email, opens it and verifies its proof in the browser", async () => {
    await go(page, 'Consent records');
    await page.waitForSelector('table.records');
    await page.type('#filter-email', principal);
    await (await page.$(aria('Search', 'button')))!.click();
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('table.records tbody tr').length === 1);
    expect(await mainText(page)).toContain('1 record(s) for that email.');
    // The search keeps what was typed.
    expect(await page.$eval('#filter-email', (element) => (element as unknown as { value: string }).value)).toBe(principal);
    await expectNoAxeViolations(page);
    await (await page.$(`a[href="/dashboard/records/${recordId}"]`))!.click();
    await waitForH1(page, 'Consent record');
    await page.waitForSelector(aria('Verify proof', 'button'));
    expect(await mainText(page)).toContain('Evidence');
    expect(await mainText(page)).toMatch(/Receipt[\s\S]*eyJ/);
    // The attribution, in words: this record was made by the tenant's staff in the dashboard.
    expect(await page.$eval('#attribution', (element) => element.textContent)).toBe(`Verified: a member of your team recorded it in the dashboard: ${tenant.adminEmail} (administrator), as the team list reads now.`);
    await expectNoAxeViolations(page);

    // By keyboard: Tab to the button, Enter.
    let found = false;
    for (let index = 0; index < 40 && !found; index++) {
      await page.keyboard.press('Tab');
      found = await page.evaluate(() => (globalThis as any).document.activeElement?.textContent === 'Verify proof');
    }
    expect(found).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /The proof (holds|does not hold)/.test((globalThis as any).document.querySelector('#verify-result')?.textContent ?? ''), { timeout: 15_000 });
    const result = await page.$eval('#verify-result', (element) => (element as unknown as { innerText: string }).innerText);
    expect(result).toContain('The proof holds.');
    expect(result).toContain('signature verifies with the published key');
    expect(result).not.toContain('Failed');
    await expectNoAxeViolations(page);
  });

  it('creates a withdrawal link and marks a compliance task done', async () => {
    await go(page, 'Withdrawals');
    await page.waitForSelector(aria('Create withdrawal link', 'button'));
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('#link-notice option').length === 1);
    await page.type('#link-identifier', principal);
    await (await page.$(aria('Create withdrawal link', 'button')))!.click();
    const link = await page.waitForSelector('#portal-url');
    const portalUrl = await link!.evaluate((element) => element.getAttribute('href'));
    expect(portalUrl).toMatch(new RegExp(`^${state.baseUrl}/portal/[\\w-]{20,}$`));
    // The link works: the portal's API knows its token.
    expect((await call('GET', `/api/v1/consent/portal/${portalUrl!.split('/').pop()}`)).status).toBe(200);
    await expectNoAxeViolations(page);

    const tasks = (await call('GET', '/api/v1/compliance-tasks', { token: tenant.token })).body.data;
    expect(tasks).toHaveLength(1);
    expect(await mainText(page)).toContain(tasks[0].description);
    const done = await page.waitForSelector('tbody button');
    expect(await done!.evaluate((element) => (element.textContent ?? '').startsWith('Mark done'))).toBe(true);
    await done!.click();
    await page.waitForFunction(() => [...(globalThis as any).document.querySelectorAll('tbody .badge')].some((badge: any) => badge.textContent === 'Done'));
    const after = (await call('GET', '/api/v1/compliance-tasks', { token: tenant.token })).body.data;
    expect(after[0]).toMatchObject({ status: 'DONE' });
    expect(await page.$$('tbody button')).toHaveLength(0);
    // The focus moved to the task's new status.
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe('Done');
    await expectNoAxeViolations(page);
  });

  it('creates an API key, shows it once with the embed snippet for this key and tenant, and revokes it', async () => {
    await go(page, 'API keys');
    const create = await page.waitForSelector(aria('Create publishable key', 'button'));
    await create!.click();
    await page.waitForSelector('dialog[open]');
    const key = await page.$eval('#new-key', (element) => (element as unknown as { value: string }).value);
    expect(key).toMatch(/^cms_/);
    const snippet = await page.$eval('#new-key-snippet', (element) => (element as unknown as { value: string }).value);
    expect(snippet).toBe(
      `<script src="${state.baseUrl}/widget/v1/cms.js" data-api-key="${key}" data-tenant-id="${tenant.tenantId}" data-api-base="${state.baseUrl}/api/v1" async></script>`,
    );
    // The key works.
    expect((await call('GET', `/api/v1/consent/public-notice?apiKey=${encodeURIComponent(key)}`)).status).toBe(200);
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !(globalThis as any).document.querySelector('dialog[open]'));
    // Focus returns to the button that opened the dialog (the browser restores it as the dialog closes, a task after Escape).
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.textContent === 'Create publishable key', { timeout: 2000 });

    // An allowed domain for the new key, then revoke it.
    const keys = (await call('GET', '/api/v1/api-keys', { token: tenant.token })).body.data;
    expect(keys.filter((item: { revokedAt: string | null }) => item.revokedAt === null)).toHaveLength(1);
    await page.waitForSelector(`#domain-${keys[0].keyId}`);
    await page.type(`#domain-${keys[0].keyId}`, 'shop.example.com');
    await (await page.$$(aria('Add domain', 'button')))[0]!.click();
    await page.waitForFunction(() => (globalThis as any).document.querySelector('.domains code')?.textContent === 'shop.example.com');
    const revoke = await page.$$('.card > button.danger');
    expect(revoke.length).toBeGreaterThan(0);
    await revoke[0]!.click();
    await page.waitForSelector('dialog[open]');
    await (await page.$(`dialog ${aria('Revoke key', 'button')}`))!.click();
    await page.waitForFunction(() => [...(globalThis as any).document.querySelectorAll('.badge')].some((badge: any) => badge.textContent === 'Revoked'));
    const revoked = (await call('GET', '/api/v1/api-keys', { token: tenant.token })).body.data.find((item: { keyId: string }) => item.keyId === keys[0].keyId);
    expect(revoked.revokedAt).not.toBeNull();
    await expectNoAxeViolations(page);
  });

  it('creates a secret key, shown once with the warning that it must never be in a page, and lists its kind', async () => {
    await go(page, 'API keys');
    await (await page.waitForSelector(aria('Create secret key', 'button')))!.click();
    await page.waitForSelector('dialog[open]');
    expect(await page.$eval('dialog h2', (element) => element.textContent)).toBe('Your new secret key');
    const key = await page.$eval('#new-key', (element) => (element as unknown as { value: string }).value);
    expect(key).toMatch(/^cms_sk_/);
    const dialogText = await page.$eval('dialog', (element) => (element as unknown as { innerText: string }).innerText);
    expect(dialogText).toContain('Never put it in a web page');
    // No embed snippet: a secret key has no place in a page.
    expect(await page.$('#new-key-snippet')).toBeNull();
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !(globalThis as any).document.querySelector('dialog[open]'));
    await page.waitForFunction(() => [...(globalThis as any).document.querySelectorAll('.card .badge')].some((badge: any) => badge.textContent === 'Secret'));
    const listed = (await call('GET', '/api/v1/api-keys', { token: tenant.token })).body.data;
    expect(listed.find((item: { kind: string; revokedAt: string | null }) => item.kind === 'secret' && item.revokedAt === null)).toBeDefined();
    await expectNoAxeViolations(page);
  });

  it('changes the consent settings, which the API then reports', async () => {
    await go(page, 'Consent settings');
    await page.waitForSelector(aria('Save settings', 'button'));
    await expectNoAxeViolations(page);
    await (await page.$(aria('Record only verified identities', 'checkbox')))!.click();
    await (await page.$(aria('Confirm by email first (recommended)', 'radio')))!.click();
    await (await page.$(aria('Save settings', 'button')))!.click();
    await page.waitForFunction(() => ((globalThis as any).document.querySelector('main [role="status"]')?.textContent ?? '').startsWith('Settings saved'));
    expect((await call('GET', '/api/v1/consent/settings', { token: tenant.token })).body.data).toMatchObject({ requireVerifiedIdentity: true, publicWithdrawal: 'CONFIRM_BY_EMAIL' });
    await expectNoAxeViolations(page);
    // Back to the defaults, for the tests after this one.
    expect((await call('PUT', '/api/v1/consent/settings', { token: tenant.token, body: { requireVerifiedIdentity: false, publicWithdrawal: 'IMMEDIATE' } })).status).toBe(200);
  });

  it('reaches the main actions with the keyboard alone', async () => {
    await go(page, 'Withdrawals');
    await page.waitForSelector(aria('Create withdrawal link', 'button'));
    await page.evaluate(() => (globalThis as any).document.activeElement?.blur());
    // Tab through the page (its task list grows with earlier tests' withdrawals, each row a "Mark done"
    // before the link form) until every main action was focused, or the focus went round the page.
    const wanted = ['Skip to main content', 'Sign out', 'Overview', 'Consent records', 'API keys', 'Team', 'Create withdrawal link'];
    const reached = new Set<string>();
    for (let index = 0; index < 200 && !wanted.every((name) => reached.has(name)); index++) {
      await page.keyboard.press('Tab');
      reached.add(await page.evaluate(() => ((globalThis as any).document.activeElement?.textContent ?? '').trim()));
    }
    for (const name of wanted) {
      expect([...reached]).toContain(name);
    }
    // A nav link by keyboard: focus it, Enter, and the heading of the screen takes the focus.
    await page.focus(`nav a[href="/dashboard/api-keys"]`);
    await page.keyboard.press('Enter');
    await waitForH1(page, 'API keys');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.tagName)).toBe('H1');
  });

  it('signs out: the login is revoked on the server, and the sign-in form shows, also after a reload', async () => {
    const refreshToken = await page.evaluate(() => (globalThis as any).sessionStorage.getItem('cms-dashboard-refresh') as string);
    expect(refreshToken).toMatch(/^rt_/);
    const loggedOut = page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/logout'));
    await (await page.$(aria('Sign out', 'button')))!.click();
    await waitForH1(page, 'Sign in');
    expect((await loggedOut).status()).toBe(200);
    expect((await call('POST', '/api/v1/auth/refresh', { body: { refreshToken } })).status).toBe(401);
    await page.reload({ waitUntil: 'load' });
    await waitForH1(page, 'Sign in');
    await expectNoAxeViolations(page);
  });

  it('stays signed in across a reload of the tab (refresh token in sessionStorage), refreshing the access token', async () => {
    const tab = await openDashboard('/dashboard/withdrawals');
    try {
      await signIn(tab, tenant.adminEmail, password);
      await waitForH1(tab, 'Withdrawals');
      await tab.reload({ waitUntil: 'load' });
      await waitForH1(tab, 'Withdrawals');
      await tab.waitForSelector(aria('Create withdrawal link', 'button'));
    } finally {
      await tab.close();
    }
  });
});

describe('dashboard as a VIEWER', () => {
  it('offers no write action on any screen, and every screen is axe-clean', async () => {
    const viewer = await openDashboard('/dashboard/');
    try {
      await signIn(viewer, viewerEmail, password);
      await waitForH1(viewer, 'Overview');
      await viewer.waitForSelector('#total-consents');
      await go(viewer, 'Withdrawals');
      await viewer.waitForFunction(() => !(globalThis as any).document.querySelector('main')?.innerText.includes('Loading'));
      expect(await viewer.$$(aria('Create withdrawal link', 'button'))).toHaveLength(0);
      expect(await mainText(viewer)).not.toContain('Mark done');
      expect(await mainText(viewer)).toContain('Compliance tasks');
      await expectNoAxeViolations(viewer);
      await go(viewer, 'API keys');
      await viewer.waitForSelector('.cards');
      expect(await viewer.$$(aria('Create API key', 'button'))).toHaveLength(0);
      // Copying is the only action offered: no create, revoke, add or remove.
      expect(await viewer.$$eval('main button', (buttons) => buttons.map((button) => button.textContent))).toEqual(['Copy snippet']);
      expect(await viewer.$$('main input:not([readonly])')).toHaveLength(0);
      await expectNoAxeViolations(viewer);
      await go(viewer, 'Consent settings');
      await viewer.waitForSelector('fieldset');
      expect(await viewer.$$(aria('Save settings', 'button'))).toHaveLength(0);
      expect(await viewer.$$eval('main fieldset', (fieldsets) => fieldsets.map((fieldset) => (fieldset as unknown as { disabled: boolean }).disabled))).toEqual([true, true]);
      await expectNoAxeViolations(viewer);
      await go(viewer, 'Consent records');
      await viewer.waitForSelector('table.records');
      await (await viewer.$('table.records a'))!.click();
      await waitForH1(viewer, 'Consent record');
      // Verifying is reading: offered to every role.
      await viewer.waitForSelector(aria('Verify proof', 'button'));
      await expectNoAxeViolations(viewer);
    } finally {
      await viewer.close();
    }
  });
});
