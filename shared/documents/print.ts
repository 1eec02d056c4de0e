import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { launchChromium } from '../browser/launch';

/**
 * Prints a document's page (render.ts) as a PDF in headless Chromium: the document printer's
 * work, in AWS (functions/document-printer) and locally (infra/local/printer.ts). The page runs
 * no script and may fetch nothing: JavaScript is off and every request but the page itself is
 * refused, whatever the HTML says. One browser per warm instance, one page per document.
 */
let browser: Promise<{ browser: Browser; dir: string }> | undefined;

const started = () => {
  browser ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-printer-'));
    return { browser: await launchChromium({ tmpDir: dir }), dir };
  })().catch((error: unknown) => {
    browser = undefined;
    throw error;
  });
  return browser;
};

export const printHtml = async (html: string): Promise<Uint8Array> => {
  const { browser: chromium } = await started();
  const page = await chromium.newPage();
  try {
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
    page.on('request', (request) => void (request.url() === 'about:blank' || request.url().startsWith('data:') ? request.continue() : request.abort('blockedbyclient')));
    await page.setContent(html, { waitUntil: 'load' });
    await page.emulateMediaType('print');
    return await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true, timeout: 30_000 });
  } finally {
    await page.close().catch(() => undefined);
  }
};

/** Closes the browser (the local stack's stop, a test's end). */
export const stopPrinting = async (): Promise<void> => {
  const running = browser;
  browser = undefined;
  if (!running) return;
  const { browser: chromium, dir } = await running.catch(() => ({ browser: undefined, dir: undefined }));
  await chromium?.close().catch(() => undefined);
  if (dir) rmSync(dir, { recursive: true, force: true });
};
