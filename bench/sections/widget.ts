import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { startApiServer } from '../../infra/local/server';
import { launchChromium } from '../../shared/browser/launch';
import { saveConfig } from '../../shared/cmp/service';
import { buildWebApp } from '../../web/build';
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
}

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
  const site = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page(api.url));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const browser = await launchChromium();
  const samples: number[] = [];
  try {
    const tab = await browser.newPage();
    const session = await tab.createCDPSession();
    for (let run = 0; run < (settings.quick ? 5 : 25); run += 1) {
      await session.send('Network.clearBrowserCookies');
      await tab.goto(siteUrl);
      await tab.waitForFunction(`document.querySelector('[data-cms]')?.shadowRoot?.querySelector('[role=dialog] button')`);
      await tab.evaluate(`window.__latency = new Promise((resolve) => addEventListener('click', (event) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - event.timeStamp))), { capture: true, once: true })); 0`);
      const button = await tab.evaluateHandle(`document.querySelector('[data-cms]').shadowRoot.querySelector('[role=dialog] button.p')`);
      await (button as unknown as { click(): Promise<void> }).click();
      samples.push(Math.round(((await tab.evaluate('window.__latency')) as number) * 10) / 10);
    }
  } finally {
    await browser.close();
    site.close();
    api.server.closeAllConnections();
    api.server.close();
  }
  const result = { bytes: script.length, gzipBytes: gzipSync(script, { level: 9 }).length, acceptClickMedianMs: median(samples), acceptClickSamples: samples };
  printTable(
    'Widget (cms.js, both banners)',
    ['Measure', 'Figure', 'Target'],
    [
      ['Size, gzipped (JS and CSS)', `${(result.gzipBytes / 1024).toFixed(1)} KB (${result.bytes} bytes raw)`, '≤ 12 KB'],
      ['Accept-click latency, median', `${result.acceptClickMedianMs} ms over ${samples.length} clicks`, 'Sourcepoint 6 ms'],
    ],
  );
  return result;
};
