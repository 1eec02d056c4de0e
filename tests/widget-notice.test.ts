import { describe, expect, it } from 'vitest';
import { getRecord } from '../shared/consent/store';
import { newTenant, useApi } from './support/api';
import { axeViolations, collectCspViolations, cspViolationsOf, useBrowser } from './support/browser';
import { portalContentSecurityPolicy } from '../web/build';
import { publishedNotice } from './support/consent';
import { createNotice, createPurpose, englishNotice, publish } from './support/notices';
import { readBuiltIn } from '../shared/words/built-in-words';
import { fillWords } from '../shared/words/fill';
import { configureCookies, clickButton, dialogText, dialogTitles, embedPage, nextEvent, openPage, setSwitch, useFixtureSite } from './support/widget';

const { call, state } = useApi();
const { browser } = useBrowser();
const { serve, freshPage } = useFixtureSite();

/** A tenant with a published notice (one required, one optional purpose) and a page embedding the notice banner only. */
const noticeSite = async (path: string) => {
  const tenant = await newTenant(call);
  const notice = await publishedNotice(call, tenant.token);
  const apiKey = await tenant.apiKey();
  const url = serve(path, embedPage({ apiBaseUrl: state.baseUrl, apiKey, tenantId: tenant.tenantId, attributes: { 'data-cookies': 'off' } }));
  return { tenant, notice, apiKey, url };
};

const proofOf = async (token: string, recordId: string) => (await call('GET', `/api/v1/consent/records/${recordId}/proof`, { token })).body.data.payload;

