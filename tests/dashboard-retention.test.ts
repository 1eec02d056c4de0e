import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newTenant, useApi } from './support/api';
import { useBrowser } from './support/browser';
import { aria, click, expectNoAxeViolations, fill, go, useDashboardTabs, waitForText } from './support/dashboard';
import { createNotice, createPurpose, publish } from './support/notices';
import { recordConsentAndActivity, sweepAhead } from './support/retention';
import { manualSweeps, useTestWorkers } from './support/workers';

/**
 * The Retention screen in headless Chromium: the Third Schedule class and the hours of notice,
 * each purpose's retention in the notice's words and edited in place, a Third Schedule refusal
 * shown beside the field; the days ahead, the principals due and an erasure task resolved asset by
 * asset, after sweeps on the moved clock; axe-core on every state.
 */
const { call, state } = useApi();
// The workers record each consent as her activity (what puts her in the due index); this file runs the sweeps.
useTestWorkers();
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

  it('shows the days ahead, the principals due with their state, and an erasure task whose assets are marked erased one by one', async () => {
    // A tenant of its own: 48 hours' notice, a purpose kept a day after consent and one kept ten days.
    const lists = await newTenant(call);
    manualSweeps.add(lists.tenantId);
    expect((await call('PUT', '/api/v1/retention/settings', { token: lists.token, body: { noticeHours: 48 } })).status).toBe(200);
    const short = await createPurpose(call, lists.token, { name: 'Offers', dataCategories: ['email'], retention: { period: 'P1D', from: 'CONSENT' } });
    const long = await createPurpose(call, lists.token, { name: 'Profile', dataCategories: ['email'], retention: { period: 'P10D', from: 'CONSENT' } });
    const asset = async (name: string) => (await call('POST', '/api/v1/data-assets', { token: lists.token, body: { name, system: `${name} system`, dataCategories: ['email'], purposeIds: [short] } })).body.data.assetId as string;
    const crm = await asset('CRM');
    const mailer = await asset('Mailer');
    const optional = (purposeIds: string[]) => purposeIds.map((purposeId, displayOrder) => ({ purposeId, isRequired: false, displayOrder }));
    const noticeId = await createNotice(call, lists.token, [short, long], { purposeConfig: optional([short, long]) });
    expect((await publish(call, lists.token, noticeId)).status).toBe(200);
    const lapsing = await recordConsentAndActivity(call, lists, { noticeId, dataPrincipalIdentifier: `lapsing-${lists.tenantId}@example.in`, consentGiven: { [short]: true, [long]: false } });
    const kept = await recordConsentAndActivity(call, lists, { noticeId, dataPrincipalIdentifier: `kept-${lists.tenantId}@example.in`, consentGiven: { [short]: false, [long]: true } });

    // Now: the first is told (her erasure moves to 48 hours on), the second scheduled ten days on.
    // Three days on: the first's consent to Offers lapses, in one run whose task lists CRM and Mailer.
    await sweepAhead(lists.tenantId, 0);
    await sweepAhead(lists.tenantId, 3 * 86_400_000);

    const tab = await signedInTab(lists.adminEmail);
    await go(tab, 'Retention', 'Retention and erasure');
    // The days ahead (30 from now): one notice sent, two erasures due, one lapse, no cancellation.
    const columnTotals = await tab.$$eval('#upcoming-heading ~ table:first-of-type tbody tr', (rows) =>
      rows.reduce((sums, row) => [...row.querySelectorAll('td')].slice(1).map((cell, index) => sums[index]! + Number((cell as unknown as { innerText: string }).innerText)), [0, 0, 0, 0]),
    );
    expect(columnTotals).toEqual([2, 1, 0, 1]);
    // The principals due, soonest first, with their purposes and state.
    const dueRows = await tab.$$eval('#upcoming-heading ~ table:nth-of-type(2) tbody tr', (rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => (cell as unknown as { innerText: string }).innerText)));
    expect(dueRows.map((cells) => [cells[0], cells[1], cells[3] !== '—', cells[4]])).toEqual([
      [`${lapsing.slice(0, 12)}…`, 'Offers', true, 'Consent lapsed'],
      [`${kept.slice(0, 12)}…`, 'Profile', false, 'Scheduled'],
    ]);
    // The erasure task: one principal, Offers, both assets still to erase.
    const [task] = (await call('GET', '/api/v1/retention/erasures', { token: lists.token })).body.data.items;
    expect(task).toMatchObject({ principalCount: 1, purposeIds: [short], state: 'OPEN' });
    await waitForText(tab, '1 principals, Offers', `#task-${task.id}`);
    // Each asset's line as read out (its button's name with the hidden asset name).
    const assetLines = () => tab.$$eval(`article[aria-labelledby="task-${task.id}"] li`, (items) => items.map((item) => (item.textContent ?? '').replace(/\s+/g, ' ').trim()));
    expect(await assetLines()).toEqual(['CRM (CRM system): Mark erased CRM', 'Mailer (Mailer system): Mark erased Mailer']);
    await expectNoAxeViolations(tab);

    await click(tab, aria('Mark erased CRM', 'button'));
    await tab.waitForSelector('#resolve-note');
    await fill(tab, '#resolve-note', 'Rows deleted');
    await expectNoAxeViolations(tab);
    await click(tab, `dialog ${aria('Mark erased', 'button')}`);
    await waitForText(tab, 'CRM marked erased.');
    await waitForText(tab, 'Rows deleted', `article[aria-labelledby="task-${task.id}"] ul`);
    const [crmLine, mailerLine] = await assetLines();
    expect(crmLine).toMatch(/^CRM \(CRM system\): erased .+ by user:.+: Rows deleted$/);
    expect(mailerLine).toBe('Mailer (Mailer system): Mark erased Mailer');
    // The API says so: CRM resolved with the note, Mailer not, the task still open.
    const after = (await call('GET', `/api/v1/retention/erasures/${task.id}`, { token: lists.token })).body.data;
    expect(after).toMatchObject({ state: 'OPEN' });
    expect(after.assets.find((entry: { assetId: string }) => entry.assetId === crm)).toMatchObject({ resolved: true, note: 'Rows deleted' });
    expect(after.assets.find((entry: { assetId: string }) => entry.assetId === mailer)).toMatchObject({ resolved: false });
    await expectNoAxeViolations(tab);
  });
});

