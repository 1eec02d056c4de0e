import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { launchChromium } from '../shared/browser/launch';

/**
 * `npm run docs:screenshots`: the pictures of README and docs/, taken from a fresh local stack
 * (in memory, on a free port, in a folder of its own) in headless Chromium, so they show what the
 * code does today and never drift by hand. Writes docs/images/*.png.
 */
const repoRoot = resolve(import.meta.dirname, '..');
const imagesDir = join(repoRoot, 'docs', 'images');
const demo = { email: 'dpo@demo.example', password: 'demo-password-1' };

const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });

/** `npm start` in memory; resolves with its banner once it answers (it answers only when ready). */
const startStack = async (port: number, workDir: string): Promise<{ child: ChildProcess; banner: string }> => {
  const child = spawn(process.execPath, [join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), join(repoRoot, 'infra/local/start.ts')], {
    cwd: workDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), SES_PORT: '0', CMS_IN_MEMORY: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let banner = '';
  child.stdout!.on('data', (chunk: Buffer) => (banner += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (banner += chunk.toString()));
  const started = Date.now();
  while (!banner.includes('Ctrl-C stops everything.')) {
    if (child.exitCode !== null || Date.now() - started > 120_000) throw new Error(`the local stack did not start:\n${banner}`);
    await new Promise((done) => setTimeout(done, 200));
  }
  return { child, banner };
};

const field = (banner: string, pattern: RegExp): string => {
  const value = pattern.exec(banner)?.[1];
  if (!value) throw new Error(`not in the banner: ${pattern}`);
  return value;
};

/** A few decisions through the API, so the records, the log and the withdrawals have something to show. */
const seedActivity = async (api: string, apiKey: string) => {
  const json = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${api}${path}`, { ...init, headers: { 'content-type': 'application/json', origin: 'http://localhost', ...(init.headers ?? {}) } });
    const body = (await response.json()) as { data?: T; error?: unknown };
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body.error)}`);
    return body.data as T;
  };
  const { token } = await json<{ token: string }>('/auth/login', { method: 'POST', body: JSON.stringify(demo) });
  const notice = await json<{ id: string; purposes: { id: string }[] }>(`/consent/public-notice?apiKey=${apiKey}`);
  const [first, second] = notice.purposes.map((purpose) => purpose.id);
  for (const [index, email] of ['asha@example.in', 'ravi@example.in', 'meera@example.in'].entries()) {
    await json('/consent/record', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ noticeId: notice.id, dataPrincipalIdentifier: email, consentGiven: { [first!]: true, [second!]: index !== 1 } }),
    });
  }
  await json('/consent/withdraw', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify({ dataPrincipalIdentifier: 'ravi@example.in', noticeId: notice.id, reason: 'Moved away' }) });
};

const aria = (name: string, role: string) => `::-p-aria([name="${name}"][role="${role}"])`;

const heading = (page: Page, text: string) =>
  page.waitForFunction((expected) => (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('h1')?.textContent === expected, { timeout: 20_000 }, text);

const shoot = async (page: Page, name: string) => {
  // Fonts and late layout settle before the picture.
  await new Promise((done) => setTimeout(done, 400));
  await page.screenshot({ path: join(imagesDir, `${name}.png`) as `${string}.png` });
  console.log(`docs/images/${name}.png`);
};

const dashboardScreens: [link: string, heading: string, file: string][] = [
  ['Overview', 'Overview', 'dashboard-overview'],
  ['Notices', 'Notices', 'dashboard-notices'],
  ['Consent records', 'Consent records', 'dashboard-records'],
  ['Withdrawals', 'Withdrawals', 'dashboard-withdrawals'],
  ['Rights requests', 'Rights requests', 'dashboard-rights'],
  ['Breaches', 'Breaches', 'dashboard-breaches'],
];

const main = async () => {
  mkdirSync(imagesDir, { recursive: true });
  const workDir = mkdtempSync(join(tmpdir(), 'cms-screenshots-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { child, banner } = await startStack(port, workDir);
  const browser = await launchChromium({ tmpDir: workDir });
  try {
    const apiKey = field(banner, /API key\s+(cms_\S+)/);
    const tenantId = field(banner, /Demo tenant\s+(\S+)/);
    const withdrawalPage = field(banner, /Withdrawal page\s+(\S+)/);
    await seedActivity(`${base}/api/v1`, apiKey);
    // The evidence log signs a checkpoint within seconds; the record's proof then shows it.
    await new Promise((done) => setTimeout(done, 12_000));

    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(`${base}/dashboard/`, { waitUntil: 'load' });
    await (await page.waitForSelector(aria('Email', 'textbox')))!.type(demo.email);
    await page.type('#password', demo.password);
    await (await page.waitForSelector(aria('Sign in', 'button')))!.click();
    await heading(page, 'Overview');
    for (const [link, title, file] of dashboardScreens) {
      await (await page.waitForSelector(`nav ${aria(link, 'link')}`))!.click();
      await heading(page, title);
      await page.waitForFunction(() => !(globalThis as unknown as { document: { querySelector(s: string): { innerText: string } | null } }).document.querySelector('main')?.innerText.includes('Loading'));
      await shoot(page, file);
    }
    await (await page.waitForSelector(`nav ${aria('Consent records', 'link')}`))!.click();
    await heading(page, 'Consent records');
    await (await page.waitForSelector('main table a'))!.click();
    await (await page.waitForSelector(aria('Verify proof', 'button')))!.click();
    await page.waitForFunction(() => /holds|does not hold/.test((globalThis as unknown as { document: { querySelector(s: string): { innerText: string } | null } }).document.querySelector('main')?.innerText ?? ''), { timeout: 20_000 });
    await shoot(page, 'dashboard-record-proof');

    const widget = await browser.newPage();
    await widget.setViewport({ width: 1280, height: 800 });
    await widget.goto(`${base}/widget/demo#apiKey=${apiKey}&tenantId=${tenantId}`, { waitUntil: 'networkidle0' });
    await shoot(widget, 'widget-banners');

    const portal = await browser.newPage();
    await portal.setViewport({ width: 1280, height: 900 });
    await portal.goto(withdrawalPage, { waitUntil: 'networkidle0' });
    await shoot(portal, 'portal-public-page');
  } finally {
    await browser.close();
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
    rmSync(workDir, { recursive: true, force: true });
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