describe('notice banner', () => {
  it('shows what the DPDP Act asks a notice to show, is axe-clean, and records Accept all with ACCEPTED and every purpose', async () => {
    const { tenant, notice, url } = await noticeSite('/accept');
    const { page, close } = await freshPage(browser());
    try {
      const { errors } = await openPage(page, url);
      expect(await dialogTitles(page)).toEqual([englishNotice.title]);
      const text = await dialogText(page);
      for (const expected of [englishNotice.introText, englishNotice.rightsText, englishNotice.complaintText, englishNotice.contactEmail, 'Order processing', 'Marketing', 'Data used: email, address', 'Required']) {
        expect(text).toContain(expected);
      }
      expect(await axeViolations(page, '[data-cms]')).toEqual([]);

      const consented = await nextEvent(page, 'consent');
      await clickButton(page, 'Accept all');
      const detail = await consented();
      expect(detail.notice.purposes).toEqual({ [notice.required]: true, [notice.optional]: true });
      expect(await dialogTitles(page)).toEqual([]);

      const recordId = detail.notice.consentRecordId as string;
      expect(await proofOf(tenant.token, recordId)).toMatchObject({ consentGiven: { [notice.required]: true, [notice.optional]: true }, languageShown: 'EN', positionShown: 'bottom-right' });
      expect((await getRecord(tenant.tenantId, recordId))?.decision).toBe('ACCEPTED');

      // No second prompt for the same notice version.
      await openPage(page, url);
      expect(await dialogTitles(page)).toEqual([]);
      expect((await page.evaluate('window.cms.getConsent()')) as any).toMatchObject({ notice: { consentRecordId: recordId, noticeId: notice.noticeId, versionNumber: 1 }, cookies: null });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('records Reject all as REJECTED with the optional purpose off, and Save choices from the switches', async () => {
    const { tenant, notice, url } = await noticeSite('/reject');
    const { page, close } = await freshPage(browser());
    try {
      await openPage(page, url);
      const rejected = await nextEvent(page, 'consent');
      await clickButton(page, 'Reject all');
      const recordId = (await rejected()).notice.consentRecordId as string;
      expect((await getRecord(tenant.tenantId, recordId))?.decision).toBe('REJECTED');
      expect((await proofOf(tenant.token, recordId)).consentGiven).toEqual({ [notice.required]: true, [notice.optional]: false });

      // Privacy choices reopens it with the choices on file; switching the optional purpose on is a new record.
      await clickButton(page, 'Privacy choices');
      await setSwitch(page, `cms-p-${notice.optional}`, true);
      const changed = await nextEvent(page, 'change');
      await clickButton(page, 'Save choices');
      const next = (await changed()).notice.consentRecordId as string;
      expect(next).not.toBe(recordId);
      expect((await getRecord(tenant.tenantId, next))?.decision).toBe('ACCEPTED');
    } finally {
      await close();
    }
  });

  it("states each purpose's retention in the label sets' words, in the visitor's language (Hindi here), axe-clean", async () => {
    const tenant = await newTenant(call);
    const kept = await createPurpose(call, tenant.token, { name: 'Order processing', dataCategories: ['email'], retention: { period: 'P3Y', from: 'LAST_ACTIVITY' } });
    const offers = await createPurpose(call, tenant.token, { name: 'Offers', dataCategories: ['email'], retention: { period: 'P1Y', from: 'WITHDRAWAL', legalHold: 'Income-tax Act, 1961' } });
    const noticeId = await createNotice(call, tenant.token, [kept, offers], { translations: { HI: { title: 'गोपनीयता सूचना' } } });
    expect((await publish(call, tenant.token, noticeId)).status).toBe(200);
    const apiKey = await tenant.apiKey();
    const page = (language: string) => serve(`/retention-${language}`, embedPage({ apiBaseUrl: state.baseUrl, apiKey, tenantId: tenant.tenantId, attributes: { 'data-cookies': 'off', 'data-language': language } }));
    const hindi = (await readBuiltIn('HI'))!.words;
    const say = (key: string, values: Record<string, string | number>) => fillWords(hindi[key as keyof typeof hindi]!, values);
    const { page: tab, close } = await freshPage(browser());
    try {
      await openPage(tab, page('EN'));
      const english = await dialogText(tab);
      expect(english).toContain('Kept for 3 years after your last activity.');
      expect(english).toContain('Kept until 1 year after you withdraw or refuse consent. Some of it may be kept longer where a law requires it: Income-tax Act, 1961');
      const { errors } = await openPage(tab, page('HI'));
      expect(await dialogTitles(tab)).toEqual(['गोपनीयता सूचना']);
      const text = await dialogText(tab);
      expect(text).toContain(say('notice.retention.LAST_ACTIVITY', { period: say('notice.retention.years.other', { count: 3 }) }));
      expect(text).toContain(`${say('notice.retention.WITHDRAWAL', { period: say('notice.retention.years.one', { count: 1 }) })} ${say('notice.retention.legalHold', { law: 'Income-tax Act, 1961' })}`);
      expect(await axeViolations(tab, '[data-cms]')).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shares the page with the cookie banner, one dialog at a time, and attributes consent to an identified principal', async () => {
    const tenant = await newTenant(call);
    const notice = await publishedNotice(call, tenant.token);
    await configureCookies(call, tenant.token);
    const url = serve('/both', embedPage({ apiBaseUrl: state.baseUrl, apiKey: await tenant.apiKey(), tenantId: tenant.tenantId }));
    const principal = 'a'.repeat(63) + 'b';
    const { page, close } = await freshPage(browser());
    try {
      const { errors } = await openPage(page, url);
      expect(await page.evaluate(`[window.cms.identify({ identifierHash: 'someone@example.com' }), window.cms.identify({ identifierHash: '${principal}' })]`)).toEqual([false, true]);
      expect(await dialogTitles(page)).toEqual([englishNotice.title]);
      const consented = await nextEvent(page, 'consent');
      await clickButton(page, 'Accept all');
      await consented();
      expect(await dialogTitles(page)).toEqual(['We value your privacy']);
      expect(await axeViolations(page, '[data-cms]')).toEqual([]);
      const status = await call('GET', `/api/v1/consent/status/${principal}`, { token: tenant.token });
      expect(status.body.data.map((item: { noticeId: string }) => item.noticeId)).toEqual([notice.noticeId]);

      const cookies = await nextEvent(page, 'consent');
      await clickButton(page, 'Reject all');
      await cookies();
      // Privacy choices reopens the notice, which leads on to the cookie preferences.
      await clickButton(page, 'Privacy choices');
      await clickButton(page, 'Cookie preferences');
      expect(await dialogTitles(page)).toEqual(['Manage preferences']);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('runs on the demo page the local server serves at /widget/demo, under a CSP as strict as the portal\'s, with no violation', async () => {
    const tenant = await newTenant(call);
    await publishedNotice(call, tenant.token);
    await configureCookies(call, tenant.token);
    const demo = await fetch(`${state.baseUrl}/widget/demo`);
    expect(demo.headers.get('content-security-policy')).toBe(portalContentSecurityPolicy);
    expect(demo.headers.get('x-frame-options')).toBe('DENY');
    // The same policy travels in the page itself, for hosts that do not send the header.
    expect(await demo.text()).toContain(`<meta http-equiv="Content-Security-Policy" content="${portalContentSecurityPolicy.replace("; frame-ancestors 'none'", '')}">`);
    const { page, close } = await freshPage(browser());
    try {
      await collectCspViolations(page);
      const { errors } = await openPage(page, `${state.baseUrl}/widget/demo#apiKey=${await tenant.apiKey()}&tenantId=${tenant.tenantId}`);
      expect(await dialogTitles(page)).toEqual([englishNotice.title]);
      const consented = await nextEvent(page, 'consent');
      await clickButton(page, 'Accept all');
      const recordId = (await consented()).notice.consentRecordId as string;
      expect(await page.$eval('#status', (status) => status.textContent)).toContain(recordId);
      expect(await dialogTitles(page)).toEqual(['We value your privacy']);
      // The analytics tag the banner gates runs once granted, under the same policy.
      await clickButton(page, 'Accept all');
      await page.waitForFunction(() => (globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }).document.getElementById('analytics')?.textContent?.includes('running'));
      expect(await cspViolationsOf(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
