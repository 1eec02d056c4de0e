import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principalHash } from '../shared/consent/principal';
import { newTimeOrderedId } from '../shared/ids';
import { addUser } from '../shared/tenants/service';
import { newTenant, password, uniqueEmail, useApi } from './support/api';
import { axeViolations, collectCspViolations, cspViolationsOf, useBrowser } from './support/browser';
import { builtRecord, publishedNotice, recordConsent, storeRecords } from './support/consent';
import { waitForLog } from './support/evidence';
import { ownTenants, useTestWorkers } from './support/workers';

/**
 * The dashboard's exports in real headless Chromium: "Export evidence" on a record and on a
 * principal search (the downloaded pack verifies offline; the printable page renders under its own
 * policy), "Export records" of a date range page by page with its progress, keyboard use, axe, and
 * nothing of it offered to a VIEWER.
 */
const { call, state } = useApi();
const { browser } = useBrowser();
useTestWorkers();
const run = promisify(execFile);

let tenant: Awaited<ReturnType<typeof newTenant>>;
let bulk: Awaited<ReturnType<typeof newTenant>>;
let principal: string;
let recordId: string;
let viewerEmail: string;
let downloads: string;
let context: BrowserContext;
const bulkCount = 3300;

const aria = (name: string, role: string) => `::-p-aria([name="${name}"][role="${role}"])`;
const waitForH1 = (target: Page, text: string) =>
  target.waitForFunction((expected) => (globalThis as any).document.querySelector('h1')?.textContent === expected, { timeout: 15_000 }, text);
const statusOf = (target: Page, id: string) => target.$eval(`#${id}`, (element) => element.textContent ?? '');

/** A dashboard tab whose downloads land in `downloads`; axe needs the policy bypassed, the CSP check does not. */
const openSignedIn = async (email: string, path: string, options: { strict?: boolean } = {}) => {
  const page = await context.newPage();
  if (options.strict) await collectCspViolations(page);
  else await page.setBypassCSP(true);
  await page.goto(`${state.baseUrl}/dashboard${path}`, { waitUntil: 'load' });
  await page.waitForSelector(aria('Email', 'textbox'));
  await page.type('#email', email);
  await page.type('#password', password);
  await (await page.$(aria('Sign in', 'button')))!.click();
  return page;
};

