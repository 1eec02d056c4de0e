import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { startApiServer } from '../../infra/local/server';
import { launchChromium } from '../../shared/browser/launch';
import { saveConfig } from '../../shared/cmp/service';
import { buildWebApp, initialFilesOf } from '../../web/build';
import type { BenchTenant } from '../fixtures';
import { median } from '../load';
import { printTable } from '../report';
import type { Settings } from '../settings';

export interface WidgetResult {
  bytes: number;
  gzipBytes: number;
  /** Median ms from the "Accept all" click to the next frame after the banner's own work (the INP-style figure). */
  acceptClickMedianMs: number;
  acceptClickSamples: number[];
  /** The same click on a plain page whose handler only hides its dialog, and the widget's ratio to it. */
  baselineClickMedianMs: number;
  acceptClickRatio: number;
  /** The dashboard's first load (index.html's script, stylesheet and the chunks they import) and its largest on-demand screen, gzipped. */
  dashboardInitialGzipBytes: number;
  dashboardLargestScreenGzipBytes: number;
}

/** What a first visit of the dashboard loads, and the largest screen it loads later, gzipped. */
const dashboardSizes = () => {
  const files = buildWebApp('dashboard');
  const gzipped = (path: string) => gzipSync(files.get(path)!.contents, { level: 9 }).length;
  const initial = initialFilesOf(files);
  const onDemand = [...files.keys()].filter((path) => path.endsWith('.js') && !initial.includes(path));
  return {
    dashboardInitialGzipBytes: initial.reduce((sum, path) => sum + gzipped(path), 0),
    dashboardLargestScreenGzipBytes: Math.max(0, ...onDemand.map(gzipped)),
  };
};

/**
 * Times the accept click in headless Chromium: a capturing listener stamps the click's event time,
 * the widget handles it (the banner closes; the web-event post is asynchronous), and the figure
 * is taken in the first task after the next animation frame, as Interaction to Next Paint counts.
 */
export const measureWidget = async (tenant: BenchTenant, settings: Settings): Promise<WidgetResult> => {
  const files = buildWebApp('widget');
  const script = files.get('v1/cms.js')!.contents;
  await saveConfig(tenant.tenantId, {});
  const api = await startApiServer(0);
  const page = (apiBase: string) =>
    `<!doctype html><html lang="en"><title>bench</title><script src="${apiBase}/widget/v1/cms.js" data-api-key="${tenant.apiKey}" data-tenant-id="${tenant.tenantId}" data-api-base="${apiBase}/api/v1" data-notice="off" async></script><main><h1>Bench</h1></main></html>`;
  // The reference: the same click on a plain page whose handler only hides its dialog. The ratio
  // says what the widget adds, whatever the machine.
  const baseline = `<!doctype html><html lang="en"><title>baseline</title><main><h1>Bench</h1></main><section role="dialog"><button class="p">Accept all</button></section><script>document.querySelector('button').addEventListener('click', (event) => { event.target.parentNode.hidden = true; });</script></html>`;
  const site = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(request.url === '/baseline' ? baseline : page(api.url));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // The banner shows only with a readable config: say so here rather than as a 30-second wait.
  const config = await fetch(`${api.url}/api/v1/cmp/config/${tenant.tenantId}`);
  if (config.status !== 200) throw new Error(`cookie-banner config answered ${config.status}: ${await config.text()}`);
  const browser = await launchChromium();
  const runs = settings.quick ? 5 : 25;
  let samples: number[] = [];
  let baselineSamples: number[] = [];
  try {
    const tab = await browser.newPage();
    // What the page said, to explain a banner that never shows.
    const pageLog: string[] = [];
    tab.on('console', (message) => pageLog.push(`console: ${message.text()}`));
    tab.on('pageerror', (error) => pageLog.push(`error: ${String(error)}`));
    tab.on('requestfailed', (request) => pageLog.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
    tab.on('response', (response) => pageLog.push(`${response.status()} ${response.url()}`));
    const session = await tab.createCDPSession();
    const clickLatencies = async (url: string, buttonExpression: string): Promise<number[]> => {
      const measured: number[] = [];
      for (let run = 0; run < runs; run += 1) {
        // Leave the page first: the last click's cms_consent cookie is written when its web-event
        // answer arrives, which can be after a clear done while the page is still open.
        await tab.goto('about:blank');
        await session.send('Network.clearBrowserCookies');
        await tab.goto(url);
        await tab.waitForFunction(buttonExpression, { timeout: 10_000 }).catch((error: unknown) => {
          throw new Error(`no dialog on run ${run + 1} of ${url}: ${String(error)}\n${pageLog.slice(-12).join('\n')}`);
        });
        await tab.evaluate(`window.__latency = new Promise((resolve) => addEventListener('click', (event) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - event.timeStamp))), { capture: true, once: true })); 0`);
        const button = await tab.evaluateHandle(buttonExpression);
        await (button as unknown as { click(): Promise<void> }).click();
        measured.push(Math.round(((await tab.evaluate('window.__latency')) as number) * 10) / 10);
      }
      return measured;
    };
    baselineSamples = await clickLatencies(`${origin}/baseline`, `document.querySelector('[role=dialog] button.p')`);
    samples = await clickLatencies(`${origin}/`, `document.querySelector('[data-cms]')?.shadowRoot?.querySelector('[role=dialog] button.p')`);
  } finally {
    await browser.close();
    site.close();
    api.server.closeAllConnections();
    api.server.close();
  }
  const result = {
    bytes: script.length,
    gzipBytes: gzipSync(script, { level: 9 }).length,
    acceptClickMedianMs: median(samples),
    acceptClickSamples: samples,
    baselineClickMedianMs: median(baselineSamples),
    acceptClickRatio: Math.round((median(samples) / median(baselineSamples)) * 100) / 100,
    ...dashboardSizes(),
  };
  printTable(
    'Browser apps: widget (cms.js, both banners) and dashboard',
    ['Measure', 'Figure', 'Target'],
    [
      ['Size, gzipped (JS and CSS)', `${(result.gzipBytes / 1024).toFixed(1)} KB (${result.bytes} bytes raw)`, '≤ 8 KB'],
      ['Accept-click latency, median', `${result.acceptClickMedianMs} ms over ${samples.length} clicks`, 'Sourcepoint 6 ms'],
      ['… against the same click on a plain page', `${result.acceptClickRatio}× (plain page ${result.baselineClickMedianMs} ms)`, '—'],
      ['Dashboard first load, gzipped (JS and CSS)', `${(result.dashboardInitialGzipBytes / 1024).toFixed(1)} KB; largest screen chunk ${(result.dashboardLargestScreenGzipBytes / 1024).toFixed(1)} KB, loaded on demand`, '≤ 20 KB'],
    ],
  );
  return result;
};
