import type { Browser, Page } from 'puppeteer-core';
import { collectCspViolations } from './browser';

/**
 * Opens one of the principal's pages as a browser set to `languages` would (the page reads
 * navigator.languages), and waits until the app has put up a view other than loading. axe is
 * injected as an inline script, which the page's own policy refuses: the policy is bypassed,
 * unless `enforceCsp`, when violations are collected instead.
 */
export const openPortalPage = async (browser: Browser, url: string, languages: string[] = ['en-US', 'en'], options: { enforceCsp?: boolean } = {}): Promise<Page> => {
  const page = await browser.newPage();
  if (options.enforceCsp) await collectCspViolations(page);
  else await page.setBypassCSP(true);
  await page.evaluateOnNewDocument((preferred) => {
    Object.defineProperty((globalThis as unknown as { navigator: object }).navigator, 'languages', { get: () => preferred });
  }, languages);
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => {
    const doc = (globalThis as unknown as { document: { querySelector(selector: string): unknown } }).document;
    return !!doc.querySelector('h1') && !doc.querySelector('#loading');
  });
  return page;
};
