import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startApiServer } from '../infra/local/server';
import { registerStackPort } from '../shared/net/address-policy';
import { crawl } from '../shared/scanner/crawl';
import { openCookieDatabase } from '../shared/scanner/cookie-database';
import { buildFindings } from '../shared/scanner/report';
import { isViolation } from '../shared/scanner/run';
import { useFixtureSites } from './support/fixture-sites';

const { sites } = useFixtureSites();
const database = openCookieDatabase();
const budget = { pageMs: 8000 };

/** `also`: absolute scan URLs besides the site's paths (the local exception reaches exactly the scan URLs' origins). */
const scan = async (paths: string[], options: { allowLocal?: boolean; budget?: Parameters<typeof crawl>[1]['budget']; also?: string[] } = {}) => {
  const result = await crawl(
    [...paths.map((path) => `${sites().site}${path}`), ...(options.also ?? [])],
    { allowLocal: options.allowLocal ?? true, budget: options.budget ?? budget },
  );
  return { ...result, findings: buildFindings(result.observations, [], database) };
};

const find = (findings: ReturnType<typeof buildFindings>, kind: string, name: string | null, domain?: string) =>
  findings.find((finding) => finding.kind === kind && finding.name === name && (domain === undefined || finding.domain === domain));

describe('the crawl, pass 1 (no consent)', () => {
  it('records first-party cookies (HttpOnly too) and storage keys, classifies them, and follows same-site links', async () => {
    const started = Date.now();
    const { findings, pages, stoppedEarly } = await scan(['/']);
    const seconds = (Date.now() - started) / 1000;
    console.log(`scanner: ${pages.length} pages in ${seconds.toFixed(1)} s (${((pages.length / seconds) * 60).toFixed(0)} pages/minute)`);
    expect(stoppedEarly).toBeNull();
    const site = new URL(sites().site);
    // The hash is dropped and a repeated link followed once; other sites and mailto never.
    expect(pages).toEqual([`${site.origin}/`, `${site.origin}/about`, `${site.origin}/contact`]);
    expect(find(findings, 'COOKIE', '_ga')).toMatchObject({ category: 'ANALYTICS', classifiedBy: 'OPEN_COOKIE_DATABASE', setBeforeConsent: true, firstParty: true, declared: false });
    expect(find(findings, 'COOKIE', '_fbp')).toMatchObject({ category: 'MARKETING', vendor: 'Facebook', setBeforeConsent: true });
    expect(find(findings, 'COOKIE', 'session_http')).toMatchObject({ domain: '127.0.0.1', category: 'UNCLASSIFIED', classifiedBy: 'NONE' });
    expect(find(findings, 'COOKIE', 'zz_mystery_pref')).toMatchObject({ category: 'UNCLASSIFIED', classifiedBy: 'NONE', pages: [`${site.origin}/`] });
    expect(find(findings, 'LOCAL_STORAGE', 'cart_state')).toMatchObject({ domain: '127.0.0.1', setBeforeConsent: true });
    expect(find(findings, 'SESSION_STORAGE', 'tab_token')).toMatchObject({ domain: '127.0.0.1', setBeforeConsent: true });
    // Each page starts clean: what the first page set is not attributed to the pages after it.
    for (const name of ['_ga', 'session_http', 'cart_state', 'tab_token']) expect(findings.find((finding) => finding.name === name)?.pages, name).toEqual([`${site.origin}/`]);
    // Every one of them is a violation: none is NECESSARY and all came before consent.
    expect(findings.filter(isViolation).map((finding) => finding.name).sort()).toEqual(['_fbp', '_ga', 'cart_state', 'session_http', 'tab_token', 'zz_mystery_pref']);
  });

  it('records a cookie a script from a second loopback host sets, and the request, as third-party', async () => {
    // The vendor's origin is one of the run's scan URLs, so the local exception lets the page reach it.
    const { findings } = await scan(['/third-party'], { also: [`${sites().vendor}/tag.js`] });
    expect(find(findings, 'COOKIE', 'vendor_uid')).toMatchObject({ domain: 'localhost', firstParty: false, setBeforeConsent: true, category: 'UNCLASSIFIED' });
    expect(find(findings, 'REQUEST', null, 'localhost')).toMatchObject({ firstParty: false, setBeforeConsent: true });
  });

  it('records third-party requests made by service workers, through what the proxy was asked for', async () => {
    const { findings } = await scan(['/service-worker']);
    expect(find(findings, 'REQUEST', null, 'localhost')).toMatchObject({ firstParty: false, setBeforeConsent: true });
  });

  it('records a page that never finishes loading as far as it got, within the page budget', async () => {
    const started = Date.now();
    const { findings, pages } = await scan(['/hang'], { budget: { pageMs: 4000 } });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(pages).toHaveLength(1);
    expect(find(findings, 'COOKIE', 'hang_started')).toBeDefined();
    expect(find(findings, 'COOKIE', '_gid')).toMatchObject({ category: 'ANALYTICS', setBeforeConsent: true });
  });

  it('stops at the run budget and says so', async () => {
    // Page and run budgets equal: the first page starts however long Chromium took to launch (up to
    // 4 s), the hanging page uses its budget up, and the second can no longer start.
    const { stoppedEarly, pages, findings } = await scan(['/hang', '/about'], { budget: { pageMs: 6000, runMs: 6000 } });
    expect(stoppedEarly).toBe(`The run exceeded its 6 s budget after 1 pages; ${sites().site}/about and any page after it were not scanned`);
    // What the first page showed before the budget ran out is kept.
    expect(find(findings, 'COOKIE', 'hang_started')).toBeDefined();
    expect(pages).toHaveLength(1);
  });

  it('leaves nothing of its own in /tmp: profile and temporary files go with the browser', async () => {
    // A private TMPDIR, so scans of other test files running beside this one do not count.
    const previous = process.env.TMPDIR;
    const privateTmp = await mkdtemp(join(tmpdir(), 'cms-scan-test-'));
    process.env.TMPDIR = privateTmp;
    try {
      await scan(['/about']);
      // What @sparticuz/chromium unpacks there (the browser itself) stays for the next run; nothing else may.
      const left = (await readdir(privateTmp)).filter((name) => /^(cms-scan-|\.org\.chromium|puppeteer|core)/.test(name));
      expect(left).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      await rm(privateTmp, { recursive: true, force: true });
    }
  });
});

