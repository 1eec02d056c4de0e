import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';

/**
 * The one way the project starts headless Chromium: the build shipped inside @sparticuz/chromium
 * (unpacked to /tmp, nothing downloaded), as in Lambda. Two of its default flags switch off the
 * browser's own security (same-origin policy, mixed content); they are dropped so that tests see
 * CORS exactly as a visitor's browser does and the scanner never loads tenants' pages without it.
 * The network is closed here, so background traffic (updates, safe browsing, sync) is off too.
 */
const unsafeFlags = new Set(['--disable-web-security', '--allow-running-insecure-content']);

export const chromiumArgs = (extra: readonly string[] = []): string[] => [
  ...chromium.args.filter((arg) => !unsafeFlags.has(arg)),
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  ...extra,
];

/**
 * tmpDir: a directory the caller owns and removes afterwards. The profile and every temporary file
 * Chromium makes (it honours TMPDIR) go there, so one removal cleans up after the browser.
 */
export const launchChromium = async (options: { args?: readonly string[]; tmpDir?: string } = {}): Promise<Browser> =>
  puppeteer.launch({
    executablePath: await chromium.executablePath(),
    args: chromiumArgs(options.args),
    headless: true,
    defaultViewport: { width: 1280, height: 800 },
    ...(options.tmpDir ? { userDataDir: `${options.tmpDir}/profile`, env: { ...process.env, TMPDIR: options.tmpDir } } : {}),
  });
