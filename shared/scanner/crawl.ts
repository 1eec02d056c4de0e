/**
 * The crawl: a real headless Chromium behind the filtering proxy loads each page twice. Pass 1 in
 * a fresh context with no consent records every cookie (all domains, HttpOnly included, through
 * the DevTools protocol's Storage.getCookies for the context), the page's localStorage and
 * sessionStorage keys and its third-party requests. Pass 2, only on pages that run the banner
 * (window.cms), grants every category and records again. Every cookie and the storage of every
 * origin a page touched are cleared after it, so what a page sets is attributed to that page
 * alone. (Not a fresh browser context per page: @sparticuz/chromium runs --single-process, where
 * Chromium cannot create one.)
 *
 * A page may fight back. Popups and new windows are refused (--block-new-web-contents, and any page
 * a page opens is closed), the JavaScript heap is capped (budget.pageHeapMb), and a page that stops
 * responding (a script that never gives its thread back) or crashes the browser is recorded as a
 * failed page with what it showed so far: Chromium is then started afresh for the pages after it,
 * so one page never costs the findings of the others.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, CDPSession, Page, Target } from 'puppeteer-core';
import { describeError, log } from '../log';
import { isStackPort, localHosts } from '../net/address-policy';
import { BrowserStartError, launchChromiumRetrying, type Launcher } from '../browser/launch';
import { scanBudget } from './budget';
import type { FindingKind } from './finding';
import type { FailedPage } from './run';
import { sameSite } from './classify';
import { grantAllScript, pageStateScript, type PageState } from './page-scripts';
import { startFilteringProxy, targetKey, type FilteringProxy } from './proxy';

export interface Observation {
  kind: FindingKind;
  name: string | null;
  domain: string;
  page: string;
  beforeConsent: boolean;
}

export interface CrawlOptions {
  /**
   * The local stack's exception: the run's own scan URLs may be on loopback, and exactly their
   * origins (host and port) may be reached there; nothing else on loopback ever is.
   */
  allowLocal: boolean;
  budget?: Partial<Record<'linksPerUrl' | 'pagesPerRun' | 'pageMs' | 'runMs' | 'pageHeapMb', number>>;
  /** How one start of Chromium is made (the real one unless a test makes a start fail); each start is retried once. */
  launch?: Launcher;
}

export interface CrawlResult {
  pages: string[];
  observations: Observation[];
  /** Connections the proxy refused (host:port). */
  refused: string[];
  failedPages: FailedPage[];
  /** Set when the crawl stopped before its queue was done (the run budget ran out, or Chromium would not start again): why. */
  stoppedEarly: string | null;
}

class TimedOut extends Error {}

/** Rejects after `ms`: a page stuck in a script loop must not hold the run. */
const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimedOut(`${what} took longer than ${ms} ms`)), Math.max(1, ms));
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });

/**
 * The loopback origins the local exception covers: those of the run's own scan URLs (as
 * `host:port`, default ports filled in), and only when the exception applies at all; never one
 * of the local stack's own ports (address-policy.ts stackPorts), even listed as a scan URL.
 */
export const localTargetsOf = (startUrls: readonly string[], allowLocal: boolean): Set<string> => {
  const targets = new Set<string>();
  if (!allowLocal) return targets;
  for (const url of startUrls.flatMap((start) => httpUrl(start) ?? [])) {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (localHosts.has(host) && !isStackPort(port)) targets.add(targetKey(host, port));
  }
  return targets;
};

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
  /** Why the page could not be scanned to its end (the browser is not to be trusted after it), or null. */
  failure: string | null;
}