describe('pages that fight the scanner', () => {
  it('opens no popup or new window a page asks for (200 of them), and scans on', async () => {
    const { findings, pages, failedPages, stoppedEarly } = await scan(['/popups', '/about'], { budget: { pageMs: 8000, linksPerUrl: 0 } });
    expect(sites().popupHits()).toBe(0);
    expect(pages).toHaveLength(2);
    expect(failedPages).toEqual([]);
    expect(stoppedEarly).toBeNull();
    expect(find(findings, 'COOKIE', 'popups_page')).toBeDefined();
    expect(find(findings, 'COOKIE', 'popup_cookie')).toBeUndefined();
  });

  it("keeps the earlier pages' findings when a page busy-loops, says which page failed, and scans the pages after it", async () => {
    const { findings, pages, failedPages } = await scan(['/', '/busy', '/about'], { budget: { pageMs: 6000, linksPerUrl: 0 } });
    const site = sites().site;
    expect(pages).toEqual([`${site}/`, `${site}/busy`, `${site}/about`]);
    expect(failedPages).toEqual([{ url: `${site}/busy`, reason: expect.stringMatching(/stopped responding/), afterConsent: false }]);
    expect(find(findings, 'COOKIE', '_ga')).toMatchObject({ pages: [`${site}/`] });
    expect(find(findings, 'COOKIE', 'busy_started')).toMatchObject({ pages: [`${site}/busy`] });
  });

  it('caps a page\'s memory: a page that allocates without end fails alone, and the run goes on', async () => {
    const { findings, pages, failedPages } = await scan(['/', '/memory', '/about'], { budget: { pageMs: 8000, linksPerUrl: 0, pageHeapMb: 64 } });
    const site = sites().site;
    expect(pages).toEqual([`${site}/`, `${site}/memory`, `${site}/about`]);
    // The heap cap ends it (the single-process browser goes down with the page and is started again), not the page's time budget.
    expect(failedPages).toEqual([{ url: `${site}/memory`, reason: expect.stringMatching(/crashed/), afterConsent: false }]);
    expect(find(findings, 'COOKIE', '_ga')).toBeDefined();
  });
});

