import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import type { HandlerSource } from '../infra/local/server';
import { newTenant, useApi } from './support/api';
import { useBrowser } from './support/browser';
import { passEdgeBound, useClockReset } from './support/clock';
import { publishedNotice } from './support/consent';
import { createNotice, englishNotice, publish } from './support/notices';
import { clickButton, configureCookies, dialogTitles, embedPage, nextEvent, openPage, useFixtureSite } from './support/widget';

/**
 * The widget against the local edge (infra/local/edge.ts): both banners from one cached request,
 * and what a change or a revocation does to a page within the bound.
 */
const origin = { failing: false };
// The real handlers, with an origin that can be made to fail as a Lambda or API Gateway outage would.
const failableHandlers = (): HandlerSource => (group) =>
  import(`../functions/${group}/handler.ts`).then(({ handler }: { handler: Awaited<ReturnType<HandlerSource>> }) => async (event, context) =>
    origin.failing && event.routeKey === 'GET /api/v1/widget/bootstrap' ? { statusCode: 503, headers: {}, body: '{"message":"Service Unavailable"}' } : handler(event, context),
  );

const { call, state } = useApi({ handlers: failableHandlers });
const { browser } = useBrowser();
const { serve, freshPage } = useFixtureSite();
useClockReset();

/** A tenant with a published notice and a cookie banner, and a page with both. */
const bothBanners = async (path: string) => {
  const tenant = await newTenant(call);
  const notice = await publishedNotice(call, tenant.token);
  await configureCookies(call, tenant.token);
  const apiKey = await tenant.apiKey();
  return { tenant, notice, apiKey, url: serve(path, embedPage({ apiBaseUrl: state.baseUrl, apiKey, tenantId: tenant.tenantId })) };
};

/** A fresh visitor's page view: the dialogs shown, and every request the widget made to the API (method, path, status, X-Cache). */
const visit = async (url: string) => {
  const { page, close } = await freshPage(browser());
  const calls: string[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(`${state.baseUrl}/api/`)) calls.push(`${response.request().method()} ${new URL(response.url()).pathname} ${response.status()} ${response.headers()['x-cache'] ?? '-'}`);
  });
  return { page, close, calls, errors: (await openPage(page, url)).errors };
};

/** A page a visitor has seen (so the edge holds its bootstrap), whose key the tenant then revokes. */
const revokedAfterAVisit = async (path: string) => {
  const { tenant, url } = await bothBanners(path);
  const before = await visit(url);
  await before.close();
  const keyId = (await call('GET', '/api/v1/api-keys', { token: tenant.token })).body.data[0].keyId;
  expect((await call('DELETE', `/api/v1/api-keys/${keyId}`, { token: tenant.token })).status).toBe(200);
  return url;
};

const consentOf = (page: Page) => page.evaluate('window.cms.getConsent()') as Promise<{ notice: unknown; cookies: unknown }>;

describe('the widget from the edge', () => {
  it('shows both banners from one request, which the next visitor gets from the edge without reaching the origin', async () => {
    const { url } = await bothBanners('/both');
    const first = await visit(url);
    try {
      expect(first.calls).toEqual(['GET /api/v1/widget/bootstrap 200 Miss from local-edge']);
      expect(await dialogTitles(first.page)).toEqual([englishNotice.title]);
      const consented = await nextEvent(first.page, 'consent');
      await clickButton(first.page, 'Accept all');
      await consented();
      // One dialog at a time: the cookie banner follows the notice, from the same answer.
      expect(await dialogTitles(first.page)).toEqual(['We value your privacy']);
      expect(first.errors).toEqual([]);
    } finally {
      await first.close();
    }
    const originRequests = state.edge.stats.originRequests;
    const second = await visit(url);
    try {
      expect(second.calls).toEqual(['GET /api/v1/widget/bootstrap 200 Hit from local-edge']);
      expect(await dialogTitles(second.page)).toEqual([englishNotice.title]);
      expect(state.edge.stats.originRequests).toBe(originRequests);
    } finally {
      await second.close();
    }
  });

  it('brings a publish to a page within the bound', async () => {
    const { tenant, notice, url } = await bothBanners('/publish');
    const before = await visit(url);
    await before.close();
    await publish(call, tenant.token, await createNotice(call, tenant.token, [notice.required, notice.optional], { title: 'Privacy notice, second edition' }));
    const soon = await visit(url);
    try {
      expect(await dialogTitles(soon.page)).toEqual([englishNotice.title]);
    } finally {
      await soon.close();
    }
    passEdgeBound();
    const later = await visit(url);
    try {
      expect(await dialogTitles(later.page)).toEqual(['Privacy notice, second edition']);
    } finally {
      await later.close();
    }
  });

  it('refuses a revoked key within the bound: no banner, every optional category denied', async () => {
    const url = await revokedAfterAVisit('/revoked');
    passEdgeBound();
    const after = await visit(url);
    try {
      expect(after.calls).toEqual(['GET /api/v1/widget/bootstrap 401 Miss from local-edge']);
      expect(await dialogTitles(after.page)).toEqual([]);
      expect(await consentOf(after.page)).toEqual({ notice: null, cookies: null });
      expect(await after.page.evaluate('window.dataLayer.map((entry) => [...entry])')).toEqual([['consent', 'default', expect.objectContaining({ analytics_storage: 'denied', ad_storage: 'denied' })]]);
    } finally {
      await after.close();
    }
  });

  it("refuses a revoked key's copy that the edge serves stale past the bound while its origin fails", async () => {
    const url = await revokedAfterAVisit('/stale');
    origin.failing = true;
    try {
      // Well past the bound (Age counts whole seconds: a copy at 60.5 s says 60, which the widget still takes).
      passEdgeBound();
      passEdgeBound();
      const after = await visit(url);
      try {
        expect(after.calls).toEqual(['GET /api/v1/widget/bootstrap 200 StaleHit from local-edge']);
        expect(await dialogTitles(after.page)).toEqual([]);
        expect(await consentOf(after.page)).toEqual({ notice: null, cookies: null });
      } finally {
        await after.close();
      }
    } finally {
      origin.failing = false;
    }
  });
});