/** The run's Chromium and its browser-level DevTools session; started afresh after a page wedged or crashed it. */
interface Chromium {
  browser: Browser;
  session: CDPSession;
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
const visit = async ({ browser, session }: Chromium, proxy: FilteringProxy, url: string, consent: boolean, pageMs: number): Promise<Visit> => {
  const requestedBefore = proxy.requested.length;
  const started = Date.now();
  const left = () => pageMs - (Date.now() - started);
  // A wedged browser must not hold the run: every step of a visit is bounded.
  const page = await within(browser.newPage(), 10_000, 'opening a page').catch(() => undefined);
  if (!page) return { observations: [], state: null, failure: 'Chromium could not open the page (the page before it may have left it unresponsive)' };
  const pageHost = new URL(url).hostname;
  const origins = new Set([new URL(url).origin]);
  const requestHosts = new Set<string>();
  let failure: string | null = null;
  /** A page whose state cannot be read in time has stopped responding, or has taken the browser down with it. */
  const unresponsive = (error: unknown) => {
    if (!browser.connected) failure = 'Chromium crashed on this page (out of memory, or a fault in the browser)';
    else if (error instanceof TimedOut) failure = 'The page stopped responding within its time budget (a script kept its thread busy)';
    return null;
  };
  try {
    page.on('request', (request) => {
      const target = httpUrl(request.url());
      if (!target) return;
      origins.add(target.origin);
      if (!sameSite(target.hostname, pageHost)) requestHosts.add(target.hostname);
    });
    if (consent) await answerWebEventsLocally(page);
    await page.goto(url, { waitUntil: 'networkidle2', timeout: Math.max(1, left() - 2000) }).catch(() => undefined);
    if (consent && browser.connected) {
      const granted = await within(page.evaluate(grantAllScript), Math.max(1, left() - 1500), 'granting consent').catch(unresponsive);
      if (granted) await settle(page, Math.min(5000, left() - 1500));
    }
    for (const host of proxy.requested.slice(requestedBefore)) if (!sameSite(host, pageHost)) requestHosts.add(host);
    const state = failure ? null : await within(page.evaluate(pageStateScript) as Promise<PageState>, Math.max(1, left() - 1000), 'reading the page').catch(unresponsive);
    // Storage.getCookies: every domain's cookies, HttpOnly included (the browser's cookie store answers even while a page is busy).
    const { cookies } = await within(session.send('Storage.getCookies', {}), 5000, 'reading cookies').catch(() => ({ cookies: [] }));
    const seen = (kind: FindingKind, name: string | null, domain: string): Observation => ({ kind, name, domain, page: url, beforeConsent: !consent });
    return {
      state,
      failure,
      observations: [
        ...cookies.map((cookie) => seen('COOKIE', cookie.name, cookie.domain.replace(/^\./, '').toLowerCase())),
        ...(state?.localStorage ?? []).map((key) => seen('LOCAL_STORAGE', key, pageHost)),
        ...(state?.sessionStorage ?? []).map((key) => seen('SESSION_STORAGE', key, pageHost)),
        ...[...requestHosts].map((host) => seen('REQUEST', null, host)),
      ],
    };
  } finally {
    // After a failure the browser is replaced, not cleaned.
    if (!failure && browser.connected) {
      await within(forget(page, session, origins), 5000, 'clearing the browser').catch(() => undefined);
      await within(page.close(), 5000, 'closing the page').catch(() => undefined);
    }
  }
};

/**
 * Chromium talks only to the proxy, loopback included, and keeps no side channels open; it opens
 * no window a page asks for, and caps each page's JavaScript heap.
 */
const browserArgs = (proxyPort: number, pageHeapMb: number) => [
  `--proxy-server=http://127.0.0.1:${proxyPort}`,
  // Chromium never proxies loopback unless told so; without this a page could reach 127.0.0.1 directly.
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--disable-quic',
  '--dns-prefetch-disable',
  // window.open, target=_blank and every other new window fail (200 popups once took 2.5 GB).
  '--block-new-web-contents',
  `--js-flags=--max-old-space-size=${pageHeapMb}`,
];

/** Behind --block-new-web-contents: a page target that a page opened (it has an opener) is closed at once. */
const closePopups = (browser: Browser) => {
  browser.on('targetcreated', (target: Target) => {
    if (target.type() !== 'page' || !target.opener()) return;
    target
      .page()
      .then((popup) => popup?.close())
      .catch(() => undefined);
  });
};

/**
 * Each start in a directory of its own under the run's, so a killed browser's profile lock never
 * stands in the way; a start that fails is tried once more (launch.ts), for a slow, loaded machine.
 */
const startChromium = async (proxyPort: number, tmpDir: string, pageHeapMb: number, start: number, launch: Launcher | undefined): Promise<Chromium> => {
  const directory = join(tmpDir, `chromium-${start}`);
  await mkdir(directory);
  const browser = await launchChromiumRetrying({ args: browserArgs(proxyPort, pageHeapMb), tmpDir: directory }, launch);
  closePopups(browser);
  return { browser, session: await browser.target().createCDPSession() };
};

/** Ends a browser a page left unresponsive or crashed: no goodbye, its process is killed. */
const killBrowser = async (browser: Browser) => {
  const child = browser.process();
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await within(exited, 5000, 'Chromium exiting').catch(() => undefined);
  }
  await browser.disconnect().catch(() => undefined);
};