describe('pass 2 (consent given through window.cms)', () => {
  it('finds the trackers a correctly gated banner releases only after consent: no violations', async () => {
    const { findings } = await scan(['/widget']);
    expect(find(findings, 'COOKIE', '_ga')).toMatchObject({ category: 'ANALYTICS', setBeforeConsent: false });
    expect(find(findings, 'LOCAL_STORAGE', '_hjid')).toMatchObject({ setBeforeConsent: false });
    expect(findings.filter(isViolation)).toEqual([]);
    // The scanner's own "accept all" never reached the service as a visitor's decision.
    expect(sites().webEvents()).toBe(0);
  });
});

describe('the address policy at the network level', () => {
  it('never lets a page reach a loopback address outside the local exception: subresources, fetch, workers, frames, redirects', async () => {
    const { refused, pages } = await scan(['/leak', '/redirect']);
    expect(pages).toHaveLength(2);
    expect(sites().canaryHits()).toBe(0);
    expect(refused.some((target) => target.startsWith('127.0.0.2:'))).toBe(true);
  });

  it("keeps the local exception to the scan URLs' own origins: another port on the same loopback address is refused", async () => {
    const { refused, pages, findings } = await scan(['/other-port', '/to-other-port']);
    expect(pages).toHaveLength(2);
    expect(sites().loopbackCanaryHits()).toBe(0);
    const port = new URL(sites().loopbackCanary).port;
    expect(refused).toEqual(expect.arrayContaining([`127.0.0.1:${port}`, `localhost:${port}`]));
    expect(findings.filter((finding) => finding.kind === 'REQUEST').map((finding) => finding.domain).sort()).toEqual(['localhost']);
  });

  it("refuses the local stack's own ports even listed as scan URLs: the API, the engines, the mail inbox; what answers there sees no connection", async () => {
    // The API as npm start runs it, counting every connection it is offered.
    const api = await startApiServer(0);
    let apiConnections = 0;
    api.server.on('connection', () => (apiConnections += 1));
    // A canary in the place of a stack listener: registered as one, it must see no hit.
    const canaryPort = Number(new URL(sites().loopbackCanary).port);
    const unregister = registerStackPort(canaryPort);
    try {
      const engines = [process.env.DYNAMODB_ENDPOINT!, process.env.SQS_ENDPOINT!, process.env.S3_ENDPOINT!, `${process.env.SES_ENDPOINT!}/store`];
      const { refused } = await scan(['/'], { also: [`${api.url}/dashboard/`, `${sites().loopbackCanary}/`, ...engines], budget: { ...budget, linksPerUrl: 0 } });
      expect(apiConnections).toBe(0);
      expect(sites().loopbackCanaryHits()).toBe(0);
      const portOf = (url: string) => new URL(url).port;
      for (const url of [api.url, sites().loopbackCanary, ...engines]) expect(refused).toContain(`127.0.0.1:${portOf(url)}`);
      // The run's own site, on loopback too, is still scanned: the exception is as narrow as its host and port.
      expect(refused).not.toContain(`127.0.0.1:${portOf(sites().site)}`);
    } finally {
      unregister();
      await new Promise<void>((resolve) => api.server.close(() => resolve()));
    }
  });

  it('with the local exceptions turned off, reaches nothing on loopback at all', async () => {
    const { refused, findings } = await scan(['/', '/leak'], { allowLocal: false });
    expect(sites().canaryHits()).toBe(0);
    expect(findings).toEqual([]);
    expect(refused.some((target) => target.startsWith('127.0.0.1:'))).toBe(true);
  });
});
