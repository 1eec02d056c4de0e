import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../infra/functions';
import { launchChromium } from '../../shared/browser/launch';
import { buildWebApp } from '../../web/build';
import { median } from '../load';

/**
 * Time from navigation to a visible banner, against first contentful paint, in headless Chromium
 * on loopback: the widget as built now (one bootstrap, from the local edge) beside the widget as
 * it was before the bootstrap (two uncached API calls), built from git at `todayCommit` with
 * today's build settings and run against the same server in the same run.
 */
export const todayCommit = '60e4d4cda5d3c2e3dfb7fdb5c27eacd2918216f0';

/** The widget of `todayCommit`, or why it could not be built (a clone without that history). */
const todayWidget = (): { script: Uint8Array } | { missing: string } => {
  const directory = mkdtempSync(join(tmpdir(), 'cms-today-widget-'));
  try {
    const archive = spawnSync('git', ['archive', '--format=tar', todayCommit, 'web/widget', 'shared'], { cwd: repoRoot, maxBuffer: 512 * 1024 * 1024 });
    if (archive.status !== 0) return { missing: `git archive ${todayCommit.slice(0, 7)} failed: ${archive.stderr.toString().trim().split('\n')[0]}` };
    const unpacked = spawnSync('tar', ['-x', '-C', directory], { input: archive.stdout });
    if (unpacked.status !== 0) return { missing: `tar failed: ${unpacked.stderr.toString().trim()}` };
    return { script: buildWebApp('widget', join(directory, 'web/widget')).get('v1/cms.js')!.contents };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
};

/**
 * In the page, before anything else: FCP from the paint timeline, and the banner's frame: each
 * animation frame looks for a dialog in the widget's shadow root, and the first frame that has
 * one is the frame that paints it (its start time is taken).
 */
const probe = `window.__timing = new Promise((resolve) => {
  const seen = {};
  const done = () => {
    if (seen.fcp === undefined || seen.banner === undefined) return;
    // Where the time went: the script's arrival and the widget's first API request (resource timing).
    const resources = performance.getEntriesByType('resource');
    const script = resources.find((entry) => entry.name.endsWith('.js'));
    const api = resources.find((entry) => entry.name.includes('/api/v1/'));
    resolve({ ...seen, scriptEnd: script?.responseEnd, apiStart: api?.startTime, apiEnd: api?.responseEnd, detail: api && [api.connectStart, api.connectEnd, api.requestStart, api.responseStart, api.responseEnd].map(Math.round).join(' ') });
  };
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') { seen.fcp = entry.startTime; done(); } }).observe({ type: 'paint', buffered: true });
  const frame = (time) => {
    if (document.querySelector('[data-cms]')?.shadowRoot?.querySelector('[role=dialog]')) { seen.banner = time; done(); } else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
});`;

const page = (script: string, apiUrl: string, apiKey: string, tenantId: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script src="${script}" data-api-key="${apiKey}" data-tenant-id="${tenantId}" data-api-base="${apiUrl}/api/v1" async></script>
</head><body><main><h1>Festive offers</h1><p>New arrivals every day, delivered across India.</p><p>Free returns within 30 days.</p></main></body></html>`;

/** Medians, ms from navigation: FCP, the script's arrival, the first API request's start and end, the banner's frame; and the banner after FCP. */
interface Timing {
  fcpMs: number;
  scriptMs: number;
  apiStartMs: number;
  apiEndMs: number;
  bannerMs: number;
  afterFcpMs: number;
  afterFcpSamples: number[];
}

interface Sample {
  banner: number;
  fcp: number;
  scriptEnd: number;
  apiStart: number;
  apiEnd: number;
}

export interface BannerTiming {
  runs: number;
  /** Medians over `runs` first visits: navigation to the banner's frame, and that frame's start after FCP (negative: painted with it). */
  edge: Timing;
  today: Timing | { missing: string };
}

export const measureBannerTiming = async (apiUrl: string, tenant: { apiKey: string; tenantId: string }, runs: number): Promise<BannerTiming> => {
  const scripts: Record<string, Uint8Array> = { edge: buildWebApp('widget').get('v1/cms.js')!.contents };
  const today = todayWidget();
  if ('script' in today) scripts.today = today.script;
  const site = createServer((request, response) => {
    const name = (request.url ?? '/').slice(1).replace(/\.js$/, '');
    const script = scripts[name];
    if (request.url?.endsWith('.js') && script) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=300' });
      response.end(script);
    } else if (script) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(page(`/${name}.js`, apiUrl, tenant.apiKey, tenant.tenantId));
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  const samples: Record<string, Sample[]> = { edge: [], today: [] };
  try {
    const tab = await browser.newPage();
    await tab.evaluateOnNewDocument(probe);
    const session = await tab.createCDPSession();
    /** A first visit: nothing in the browser's cache, cookies or storage. */
    const visit = async (name: string) => {
      await tab.goto('about:blank');
      await session.send('Network.clearBrowserCache');
      await session.send('Network.clearBrowserCookies');
      await session.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
      await tab.goto(`${origin}/${name}`);
      return (await tab.waitForFunction('window.__timing', { timeout: 20_000 }).then(() => tab.evaluate('window.__timing'))) as Sample;
    };
    // One of each first (not counted): the edge's copy is made, and both scripts compiled once.
    for (const name of Object.keys(scripts)) await visit(name);
    for (let run = 0; run < runs; run += 1) for (const name of Object.keys(scripts)) samples[name]!.push(await visit(name));
  } finally {
    await browser.close();
    site.close();
  }
  const summary = (measured: Sample[]): Timing => {
    const at = (pick: (sample: Sample) => number) => Math.round(median(measured.map(pick)) * 10) / 10;
    const afterFcp = measured.map(({ banner, fcp }) => Math.round((banner - fcp) * 10) / 10);
    return { fcpMs: at((sample) => sample.fcp), scriptMs: at((sample) => sample.scriptEnd), apiStartMs: at((sample) => sample.apiStart), apiEndMs: at((sample) => sample.apiEnd), bannerMs: at((sample) => sample.banner), afterFcpMs: median(afterFcp), afterFcpSamples: afterFcp };
  };
  return { runs, edge: summary(samples.edge!), today: 'missing' in today ? today : summary(samples.today!) };
};
