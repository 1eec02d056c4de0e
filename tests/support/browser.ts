import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from '../../shared/browser/launch';

/** One real headless Chromium per test file, closed after it. */
export const useBrowser = () => {
  const state: { browser?: Browser } = {};
  beforeAll(async () => {
    state.browser = await launchChromium();
  });
  afterAll(async () => {
    await state.browser?.close();
  });
  return {
    browser: (): Browser => {
      if (!state.browser) throw new Error('browser not started');
      return state.browser;
    },
  };
};

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's WCAG 2.x A/AA (2.0-2.2) violations on the page (or inside `selector`), as id and targets. */
export const axeViolations = async (page: Page, selector?: string): Promise<{ id: string; targets: string[] }[]> => {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async (context) => {
    // Runs in the page: globalThis is its window (the project's tsconfig has no DOM types).
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(context ?? (globalThis as unknown as { document: unknown }).document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } });
    return result.violations.map((violation) => ({ id: violation.id, targets: violation.nodes.flatMap((node) => node.target.map(String)) }));
  }, selector ?? null);
};

/** Records the page's Content-Security-Policy violations (the directives violated), from its first script on. */
export const collectCspViolations = (page: Page) =>
  page.evaluateOnNewDocument(() => {
    const scope = globalThis as unknown as { addEventListener(type: string, listener: (event: { violatedDirective: string }) => void): void; cspViolations: string[] };
    scope.cspViolations = [];
    scope.addEventListener('securitypolicyviolation', (event) => scope.cspViolations.push(event.violatedDirective));
  });

/** What collectCspViolations recorded in a page or frame (undefined where it was never installed). */
export const cspViolationsOf = (target: { evaluate: Page['evaluate'] }): Promise<string[] | undefined> =>
  target.evaluate(() => (globalThis as unknown as { cspViolations?: string[] }).cspViolations);
