import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newTenant, useApi } from './support/api';
import { useBrowser } from './support/browser';
import { aria, click, expectNoAxeViolations, fill, go, useDashboardTabs, waitForText } from './support/dashboard';
import { createNotice, createPurpose } from './support/notices';

/**
 * The Retention screen in headless Chromium: the Third Schedule class and the hours of notice,
 * each purpose's retention in the notice's words and edited in place, a Third Schedule refusal
 * shown beside the field; axe-core on every state. (The lists of erasures ahead and erasure tasks
 * come from routes built beside this screen: their cases join this file once those are merged.)
 */
const { call, state } = useApi();
const { browser } = useBrowser();
const { signedInTab } = useDashboardTabs(browser, () => state.baseUrl);

let tenant: Awaited<ReturnType<typeof newTenant>>;
let admin: Page;
let offers: string;

beforeAll(async () => {
  tenant = await newTenant(call);
  offers = await createPurpose(call, tenant.token, { name: 'Offers', dataCategories: ['email'], retention: { period: 'P3Y', from: 'LAST_ACTIVITY' } });
  await createPurpose(call, tenant.token, { name: 'Account', dataCategories: ['email'] });
  admin = await signedInTab(tenant.adminEmail);
});

const purposeRow = (name: string) => admin.$$eval('table tr', (rows, wanted) => rows.map((row) => (row as unknown as { innerText: string }).innerText).find((text) => text.startsWith(wanted)) ?? '', name);

describe('the Retention screen', () => {
  it('shows each purpose’s retention in the notice’s words, and sets the Third Schedule class and the notice', async () => {
    await go(admin, 'Retention', 'Retention and erasure');
    expect(await purposeRow('Offers')).toContain('Kept for 3 years after your last activity.');
    expect(await purposeRow('Account')).toContain('No retention set');
    await expectNoAxeViolations(admin);

    await admin.select('#third-schedule-class', 'ECOMMERCE');
    await fill(admin, '#notice-hours', '24');
    await click(admin, aria('Save settings', 'button'));
    // Less than the schedule's 48 hours is refused, named beside its field; nothing is saved.
    await waitForText(admin, 'at least 48 for a Third Schedule tenant');
    expect(await admin.$eval('#notice-hours', (element) => [element.getAttribute('aria-invalid'), element.getAttribute('aria-describedby')])).toEqual(['true', 'notice-hours-hint notice-hours-error']);
    expect((await call('GET', '/api/v1/retention/settings', { token: tenant.token })).body.data).toMatchObject({ thirdScheduleClass: null, noticeHours: 0 });
    await expectNoAxeViolations(admin);

    await fill(admin, '#notice-hours', '72');
    await click(admin, aria('Save settings', 'button'));
    await waitForText(admin, 'Settings saved: principals are told 72 hours before an erasure.');
    expect((await call('GET', '/api/v1/retention/settings', { token: tenant.token })).body.data).toMatchObject({ thirdScheduleClass: 'ECOMMERCE', noticeHours: 72 });
  });

  it('edits a purpose’s retention in place, and shows a Third Schedule refusal beside the field', async () => {
    await go(admin, 'Retention', 'Retention and erasure');
    await click(admin, aria('Edit retention of Offers', 'button'));
    await admin.waitForSelector('#edit-period');
    // Five years from her last activity, for a Third Schedule organisation, without an exception: refused, and said so.
    await fill(admin, '#edit-period', 'P5Y');
    await click(admin, aria('Save retention', 'button'));
    await waitForText(admin, 'longer than P3Y from LAST_ACTIVITY', 'dialog');
    expect(await admin.$eval('#edit-period', (element) => (element as unknown as { value: string }).value)).toBe('P5Y');
    await expectNoAxeViolations(admin);
    expect((await call('GET', `/api/v1/purposes/${offers}`, { token: tenant.token })).body.data.retention).toEqual({ period: 'P3Y', from: 'LAST_ACTIVITY' });

    await fill(admin, '#edit-period', 'P1Y6M');
    await admin.select('#edit-from', 'WITHDRAWAL');
    await fill(admin, '#edit-hold', 'Income-tax Act, 1961, s.44AA');
    await click(admin, aria('Save retention', 'button'));
    await waitForText(admin, 'Retention of Offers saved.');
    await waitForText(admin, 'Kept until 1 year and 6 months', 'table');
    expect(await purposeRow('Offers')).toContain(
      'Kept until 1 year and 6 months after you withdraw or refuse consent. Some of it may be kept longer where a law requires it: Income-tax Act, 1961, s.44AA',
    );
    expect((await call('GET', `/api/v1/purposes/${offers}`, { token: tenant.token })).body.data).toMatchObject({
      retention: { period: 'P1Y6M', from: 'WITHDRAWAL', legalHold: 'Income-tax Act, 1961, s.44AA' },
      thirdScheduleException: null,
    });
    await expectNoAxeViolations(admin);
  });

  it('shows each purpose’s retention in notice authoring, and the purpose dialog edits it', async () => {
    const noticeId = await createNotice(call, tenant.token, [offers]);
    await admin.goto(`${state.baseUrl}/dashboard/notices/${noticeId}`);
    await waitForText(admin, 'Kept until 1 year and 6 months after you withdraw or refuse consent.');
    await click(admin, aria('Edit purpose Offers', 'button'));
    await admin.waitForSelector('#purpose-period');
    expect(await admin.$eval('#purpose-period', (element) => (element as unknown as { value: string }).value)).toBe('P1Y6M');
    expect(await admin.$eval('#purpose-from', (element) => (element as unknown as { value: string }).value)).toBe('WITHDRAWAL');
    await expectNoAxeViolations(admin);
  });
});
