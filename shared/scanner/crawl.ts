/**
 * The crawl: a real headless Chromium behind the filtering proxy loads each page twice. Pass 1 in
 * a fresh context with no consent records every cookie (all domains, HttpOnly included, through
 * the DevTools protocol's Storage.getCookies for the context), the page's localStorage and
 * sessionStorage keys and its third-party requests. Pass 2, only on pages that run the banner
 * (window.cms), grants every category and records again. Every cookie and the storage of every
 * origin a page touched are cleared after it, so what a page sets is attributed to that page
 * alone. (Not a fresh browser context per page: @sparticuz/chromium runs --single-process, where
 * Chromium cannot create one.)
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'puppeteer-core';
import { launchChromium } from '../browser/launch';
import { scanBudget } from './budget';
import type { FindingKind } from './finding';
import { sameSite } from './classify';
import { grantAllScript, pageStateScript, type PageState } from './page-scripts';
import { startFilteringProxy, type FilteringProxy } from './proxy';

export interface Observation {
  kind: FindingKind;
  name: string | null;
  domain: string;
  page: string;
  beforeConsent: boolean;
}

export interface CrawlOptions {
  allowLocal: boolean;
  budget?: Partial<Record<'linksPerUrl' | 'pagesPerRun' | 'pageMs' | 'runMs', number>>;
}

export interface CrawlResult {
  pages: string[];
  observations: Observation[];
  /** Connections the proxy refused (host:port). */
  refused: string[];
  /** Set when the run budget ran out: the crawl stopped there. */
  overBudget: string | null;
}

/** Rejects after `ms`: a page stuck in a script loop must not hold the run. */
const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), Math.max(1, ms));
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });

const httpUrl = (value: string): URL | null => {
  try {
    const url = new URL(value);
    url.hash = '';
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
};

/** Lets the network settle; a page that never does is recorded as far as it got. */
const settle = (page: Page, ms: number) => page.waitForNetworkIdle({ idleTime: 500, timeout: Math.max(1, ms) }).catch(() => undefined);

interface Visit {
  observations: Observation[];
  state: PageState | null;
}

/**
 * In pass 2 the banner reports the scanner's "accept all" to the service (POST …/cmp/web-event).
 * That is no visitor's decision: it must not enter the tenant's consent log or analytics. The
 * request is answered here as the service would, so the banner carries on as after a real accept.
 */
const answerWebEventsLocally = async (page: Page) => {
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (request.isInterceptResolutionHandled()) return;
    const isWebEvent = request.method() === 'POST' && /\/api\/v1\/cmp\/web-event$/.test(httpUrl(request.url())?.pathname ?? '');
    const answer = isWebEvent
      ? request.respond({ status: 201, contentType: 'application/json', headers: { 'access-control-allow-origin': '*' }, body: JSON.stringify({ data: { recorded: true, consentRecordId: randomUUID() } }) })
      : request.continue();
    answer.catch(() => undefined);
  });
};

/**
 * Forgets the storage of every origin the page touched (through the page's own session: the
 * browser-level one answers "Internal error" for it) and every cookie, so the next page starts clean.
 */
const forget = async (page: Page, browserSession: CDPSession, origins: Set<string>) => {
  const pageSession = await page.createCDPSession();
  for (const origin of origins) await pageSession.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
  await browserSession.send('Storage.clearCookies', {});
};

/**
 * Pages are visited one at a time, so every host the proxy is asked for during a visit is that
 * page's: requests of workers and service workers, which the page's own request events miss, count too.
 */
