import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll } from 'vitest';
import type { Call } from './api';

/**
 * A tenant's website on its own loopback origin: each path serves the HTML a test sets for it, so
 * the widget runs cross-origin to the API exactly as on a real site.
 */
export const useFixtureSite = () => {
  const pages = new Map<string, string>();
  const state: { server?: Server; origin: string } = { origin: '' };
  beforeAll(async () => {
    state.server = createServer((request, response) => {
      const html = pages.get((request.url ?? '/').split('?')[0]!);
      response.writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(html ?? 'not found');
    });
    await new Promise<void>((resolve) => state.server!.listen(0, '127.0.0.1', resolve));
    state.origin = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    state.server?.closeAllConnections();
    await new Promise<void>((resolve) => (state.server ? state.server.close(() => resolve()) : resolve()));
  });
  /** Serves `html` at `path` and returns its URL. */
  const serve = (path: string, html: string): string => {
    pages.set(path, html);
    return `${state.origin}${path}`;
  };
  /**
   * A page with no cookies, storage or cached answers left by another test on this origin. (The bundled Chromium
   * runs single-process, which cannot open a second browser context, so the site's data is cleared.)
   */
  const freshPage = async (browser: Browser): Promise<{ page: Page; close: () => Promise<void> }> => {
    const page = await browser.newPage();
    const session = await page.createCDPSession();
    await session.send('Network.clearBrowserCookies');
    // A new visitor has nothing in the browser's HTTP cache either (the bootstrap is revalidated from it).
    await session.send('Network.clearBrowserCache');
    await session.send('Storage.clearDataForOrigin', { origin: state.origin, storageTypes: 'all' });
    return { page, close: () => page.close() };
  };
  return { serve, freshPage };
};

export interface EmbedOptions {
  apiBaseUrl: string;
  apiKey: string;
  tenantId: string;
  attributes?: Record<string, string>;
  head?: string;
  body?: string;
  lang?: string;
}

/** The embed tag exactly as the issue's contract spells it, inside a minimal accessible page. */
export const embedPage = (options: EmbedOptions): string => {
  const extra = Object.entries(options.attributes ?? {})
    .map(([name, value]) => ` ${name}="${value}"`)
    .join('');
  return `<!doctype html><html lang="${options.lang ?? 'en'}"><head><meta charset="utf-8"><title>Shop</title>${options.head ?? ''}
<script src="${options.apiBaseUrl}/widget/v1/cms.js" data-api-key="${options.apiKey}" data-tenant-id="${options.tenantId}" data-api-base="${options.apiBaseUrl}/api/v1"${extra} async></script>
</head><body><main><h1>Shop</h1><a href="#top">A link on the page</a>${options.body ?? ''}</main></body></html>`;
};

/** Opens the page and waits for cms:ready; collects page errors so a test can assert there were none. */
export const openPage = async (page: Page, url: string): Promise<{ errors: string[] }> => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.evaluateOnNewDocument('window.__ready = new Promise((resolve) => window.addEventListener("cms:ready", (event) => resolve(event.detail)))');
  await page.goto(url);
  await page.waitForFunction('window.__ready', { timeout: 20_000 });
  await page.evaluate('window.__ready');
  return { errors };
};

/** Runs in the page against the widget's shadow root (the tests' tsconfig has no DOM types, so the code is a string). */
const inWidget = <T>(page: Page, body: string): Promise<T> =>
  page.evaluate(`(() => { const root = document.querySelector('[data-cms]')?.shadowRoot; ${body} })()`) as Promise<T>;

/** The open dialogs' headings (empty when no banner is shown). */
export const dialogTitles = (page: Page): Promise<string[]> =>
  inWidget(page, `return root ? [...root.querySelectorAll('[role=dialog] h2')].map((h) => h.textContent) : [];`);

export const dialogText = (page: Page): Promise<string> => inWidget(page, `return root ? [...root.querySelectorAll('[role=dialog]')].map((d) => d.textContent).join('\\n') : '';`);

export const clickButton = async (page: Page, label: string): Promise<void> => {
  const clicked = await inWidget<boolean>(page, `const button = [...(root?.querySelectorAll('button') ?? [])].find((b) => b.textContent === ${JSON.stringify(label)}); button?.click(); return !!button;`);
  if (!clicked) throw new Error(`no button "${label}" in the widget`);
};

export const setSwitch = (page: Page, id: string, checked: boolean): Promise<void> =>
  inWidget(page, `const input = root.getElementById(${JSON.stringify(id)}); if (input.checked !== ${checked}) input.click();`);

/** Starts listening for the next cms:<name> event; the returned function waits for it and gives its detail. */
export const nextEvent = async (page: Page, name: string): Promise<() => Promise<any>> => {
  await page.evaluate(`window.__next = new Promise((resolve) => window.addEventListener(${JSON.stringify(`cms:${name}`)}, (event) => resolve(event.detail), { once: true })); 0`);
  return () => page.evaluate('window.__next');
};

/** Publishes the tenant's cookie banner configuration (the public config is 404 until the first PUT). */
export const configureCookies = async (call: Call, token: string, body: Record<string, unknown> = {}) => {
  const response = await call('PUT', '/api/v1/cmp/config', { token, body });
  if (response.status !== 200) throw new Error(`cmp config: ${JSON.stringify(response.body)}`);
  return response.body.data;
};

/** The text of the element focused inside the widget, or null when focus is outside it. */
export const focusedInWidget = (page: Page): Promise<string | null> =>
  inWidget(page, `const active = root?.activeElement; return active ? active.textContent || active.tagName : null;`);

/** The attributes of the open dialog's root: its language and direction. */
export const dialogLanguage = (page: Page): Promise<{ lang: string; dir: string } | null> =>
  inWidget(page, `const dialog = root?.querySelector('[role=dialog]'); return dialog ? { lang: dialog.lang, dir: dialog.dir } : null;`);

/** Chooses a language in the open banner's switcher and waits for the banner to show it (the widget fetches that language's bootstrap first). */
export const chooseLanguage = async (page: Page, code: string): Promise<void> => {
  await inWidget(page, `const select = root.querySelector('select'); select.value = ${JSON.stringify(code)}; select.dispatchEvent(new Event('change'));`);
  await page.waitForFunction(`document.querySelector('[data-cms]')?.shadowRoot?.querySelector('[role=dialog]')?.lang === ${JSON.stringify(code.toLowerCase())}`, { timeout: 10_000 });
};
