import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer, { TimeoutError, type Browser } from 'puppeteer-core';
import { describeError, log } from '../log';

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

export interface LaunchOptions {
  args?: readonly string[];
  /**
   * A directory the caller owns and removes afterwards. The profile and every temporary file
   * Chromium makes (it honours TMPDIR) go there, so one removal cleans up after the browser.
   */
  tmpDir?: string;
  /** The bundled build unless given. */
  executablePath?: string;
  /** How long the start may take before it fails (puppeteer's default, 30 s, unless given). */
  timeoutMs?: number;
}

/** Starts Chromium once; injectable where a caller retries (the scanner's tests make a start fail for real). */
export type Launcher = (options: LaunchOptions) => Promise<Browser>;

const defaultStartMs = 30_000;

export const launchChromium = async (options: LaunchOptions = {}): Promise<Browser> =>
  puppeteer.launch({
    executablePath: options.executablePath ?? (await chromium.executablePath()),
    args: chromiumArgs(options.args),
    headless: true,
    defaultViewport: { width: 1280, height: 800 },
    timeout: options.timeoutMs ?? defaultStartMs,
    ...(options.tmpDir ? { userDataDir: `${options.tmpDir}/profile`, env: { ...process.env, TMPDIR: options.tmpDir } } : {}),
  });

/**
 * Chromium did not start, twice. `timedOut` when the last start ran out of time (a slow, loaded
 * machine) rather than failing outright. Its message is for the people who run a scan: what
 * happened and what to do, not the browser's own words (those go to the log).
 */
export class BrowserStartError extends Error {
  constructor(
    readonly timedOut: boolean,
    cause: unknown,
  ) {
    super(
      timedOut
        ? "The scanner's browser did not start in time, twice in a row: the scanning machine was too busy."
        : "The scanner's browser could not be started, twice in a row (the service's installation may be damaged).",
      { cause },
    );
    this.name = 'BrowserStartError';
  }
}

/**
 * Starts Chromium, and once more if that fails: on a slow, loaded machine a start can run out of
 * time where the same start moments later does not (scans at load 12 ended FAILED that complete
 * at load 4). The second start gets twice the time, in a directory of its own under tmpDir (a
 * failed start may leave its profile locked). Failing twice, it throws BrowserStartError.
 */
export const launchChromiumRetrying = async (options: LaunchOptions, launch: Launcher = launchChromium): Promise<Browser> => {
  try {
    return await launch(options);
  } catch (first) {
    log.warn('Chromium did not start; starting it once more', describeError(first));
    const tmpDir = options.tmpDir ? join(options.tmpDir, 'second-start') : undefined;
    if (tmpDir) await mkdir(tmpDir, { recursive: true });
    try {
      return await launch({ ...options, tmpDir, timeoutMs: 2 * (options.timeoutMs ?? defaultStartMs) });
    } catch (error) {
      log.error('Chromium did not start a second time', describeError(error));
      throw new BrowserStartError(error instanceof TimeoutError, error);
    }
  }
};
