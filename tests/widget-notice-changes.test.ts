import { describe, expect, it } from 'vitest';
import { useTestWorkers } from './support/workers';
import { newTenant, useApi } from './support/api';
import { axeViolations, useBrowser } from './support/browser';
import { passEdgeBound, useClockReset } from './support/clock';
import { publishedNotice } from './support/consent';
import { createNotice, createPurpose } from './support/notices';
import { startReceiver, waitFor } from './support/receiver';
import { chooseLanguage, clickButton, configureCookies, dialogLanguage, dialogText, dialogTitles, embedPage, focusedInWidget, nextEvent, openPage, setSwitch, useFixtureSite } from './support/widget';

const { call, state } = useApi();
const { browser } = useBrowser();
const { serve, freshPage } = useFixtureSite();
useTestWorkers();
useClockReset();

const site = async (path: string, attributes: Record<string, string> = {}, beforePublish?: (token: string, noticeId: string) => Promise<void>) => {
  const tenant = await newTenant(call);
  const apiKey = await tenant.apiKey();
  const url = serve(path, embedPage({ apiBaseUrl: state.baseUrl, apiKey, tenantId: tenant.tenantId, attributes: { 'data-cookies': 'off', ...attributes } }));
  if (beforePublish) return { tenant, url, apiKey };
  return { tenant, url, apiKey, notice: await publishedNotice(call, tenant.token) };
};

/** Revises the published notice, applies `change` to the draft and publishes it. */
const revise = async (token: string, noticeId: string, change: Record<string, unknown>) => {
  const draftId = (await call('POST', `/api/v1/notices/${noticeId}/revise`, { token })).body.data.id as string;
  expect((await call('PUT', `/api/v1/notices/${draftId}`, { token, body: change })).status).toBe(200);
  expect((await call('POST', `/api/v1/notices/${draftId}/publish`, { token, body: {} })).status).toBe(200);
  return draftId;
};