const visit = async (browser: Browser, session: CDPSession, proxy: FilteringProxy, url: string, consent: boolean, pageMs: number): Promise<Visit> => {
  const requestedBefore = proxy.requested.length;
  const started = Date.now();
  const left = () => pageMs - (Date.now() - started);
  // A wedged browser must not hold the run: every step of a visit is bounded.
  const page = await within(browser.newPage(), 10_000, 'opening a page');
  const pageHost = new URL(url).hostname;
  const origins = new Set([new URL(url).origin]);
  const requestHosts = new Set<string>();
  try {
    page.on('request', (request) => {
      const target = httpUrl(request.url());
      if (!target) return;
      origins.add(target.origin);
      if (!sameSite(target.hostname, pageHost)) requestHosts.add(target.hostname);
    });
    if (consent) await answerWebEventsLocally(page);
    await page.goto(url, { waitUntil: 'networkidle2', timeout: Math.max(1, left() - 2000) }).catch(() => undefined);
    if (consent) {
      const granted = await within(page.evaluate(grantAllScript), Math.max(1, left() - 1500), 'granting consent').catch(() => false);
      if (granted) await settle(page, Math.min(5000, left() - 1500));
    }
    for (const host of proxy.requested.slice(requestedBefore)) if (!sameSite(host, pageHost)) requestHosts.add(host);
    const state = await within(page.evaluate(pageStateScript) as Promise<PageState>, Math.max(1, left() - 1000), 'reading the page').catch(() => null);
    // Storage.getCookies: every domain's cookies, HttpOnly included.
    const { cookies } = await within(session.send('Storage.getCookies', {}), 5000, 'reading cookies').catch(() => ({ cookies: [] }));
    const seen = (kind: FindingKind, name: string | null, domain: string): Observation => ({ kind, name, domain, page: url, beforeConsent: !consent });
    return {
      state,
      observations: [
        ...cookies.map((cookie) => seen('COOKIE', cookie.name, cookie.domain.replace(/^\./, '').toLowerCase())),
        ...(state?.localStorage ?? []).map((key) => seen('LOCAL_STORAGE', key, pageHost)),
        ...(state?.sessionStorage ?? []).map((key) => seen('SESSION_STORAGE', key, pageHost)),
        ...[...requestHosts].map((host) => seen('REQUEST', null, host)),
      ],
    };
  } finally {
    await within(forget(page, session, origins), 5000, 'clearing the browser').catch(() => undefined);
    await within(page.close(), 5000, 'closing the page').catch(() => undefined);
  }
};

/** Chromium talks only to the proxy, loopback included, and keeps no side channels open. */
const browserArgs = (proxyPort: number) => [
  `--proxy-server=http://127.0.0.1:${proxyPort}`,
  // Chromium never proxies loopback unless told so; without this a page could reach 127.0.0.1 directly.
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--disable-quic',
  '--dns-prefetch-disable',
];

const closeBrowser = async (browser: Browser) => {
  await within(browser.close(), 10_000, 'closing Chromium').catch(() => browser.process()?.kill('SIGKILL'));
};

/** A page is not started with less time than this left in the run: it could record next to nothing. */
const minPageMs = 2000;

const overBudget = (runMs: number, pages: number) => `The run exceeded its ${Math.round(runMs / 1000)} s budget after ${pages} pages`;

export const crawl = async (startUrls: readonly string[], options: CrawlOptions): Promise<CrawlResult> => {
  const budget = { ...scanBudget, ...options.budget };
  const deadline = Date.now() + budget.runMs;
  const result: CrawlResult = { pages: [], observations: [], refused: [], overBudget: null };
  const tmpDir = await mkdtemp(join(tmpdir(), 'cms-scan-'));
  const proxy = await startFilteringProxy({ allowLocal: options.allowLocal });
  let browser: Browser | undefined;
  try {
    browser = await launchChromium({ args: browserArgs(proxy.port), tmpDir });
    const session = await browser.target().createCDPSession();
    const queue = startUrls.flatMap((url) => httpUrl(url)?.href ?? []);
    const scanUrlCount = queue.length;
    const queued = new Set(queue);
    const withWidget: string[] = [];
    for (let index = 0; index < queue.length && result.pages.length < budget.pagesPerRun; index += 1) {
      const pageMs = Math.min(budget.pageMs, deadline - Date.now());
      if (pageMs < minPageMs) {
        result.overBudget = overBudget(budget.runMs, result.pages.length);
        break;
      }
      const url = queue[index]!;
      const { observations, state } = await visit(browser, session, proxy, url, false, pageMs);
      result.pages.push(url);
      result.observations.push(...observations);
      if (state?.hasCms) withWidget.push(url);
      // Links are followed from the scan URLs only: up to linksPerUrl same-site pages each.
      if (index < scanUrlCount) {
        const links = (state?.links ?? []).flatMap((link) => httpUrl(link)?.href ?? []);
        const sameSiteLinks = links.filter((link) => !queued.has(link) && sameSite(new URL(link).hostname, new URL(url).hostname));
        for (const link of [...new Set(sameSiteLinks)].slice(0, budget.linksPerUrl)) {
          queued.add(link);
          queue.push(link);
        }
      }
    }
    for (const url of withWidget) {
      const pageMs = Math.min(budget.pageMs, deadline - Date.now());
      if (pageMs < minPageMs) {
        result.overBudget = overBudget(budget.runMs, result.pages.length);
        break;
      }
      result.observations.push(...(await visit(browser, session, proxy, url, true, pageMs)).observations);
    }
  } finally {
    if (browser) await closeBrowser(browser);
    await proxy.close();
    result.refused = [...proxy.refused];
    await rm(tmpDir, { recursive: true, force: true });
  }
  return result;
};
