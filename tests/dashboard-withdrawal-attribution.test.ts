import { describe, expect, it } from 'vitest';
import { newTenant, uniqueEmail, useApi } from './support/api';
import { useBrowser } from './support/browser';
import { publishedNotice, recordConsent } from './support/consent';
import { aria, click, expectNoAxeViolations, go, textOf, useDashboardTabs, waitForH1, waitForText } from './support/dashboard';

/**
 * What the dashboard says of a withdrawal by email at the public endpoint (an unverified claim,
 * with its origin), on the Withdrawals screen and the record's page, and the consent settings
 * screen's trade-off, its recommendation and the logged changes; axe-core on each.
 */
const { call, state } = useApi();
const { browser } = useBrowser();
const { signedInTab } = useDashboardTabs(browser, () => state.baseUrl);

describe('the dashboard on public withdrawals by email', () => {
  it('marks such a withdrawal unverified, with its origin, on the withdrawals screen and the record', async () => {
    process.env.WITHDRAW_PUBLIC_MIN_MS = '0';
    const tenant = await newTenant(call);
    const notice = await publishedNotice(call, tenant.token);
    const email = uniqueEmail('principal');
    const recorded = await recordConsent(call, tenant.token, { noticeId: notice.noticeId, dataPrincipalIdentifier: email, consentGiven: { [notice.required]: true } });
    const withdrawn = await call('POST', '/api/v1/consent/withdraw-public', { ip: '203.0.113.92', headers: { origin: 'https://shop.example' }, body: { apiKey: await tenant.apiKey(), email } });
    delete process.env.WITHDRAW_PUBLIC_MIN_MS;
    expect(withdrawn.body.data.withdrawnCount).toBe(1);

    const page = await signedInTab(tenant.adminEmail);
    await go(page, 'Withdrawals');
    await waitForText(page, 'Unverified');
    const tasks = await textOf(page);
    expect(tasks).toContain('Made through the public withdrawal API, with an email address.');
    expect(tasks).toContain('nobody checked that they are the person (origin https://shop.example');
    await expectNoAxeViolations(page);

    await page.goto(`${state.baseUrl}/dashboard/records/${recorded.body.data.consentRecordId}`, { waitUntil: 'load' });
    await waitForH1(page, 'Consent record');
    await waitForText(page, 'Withdrawal');
    expect(await textOf(page, '#withdrawal')).toContain('through the public withdrawal API');
    expect(await textOf(page, '#withdrawal-attribution')).toMatch(/^Unverified Someone sent this email address to the public withdrawal endpoint/);
    await expectNoAxeViolations(page);
  });

  it('explains the trade-off on the consent settings screen, recommends confirming by email, and lists the logged change', async () => {
    const tenant = await newTenant(call);
    const page = await signedInTab(tenant.adminEmail);
    await go(page, 'Consent settings');
    await waitForText(page, 'No changes yet');
    const text = await textOf(page);
    expect(text).toContain('anyone who knows a person\'s email can withdraw that person\'s consent');
    expect(text).toContain('We recommend confirming by email.');
    await click(page, aria('Confirm by email first (recommended)', 'radio'));
    await click(page, aria('Save settings', 'button'));
    await waitForText(page, 'Withdrawal by email through the public API: Withdraw at once → Confirm by email first (recommended)');
    expect((await call('GET', '/api/v1/consent/settings', { token: tenant.token })).body.data.publicWithdrawal).toBe('CONFIRM_BY_EMAIL');
    await expectNoAxeViolations(page);
  });
});