describe('notice banner over time', () => {
  it('does not ask again after a wording change, and asks again after a material change', async () => {
    const { tenant, url, notice } = await site('/material');
    const { page, close } = await freshPage(browser());
    try {
      await openPage(page, url);
      // The decision is kept once sdk-record answers: reloading before that would rightly ask again.
      const decided = await nextEvent(page, 'consent');
      await clickButton(page, 'Accept all');
      await decided();
      const reworded = await revise(tenant.token, notice!.noticeId, { title: 'Privacy notice, in plainer words' });
      // A publish reaches pages within the edge's bound.
      passEdgeBound();
      await openPage(page, url);
      expect(await dialogTitles(page)).toEqual([]);
      expect(((await page.evaluate('window.cms.getConsent()')) as { notice: { versionNumber: number } }).notice.versionNumber).toBe(1);

      const added = await createPurpose(call, tenant.token, { name: 'Analytics', dataCategories: ['usage'] });
      const current = (await call('GET', `/api/v1/notices/${reworded}`, { token: tenant.token })).body.data;
      const widened = await revise(tenant.token, reworded, { purposeIds: [...current.purposeIds, added] });
      passEdgeBound();
      await openPage(page, url);
      expect(await dialogTitles(page)).toEqual(['Privacy notice, in plainer words']);
      const consented = await nextEvent(page, 'consent');
      await clickButton(page, 'Accept all');
      expect((await consented()).notice).toMatchObject({ noticeId: widened, versionNumber: 3 });
    } finally {
      await close();
    }
  });

  it('withdraws through the widget: a purpose switched off, then everything, each a real withdrawal with a webhook', async () => {
    const { tenant, url, notice } = await site('/withdraw');
    const receiver = await startReceiver(() => ({ status: 200 }));
    const { page, close } = await freshPage(browser());
    try {
      const hook = await call('POST', '/api/v1/webhooks', {
        token: tenant.token,
        body: { label: 'Receiver', url: receiver.url, secret: 'whsec_test_secret_0123456789', events: ['consent.withdrawn'] },
      });
      expect(hook.status).toBe(201);
      await openPage(page, url);
      const consented = await nextEvent(page, 'consent');
      await clickButton(page, 'Accept all');
      await consented();
      await clickButton(page, 'Privacy choices');
      await setSwitch(page, `cms-p-${notice!.optional}`, false);
      const partial = await nextEvent(page, 'withdraw');
      await clickButton(page, 'Save choices');
      expect((await partial()).notice.purposes).toEqual({ [notice!.required]: true, [notice!.optional]: false });

      await clickButton(page, 'Privacy choices');
      const full = await nextEvent(page, 'withdraw');
      await clickButton(page, 'Withdraw all');
      await clickButton(page, 'Yes, withdraw all');
      expect((await full()).notice.purposes).toEqual({ [notice!.required]: false, [notice!.optional]: false });

      const tasks = (await call('GET', '/api/v1/compliance-tasks?status=OPEN', { token: tenant.token })).body.data;
      expect(tasks).toHaveLength(2);
      const events = await waitFor(() => (receiver.received.length >= 2 ? receiver.received.map((entry) => JSON.parse(entry.rawBody.toString()).data) : undefined));
      expect(events.map((event) => [event.withdrawalMethod, event.isFullWithdrawal])).toEqual([
        ['WIDGET', false],
        ['WIDGET', true],
      ]);
    } finally {
      await close();
      await receiver.close();
    }
  });

  it('asks before "Withdraw all", saying what it withdraws; Cancel withdraws nothing, and the confirmation withdraws the notice consent and the optional cookies', async () => {
    const { tenant, url, notice } = await site('/withdraw-all', { 'data-cookies': 'on' });
    await configureCookies(call, tenant.token);
    const { page, close } = await freshPage(browser());
    try {
      await openPage(page, url);
      const consented = await nextEvent(page, 'consent');
      await clickButton(page, 'Accept all');
      await consented();
      const cookiesGiven = await nextEvent(page, 'consent');
      await clickButton(page, 'Accept all');
      expect((await cookiesGiven()).cookies.categories).toEqual({ NECESSARY: true, FUNCTIONAL: true, ANALYTICS: true, MARKETING: true, UNCLASSIFIED: true });
      const everything = { notice: { [notice!.required]: true, [notice!.optional]: true }, cookies: { NECESSARY: true, FUNCTIONAL: true, ANALYTICS: true, MARKETING: true, UNCLASSIFIED: true } };
      const choices = async () => {
        const consent = (await page.evaluate('window.cms.getConsent()')) as { notice: { purposes: Record<string, boolean> }; cookies: { categories: Record<string, boolean> } };
        return { notice: consent.notice.purposes, cookies: consent.cookies.categories };
      };

      await clickButton(page, 'Privacy choices');
      await clickButton(page, 'Withdraw all');
      // The same dialog asks, in words, what goes: every purpose of the notice, and the optional cookie categories by name.
      expect(await dialogTitles(page)).toEqual(['Privacy notice']);
      expect(await focusedInWidget(page)).toBe('Privacy notice');
      const text = await dialogText(page);
      expect(text).toContain('This withdraws your consent to every purpose of this notice.');
      expect(text).toContain('It also turns off the optional cookies: Functional, Analytics, Marketing, Unclassified');
      expect(await axeViolations(page, '[data-cms]')).toEqual([]);

      await clickButton(page, 'Cancel');
      expect(await dialogTitles(page)).toEqual(['Privacy notice']);
      expect(await focusedInWidget(page)).toBe('Withdraw all');
      expect(await choices()).toEqual(everything);
      expect((await call('GET', '/api/v1/compliance-tasks', { token: tenant.token })).body.data).toEqual([]);
      // Escape on the confirmation is Cancel too: back to the notice, nothing withdrawn.
      await clickButton(page, 'Withdraw all');
      await page.keyboard.press('Escape');
      expect(await focusedInWidget(page)).toBe('Withdraw all');
      expect(await choices()).toEqual(everything);

      await clickButton(page, 'Withdraw all');
      const withdrawn = await nextEvent(page, 'withdraw');
      await clickButton(page, 'Yes, withdraw all');
      // The cookie banner's own refusal comes first (it never waits on the network), then the notice's withdrawal.
      expect((await withdrawn()).cookies.categories).toEqual({ NECESSARY: true, FUNCTIONAL: false, ANALYTICS: false, MARKETING: false, UNCLASSIFIED: false });
      await page.waitForFunction(`Object.values(window.cms.getConsent().notice.purposes).every((given) => !given)`);
      expect(await choices()).toEqual({ notice: { [notice!.required]: false, [notice!.optional]: false }, cookies: { NECESSARY: true, FUNCTIONAL: false, ANALYTICS: false, MARKETING: false, UNCLASSIFIED: false } });
      expect(await dialogTitles(page)).toEqual([]);
      const stored = await waitFor(async () => {
        const cookie = (await page.cookies()).find((entry) => entry.name === 'cms_consent');
        const value = cookie && JSON.parse(decodeURIComponent(cookie.value));
        return value && !value.c.ANALYTICS ? value : undefined;
      });
      expect(stored.c).toEqual({ NECESSARY: true, FUNCTIONAL: false, ANALYTICS: false, MARKETING: false, UNCLASSIFIED: false });
      expect(await page.evaluate(`window.dataLayer.filter((entry) => entry[1] === 'update').pop()[2].analytics_storage`)).toBe('denied');
      expect((await call('GET', '/api/v1/compliance-tasks?status=OPEN', { token: tenant.token })).body.data).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it('keeps the withdrawal key with the decision, records a signed identity as VERIFIED, and sends a decision without a key to the withdrawal page', async () => {
    const { tenant, url } = await site('/keys');
    const secret = await tenant.apiKey('secret');
    const { createHmac, createHash } = await import('node:crypto');
    const hash = createHash('sha256').update('asha@example.in').digest('hex');
    const signedAt = Math.floor(Date.now() / 1000);
    const signature = createHmac('sha256', secret).update(`${hash}.${signedAt}`).digest('hex');
    const { page, close } = await freshPage(browser());
    try {
      await openPage(page, url);
      expect(
        await page.evaluate(
          `[window.cms.identify({ identifierHash: '${hash}', identifierSignature: 'not hex', identifierSignedAt: ${signedAt} }), window.cms.identify({ identifierHash: '${hash}', identifierSignature: '${signature}' }), window.cms.identify({ identifierHash: '${hash}', identifierSignature: '${signature}', identifierSignedAt: ${signedAt} })]`,
        ),
      ).toEqual([false, false, true]);
      const consented = await nextEvent(page, 'consent');
      await clickButton(page, 'Accept all');
      const recordId = (await consented()).notice.consentRecordId as string;
      expect((await call('GET', `/api/v1/consent/records/${recordId}/proof`, { token: tenant.token })).body.data.payload).toMatchObject({ attribution: 'VERIFIED', attributionMethod: 'SIGNED_HASH', identifierSignedAt: signedAt });
      const storageKey = `cms_notice_${tenant.tenantId}`;
      const stored = JSON.parse((await page.evaluate(`localStorage.getItem('${storageKey}')`)) as string);
      expect(stored).toMatchObject({ consentRecordId: recordId, withdrawalKey: expect.stringMatching(/^[\w-]{43}$/) });
      expect(stored).not.toHaveProperty('proofHash');

      // A decision stored before withdrawal keys: the widget cannot withdraw it, and says where to go.
      const { withdrawalKey: _key, ...old } = stored;
      await page.evaluate(`localStorage.setItem('${storageKey}', ${JSON.stringify(JSON.stringify(old))})`);
      await openPage(page, url);
      await clickButton(page, 'Privacy choices');
      await clickButton(page, 'Withdraw all');
      await clickButton(page, 'Yes, withdraw all');
      await page.waitForFunction(`document.querySelector('[data-cms]').shadowRoot.querySelector('[role=alert] a')`);
      const link = (await page.evaluate(`(() => { const a = document.querySelector('[data-cms]').shadowRoot.querySelector('[role=alert] a'); return { href: a.href, focused: a.getRootNode().activeElement === a }; })()`)) as { href: string; focused: boolean };
      expect(link).toEqual({ href: 'https://shop.example/withdraw', focused: true });
      expect((await call('GET', '/api/v1/compliance-tasks', { token: tenant.token })).body.data).toEqual([]);
    } finally {
      await close();
    }
  });

  it('switches language, with dir=rtl for Urdu, and starts in the first browser language it offers', async () => {
    const { tenant, url } = await site('/language', {}, async () => undefined);
    const noticeId = await createNotice(call, tenant.token, [await createPurpose(call, tenant.token, { name: 'Orders' })]);
    for (const [language, title] of [['UR', 'رازداری نوٹس'], ['HI', 'गोपनीयता सूचना']]) {
      expect((await call('POST', `/api/v1/notices/${noticeId}/translations`, { token: tenant.token, body: { language, title } })).status).toBeLessThan(300);
    }
    expect((await call('POST', `/api/v1/notices/${noticeId}/publish`, { token: tenant.token, body: {} })).status).toBe(200);

    const { page, close } = await freshPage(browser());
    try {
      await openPage(page, url);
      expect(await dialogLanguage(page)).toEqual({ lang: 'en', dir: 'ltr' });
      await chooseLanguage(page, 'UR');
      expect(await dialogTitles(page)).toEqual(['رازداری نوٹس']);
      expect(await dialogLanguage(page)).toEqual({ lang: 'ur', dir: 'rtl' });
    } finally {
      await close();
    }
    const second = await freshPage(browser());
    try {
      // Tamil first, which this tenant does not offer: the widget asks in Tamil, then for the Hindi it offers.
      await second.page.evaluateOnNewDocument("Object.defineProperty(navigator, 'languages', { get: () => ['ta-IN', 'hi-IN', 'en'] })");
      const asked: string[] = [];
      second.page.on('request', (request) => request.url().includes('/widget/bootstrap') && asked.push(new URL(request.url()).searchParams.get('language')!));
      await openPage(second.page, url);
      expect(await dialogTitles(second.page)).toEqual(['गोपनीयता सूचना']);
      expect(await dialogLanguage(second.page)).toEqual({ lang: 'hi', dir: 'ltr' });
      expect(asked).toEqual(['TA', 'HI']);
    } finally {
      await second.close();
    }
  });

  it('works with the keyboard alone: focus moves in, Tab reaches the buttons, Escape closes the reopened banner and focus returns', async () => {
    const { tenant, url } = await site('/keyboard');
    const { page, close } = await freshPage(browser());
    try {
      await openPage(page, url);
      expect(await focusedInWidget(page)).toBe('Privacy notice');
      for (let presses = 0; presses < 20 && (await focusedInWidget(page)) !== 'Accept all'; presses += 1) await page.keyboard.press('Tab');
      expect(await focusedInWidget(page)).toBe('Accept all');
      const consented = await nextEvent(page, 'consent');
      await page.keyboard.press('Enter');
      const recordId = (await consented()).notice.consentRecordId as string;
      expect((await call('GET', `/api/v1/consent/records/${recordId}/proof`, { token: tenant.token })).status).toBe(200);

      for (let presses = 0; presses < 20 && (await focusedInWidget(page)) !== 'Privacy choices'; presses += 1) await page.keyboard.press('Tab');
      expect(await focusedInWidget(page)).toBe('Privacy choices');
      await page.keyboard.press('Enter');
      expect(await dialogTitles(page)).toEqual(['Privacy notice']);
      expect(await focusedInWidget(page)).toBe('Privacy notice');
      await page.keyboard.press('Escape');
      expect(await dialogTitles(page)).toEqual([]);
      expect(await focusedInWidget(page)).toBe('Privacy choices');
    } finally {
      await close();
    }
  });
});
