import type { Browser, Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { password } from './api';
import { axeViolations } from './browser';

/**
 * Driving the dashboard by accessible names in headless Chromium: the helpers a screen's browser
 * test needs (new test files use these; older ones keep their own copies for now).
 */
export const aria = (name: string, role: string) => `::-p-aria([name="${name}"][role="${role}"])`;

export const waitForH1 = (page: Page, text: string) =>
  page.waitForFunction((expected) => (globalThis as any).document.querySelector('h1')?.textContent === expected, { timeout: 15_000 }, text);

/** Waits until `selector` (main by default) shows `text`. */
export const waitForText = (page: Page, text: string, selector = 'main', timeout = 15_000) =>
  page.waitForFunction((where, expected) => (globalThis as any).document.querySelector(where)?.innerText.includes(expected), { timeout }, selector, text);

export const textOf = (page: Page, selector = 'main') => page.$eval(selector, (element) => (element as unknown as { innerText: string }).innerText);

export const expectNoAxeViolations = async (page: Page) => expect(await axeViolations(page)).toEqual([]);

export const click = async (page: Page, name: string, role = 'button') => (await page.waitForSelector(aria(name, role)))!.click();

/** Types into the control with that label, replacing what it held. */
export const fill = async (page: Page, label: string, text: string, role = 'textbox') => {
  const field = (await page.waitForSelector(aria(label, role)))!;
  await field.click({ clickCount: 3 });
  await page.keyboard.press('Backspace');
  await field.type(text);
};

/** Sets a control's value as a user's input would (for date and time pickers, whose typing differs by locale). */
export const setValue = (page: Page, selector: string, value: string) =>
  page.$eval(
    selector,
    (element, next) => {
      const control = element as unknown as { value: string; dispatchEvent(event: unknown): void };
      control.value = next;
      control.dispatchEvent(new (globalThis as any).Event('input', { bubbles: true }));
    },
    value,
  );

/** A new page of the dashboard at `path`, signed in as `email` (axe needs its inline script, which the policy refuses). */
export const openSignedIn = async (browser: Browser, baseUrl: string, email: string, path = '/') => {
  const page = await browser.newPage();
  await page.setBypassCSP(true);
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(`${baseUrl}/dashboard${path}`, { waitUntil: 'load' });
  await fill(page, 'Email', email);
  await page.type('#password', password);
  await click(page, 'Sign in');
  return page;
};