/** The file the browser saved under `name` (the download finished: no partial file is left), removed after reading. */
const downloaded = async (name: string): Promise<string> => {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const files = await readdir(downloads);
    if (files.includes(name) && !files.some((file) => file.endsWith('.crdownload'))) {
      const text = await readFile(join(downloads, name), 'utf8');
      await rm(join(downloads, name));
      return text;
    }
    if (Date.now() > deadline) throw new Error(`no download ${name}; found ${files.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** Writes a downloaded file elsewhere (as a regulator would keep it) and returns its path. */
const kept = async (text: string, name: string) => {
  const file = join(await mkdtemp(join(tmpdir(), 'dashboard-pack-')), name);
  await writeFile(file, text);
  return file;
};
const verifyPack = async (text: string, name: string) => (await run(process.execPath, ['scripts/verify-evidence-pack.mjs', await kept(text, name)])).stdout;

beforeAll(async () => {
  downloads = await mkdtemp(join(tmpdir(), 'dashboard-downloads-'));
  // Chromium here runs as a single process (as in Lambda), which cannot open a second browser
  // context: the default one saves downloads into this file's directory.
  context = browser().defaultBrowserContext();
  await (await browser().target().createCDPSession()).send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
  tenant = await newTenant(call);
  const notice = await publishedNotice(call, tenant.token);
  principal = uniqueEmail('principal');
  const consentGiven = { [notice.required]: true, [notice.optional]: true };
  recordId = (await recordConsent(call, tenant.token, { noticeId: notice.noticeId, dataPrincipalIdentifier: principal, consentGiven })).body.data.consentRecordId;
  await recordConsent(call, tenant.token, { noticeId: notice.noticeId, dataPrincipalIdentifier: principal, consentGiven: { ...consentGiven, [notice.optional]: false } });
  expect((await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: principal, noticeId: notice.noticeId } })).status).toBe(200);
  await waitForLog(tenant.tenantId, 3);
  viewerEmail = uniqueEmail('viewer');
  await addUser({ tenantId: tenant.tenantId, email: viewerEmail, password, role: 'VIEWER' });

  // A tenant with thousands of records over three days, not logged by the workers (the export reads the records alone).
  bulk = await newTenant(call);
  ownTenants.delete(bulk.tenantId);
  const hash = (text: string) => createHash('sha256').update(text).digest('hex');
  await storeRecords(
    Array.from({ length: bulkCount }, (_, index) => {
      const createdAt = new Date(Date.parse('2026-04-01T00:00:00.000Z') + (index % 3) * 86_400_000 + index * 1000).toISOString();
      return builtRecord({
        tenantId: bulk.tenantId, recordId: newTimeOrderedId(new Date(createdAt)), noticeId: notice.noticeId, noticeVersionNumber: 1, noticeTextHash: hash('text'), languageShown: 'EN',
        positionShown: 'api', dataPrincipalHash: hash(`p${index}`), externalId: null, consentGiven: { [notice.required]: true }, createdAt, ipAddress: '192.0.2.1', userAgent: null,
      });
    }),
  );
});

describe('Export evidence', () => {
  let page: Page;
  afterAll(async () => {
    await page?.close();
  });

  it("saves a record's evidence pack and its printable page; the pack verifies offline", async () => {
    page = await openSignedIn(tenant.adminEmail, `/records/${recordId}`);
    await waitForH1(page, 'Consent record');
    await page.waitForSelector(aria('Export evidence', 'button'));
    expect(await axeViolations(page)).toEqual([]);
    await (await page.$(aria('Export evidence', 'button')))!.click();
    const name = `evidence-pack-${principalHash(principal).slice(0, 12)}`;
    const json = await downloaded(`${name}.json`);
    expect(JSON.parse(json)).toMatchObject({ kind: 'consent-service/evidence-pack', records: [{ recordId }, {}], withdrawals: [{}] });
    await page.waitForFunction(() => (globalThis as any).document.querySelector('#record-pack-said')?.textContent.startsWith('Saved'));
    expect(await statusOf(page, 'record-pack-said')).toBe(`Saved ${name}.json: 2 record(s) and 1 withdrawal(s).`);
    expect(await verifyPack(json, 'pack.json')).toMatch(/^VALID \(on the pack's own keys only\): .*2 record\(s\), 1 withdrawal\(s\)/);

    // The pack as a document a DPO attaches: the PDF the service prints from the same page.
    await (await page.$(aria('Document (PDF)', 'button')))!.click();
    expect((await downloaded(`${name}.pdf`)).startsWith('%PDF-')).toBe(true);
    await page.waitForFunction(() => (globalThis as any).document.querySelector('#record-pack-said')?.textContent.includes('.pdf'));

    await (await page.$(aria('Printable page (HTML)', 'button')))!.click();
    const html = await downloaded(`${name}.html`);
    expect(html).toMatch(/^<!doctype html>/);
    expect(await verifyPack(html, 'pack.html')).toMatch(/^VALID/);
    expect(await axeViolations(page)).toEqual([]);

    // The page as a regulator opens it: styled by its one allowed stylesheet, no policy violation, axe-clean.
    const opened = await context.newPage();
    try {
      await collectCspViolations(opened);
      opened.on('dialog', () => {
        throw new Error('the printable page ran a script');
      });
      const file = await kept(html, 'pack.html');
      await opened.goto(`file://${file}`, { waitUntil: 'load' });
      expect(await opened.$eval('h1', (element) => element.textContent)).toBe('Consent evidence pack');
      // The stylesheet applied: the policy allowed it by its hash.
      expect(await opened.$eval('h2', (element) => (globalThis as any).getComputedStyle(element).borderBottomStyle)).toBe('solid');
      expect(await cspViolationsOf(opened)).toEqual([]);
      expect(await opened.$$eval('main h2', (headings) => headings.map((heading) => heading.textContent))).toEqual([
        'How to check it', 'What the person decided', 'The notices as they were shown', 'The evidence', 'The signed log',
      ]);
      await opened.setBypassCSP(true);
      await opened.goto(`file://${file}`, { waitUntil: 'load' });
      expect(await axeViolations(opened)).toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it("saves a principal's pack from a search, by keyboard", async () => {
    await (await page.$('.crumbs a'))!.click();
    await waitForH1(page, 'Consent records');
    await page.type('#filter-email', principal);
    await (await page.$(aria('Search', 'button')))!.click();
    await page.waitForSelector('#principal-pack-heading');
    expect(await axeViolations(page)).toEqual([]);
    await page.focus('#filter-email');
    let focused = '';
    for (let index = 0; index < 10 && focused !== 'Export evidence'; index++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => ((globalThis as any).document.activeElement?.textContent ?? '').trim());
    }
    expect(focused).toBe('Export evidence');
    await page.keyboard.press('Enter');
    const pack = JSON.parse(await downloaded(`evidence-pack-${principalHash(principal).slice(0, 12)}.json`));
    expect(pack.principalHash).toBe(principalHash(principal));
    expect(pack.records).toHaveLength(2);
  });
});