const closeBrowser = async (browser: Browser) => {
  if (!browser.connected) return killBrowser(browser);
  await within(browser.close(), 10_000, 'closing Chromium').catch(() => killBrowser(browser));
};

/** A page is not started with less time than this left in the run: it could record next to nothing. */
const minPageMs = 2000;

const overBudget = (runMs: number, pages: number, next: string) =>
  `The run exceeded its ${Math.round(runMs / 1000)} s budget after ${pages} pages; ${next} and any page after it were not scanned`;

export const crawl = async (startUrls: readonly string[], options: CrawlOptions): Promise<CrawlResult> => {
  const budget = { ...scanBudget, ...options.budget };
  const deadline = Date.now() + budget.runMs;
  const result: CrawlResult = { pages: [], observations: [], refused: [], failedPages: [], stoppedEarly: null };
  const tmpDir = await mkdtemp(join(tmpdir(), 'cms-scan-'));
  const proxy = await startFilteringProxy({ localTargets: localTargetsOf(startUrls, options.allowLocal) });
  let starts = 0;
  let chromium: Chromium | undefined;
  try {
    chromium = await startChromium(proxy.port, tmpDir, budget.pageHeapMb, (starts += 1), options.launch);
    /** Visits one page within what is left of the run; false when the run has to stop. */
    const scan = async (url: string, consent: boolean): Promise<Visit | false> => {
      const pageMs = Math.min(budget.pageMs, deadline - Date.now());
      if (pageMs < minPageMs) {
        result.stoppedEarly = overBudget(budget.runMs, result.pages.length, url);
        return false;
      }
      const visited = await visit(chromium!, proxy, url, consent, pageMs).catch((error: unknown) => ({
        observations: [],
        state: null,
        failure: `The page could not be scanned: ${error instanceof Error ? error.message : String(error)}`,
      }));
      result.observations.push(...visited.observations);
      if (visited.failure || !chromium!.browser.connected) {
        result.failedPages.push({ url, reason: visited.failure ?? 'Chromium closed while scanning the page', afterConsent: consent });
        await killBrowser(chromium!.browser);
        try {
          chromium = await startChromium(proxy.port, tmpDir, budget.pageHeapMb, (starts += 1), options.launch);
        } catch (error) {
          chromium = undefined;
          const why = error instanceof BrowserStartError ? error.message : "The scanner's browser could not be started again.";
          result.stoppedEarly = `${url} stopped the scanner's browser, and then: ${why} That page and the ones after it were not scanned; start the scan again in a few minutes.`;
          return false;
        }
      }
      return visited;
    };
    const queue = startUrls.flatMap((url) => httpUrl(url)?.href ?? []);
    const scanUrlCount = queue.length;
    const queued = new Set(queue);
    const withWidget: string[] = [];
    for (let index = 0; index < queue.length && result.pages.length < budget.pagesPerRun; index += 1) {
      const url = queue[index]!;
      const visited = await scan(url, false);
      if (visited === false) break;
      result.pages.push(url);
      const { state } = visited;
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
    for (const url of result.stoppedEarly ? [] : withWidget) {
      if ((await scan(url, true)) === false) break;
    }
  } finally {
    if (chromium) await closeBrowser(chromium.browser);
    await proxy.close();
    result.refused = [...proxy.refused];
    // A browser that failed to start may still be writing its profile for a moment: retried, and
    // never allowed to replace the run's own outcome (the reason a run failed is what its DPO needs).
    await rm(tmpDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch((error: unknown) => log.warn('scan directory not removed', { tmpDir, ...describeError(error) }));
  }
  return result;
};
