import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { password } from './api';
import { axeViolations } from './browser';

/**
 * Driving the dashboard through accessible names, for its browser tests: an ARIA selector, the
 * main region's text, waits on the heading and on text, sign-in and navigation, axe-core.
 */
/** The page's document, as much of it as these helpers read (the tests' tsconfig has no DOM types). */
type PageDocument = { document: { querySelector(selector: string): { textContent: string | null; innerText: string } | null } };

export const aria = (name: string, role: string) => `::-p-aria([name="${name}"][role="${role}"])`;
export const textOf = (target: Page, selector = 'main') => target.$eval(selector, (element) => (element as unknown as { innerText: string }).innerText);
export const waitForH1 = (target: Page, text: string) =>
  target.waitForFunction((expected) => (globalThis as unknown as PageDocument).document.querySelector('h1')?.textContent === expected, { timeout: 15_000 }, text);
/** Waits until `selector` (main by default) shows `text`. */
export const waitForText = (target: Page, text: string, selector = 'main', timeout = 15_000) =>
  target.waitForFunction((where, expected) => (globalThis as unknown as PageDocument).document.querySelector(where)?.innerText.includes(expected), { timeout }, selector, text);
export const expectNoAxeViolations = async (target: Page) => expect(await axeViolations(target)).toEqual([]);
export const click = async (target: Page, selector: string) => (await target.waitForSelector(selector))!.click();
export const fill = async (target: Page, selector: string, text: string) => {
  const box = (await target.waitForSelector(selector))!;
  await box.click({ clickCount: 3 });
  await box.press('Backspace');
  await box.type(text);
};

/** A new tab on the dashboard (CSP bypassed: axe is injected as an inline script, which the dashboard's policy refuses). */
export const openDashboard = async (browser: Browser, baseUrl: string, path = '/dashboard/') => {
  const opened = await browser.newPage();
  await opened.setBypassCSP(true);
  await opened.goto(`${baseUrl}${path}`, { waitUntil: 'load' });
  return opened;
};

export const signIn = async (target: Page, email: string, secret: string) => {
  await fill(target, aria('Email', 'textbox'), email);
  await fill(target, '#password', secret);
  await click(target, aria('Sign in', 'button'));
  await waitForH1(target, 'Overview');
};

/** Follows a link of the main navigation and waits for its screen to have loaded. */
export const go = async (target: Page, link: string, heading = link) => {
  await click(target, `nav ${aria(link, 'link')}`);
  await waitForH1(target, heading);
  await target.waitForFunction(() => !(globalThis as unknown as PageDocument).document.querySelector('main')?.innerText.includes('Loading'));
};

/** Sets a control's value as a user's input would (for date and time pickers, whose typing differs by locale). */
export const setValue = (target: Page, selector: string, value: string) =>
  target.$eval(
    selector,
    (element, next) => {
      const control = element as unknown as { value: string; dispatchEvent(event: unknown): void };
      control.value = next;
      control.dispatchEvent(new (globalThis as unknown as { Event: new (type: string, init: { bubbles: boolean }) => unknown }).Event('input', { bubbles: true }));
    },
    value,
  );

/** A new tab of the dashboard at `path`, signed in as `email` (without waiting for a screen). */
export const openSignedIn = async (browser: Browser, baseUrl: string, email: string, path = '/') => {
  const opened = await openDashboard(browser, baseUrl, `/dashboard${path}`);
  await opened.setViewport({ width: 1280, height: 900 });
  await fill(opened, aria('Email', 'textbox'), email);
  await opened.type('#password', password);
  await click(opened, aria('Sign in', 'button'));
  return opened;
};

/**
 * A dashboard test file's tabs: the limits raised for its many calls and sign-ins from one
 * address while it runs, and every tab it opened closed after it.
 */
export const useDashboardTabs = (browser: () => Browser, baseUrl: () => string) => {
  const pages: Page[] = [];
  beforeAll(() => {
    process.env.RATE_LIMIT_BEARER_PER_MINUTE = '100000';
    process.env.RATE_LIMIT_LOGIN_PER_IP_PER_MINUTE = '1000';
  });
  afterAll(async () => {
    await Promise.all(pages.map((opened) => opened.close()));
    delete process.env.RATE_LIMIT_BEARER_PER_MINUTE;
    delete process.env.RATE_LIMIT_LOGIN_PER_IP_PER_MINUTE;
  });
  /** A new tab signed in as `email`, on the overview. */
  const signedInTab = async (email: string, secret = password): Promise<Page> => {
    const opened = await openDashboard(browser(), baseUrl());
    pages.push(opened);
    await signIn(opened, email, secret);
    return opened;
  };
  return { signedInTab };
};