describe('Export records', () => {
  it('saves a date range as one file, page by page, saying how far it got, under the dashboard policy', async () => {
    const page = await openSignedIn(bulk.adminEmail, '/records', { strict: true });
    try {
      await waitForH1(page, 'Consent records');
      await page.waitForSelector(aria('Export records', 'button'));
      const setDate = (id: string, value: string) =>
        page.$eval(`#${id}`, (element, day) => {
          const input = element as unknown as { value: string; dispatchEvent(event: unknown): void };
          input.value = day;
          input.dispatchEvent(new (globalThis as any).Event('input', { bubbles: true }));
        }, value);
      await setDate('export-from', '2026-04-01');
      await setDate('export-to', '2026-04-02');
      // Every status line the export says, as it says it.
      await page.evaluate(() => {
        const scope = globalThis as any;
        scope.exportSaid = [];
        new scope.MutationObserver(() => scope.exportSaid.push(scope.document.querySelector('#export-said').textContent)).observe(scope.document.querySelector('#export-said'), { childList: true, subtree: true, characterData: true });
      });
      await (await page.$(aria('Export records', 'button')))!.click();
      const expected = bulkCount - bulkCount / 3;
      const csv = await downloaded('consent-records-2026-04-01-to-2026-04-02.csv');
      const lines = csv.trim().split('\r\n');
      expect(lines[0]).toMatch(/^id,createdAt,dataPrincipalHash,/);
      expect(lines).toHaveLength(1 + expected);
      await page.waitForFunction(() => (globalThis as any).document.querySelector('#export-said')?.textContent.startsWith('Saved'));
      const said: string[] = await page.evaluate(() => (globalThis as any).exportSaid);
      expect(said).toContain('2,000 records exported…');
      expect(said.at(-1)).toBe(`Saved consent-records-2026-04-01-to-2026-04-02.csv: ${expected.toLocaleString('en-IN')} records.`);
      expect(await cspViolationsOf(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('as a VIEWER', () => {
  it('offers neither export', async () => {
    const page = await openSignedIn(viewerEmail, `/records/${recordId}`);
    try {
      await waitForH1(page, 'Consent record');
      await page.waitForSelector(aria('Verify proof', 'button'));
      expect(await page.$$(aria('Export evidence', 'button'))).toHaveLength(0);
      await (await page.$('.crumbs a'))!.click();
      await waitForH1(page, 'Consent records');
      await page.waitForSelector('table.records');
      expect(await page.$$(aria('Export records', 'button'))).toHaveLength(0);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
