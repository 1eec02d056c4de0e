import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../shared/tenants/service';
import { newTenant, password, uniqueEmail, useApi } from './support/api';
import { useBrowser } from './support/browser';
import { aria, click, expectNoAxeViolations, fill, go, textOf, useDashboardTabs, waitForH1, waitForText } from './support/dashboard';
import { mappedPrincipal } from './support/rights';

/**
 * The Rights requests and Data map screens in headless Chromium: the data map with its refused
 * deletes explained, a request logged, started, worked through asset by asset, previewed and
 * resolved, and a VIEWER's read-only view; axe-core on every state.
 */
const { call, state } = useApi();
const { browser } = useBrowser();

type Tenant = Awaited<ReturnType<typeof newTenant>>;
let tenant: Tenant;
let principal: string;
let admin: Page;
const { signedInTab } = useDashboardTabs(browser, () => state.baseUrl);
/** The text of the document preview: the service's page, inside the preview's shadow root. */
const previewText = (target: Page) => target.$eval('.document-preview', (host) => ((host as unknown as { shadowRoot: { querySelector(selector: string): { innerText: string } | null } }).shadowRoot?.querySelector('article')?.innerText ?? ''));
const dialogClosed = (target: Page) => target.waitForFunction(() => !(globalThis as unknown as { document: { querySelector(selector: string): unknown } }).document.querySelector('dialog[open]'));

beforeAll(async () => {
  tenant = await newTenant(call);
  principal = uniqueEmail('principal');
  await mappedPrincipal(call, tenant, principal);
  admin = await signedInTab(tenant.adminEmail);
});

describe('Data map screen', () => {
  it('lists the map, adds a processor after a failed save, and explains each refused delete', async () => {
    await go(admin, 'Data map');
    const shown = await textOf(admin);
    expect(shown).toMatch(/Orders.*orders database, IN.*In the published notice/);
    expect(shown).toMatch(/Cyber cell\s*Lawful disclosure/);
    await expectNoAxeViolations(admin);

    await click(admin, aria('Add processor', 'button'));
    await admin.waitForSelector('dialog[open]');
    await fill(admin, aria('Name', 'textbox'), 'Analytics Inc');
    await click(admin, aria('Add processor', 'button') + ':not(nav *)');
    await admin.waitForSelector('#processor-country-problem');
    expect(await admin.$eval('#processor-country', (element) => element.getAttribute('aria-invalid'))).toBe('true');
    await expectNoAxeViolations(admin);
    await fill(admin, aria('Country', 'textbox'), 'US');
    await click(admin, 'dialog button[type="submit"]');
    await dialogClosed(admin);
    await waitForText(admin, 'Processor "Analytics Inc" saved.');

    await click(admin, aria('Delete Courier Co', 'button'));
    await click(admin, aria('Delete processor', 'button'));
    await admin.waitForSelector('dialog [role="alert"]');
    expect(await admin.$eval('dialog [role="alert"]', (element) => element.textContent)).toBe('"Courier Co" is listed by "Orders": take it off them before deleting it');
    await expectNoAxeViolations(admin);
    await click(admin, 'dialog ' + aria('Cancel', 'button'));
    await dialogClosed(admin);

    await click(admin, aria('Delete Orders', 'button'));
    await click(admin, aria('Delete asset', 'button'));
    await admin.waitForSelector('dialog [role="alert"]');
    expect(await admin.$eval('dialog [role="alert"]', (element) => element.textContent)).toContain('"Orders" serves Delivery, in the published notice');
    await click(admin, 'dialog ' + aria('Cancel', 'button'));
    await dialogClosed(admin);

    await click(admin, aria('Delete Analytics Inc', 'button'));
    await click(admin, aria('Delete processor', 'button'));
    await dialogClosed(admin);
    await waitForText(admin, '"Analytics Inc" deleted.');
  });
});

describe('Rights requests screen', () => {
  it('logs an erasure, starts it, works through its assets, previews the summary and resolves it', async () => {
    await go(admin, 'Rights requests');
    expect(await textOf(admin)).toContain('No requests match.');
    await expectNoAxeViolations(admin);
    await click(admin, aria('Log a request', 'button'));
    await admin.waitForSelector('dialog[open]');
    await admin.select('#log-type', 'ERASURE');
    await fill(admin, '#log-identifier', principal);
    await admin.select('#log-channel', 'LETTER');
    await fill(admin, '#log-details', 'Please erase everything about me.');
    await fill(admin, '#log-note', 'Asha phoned and asked; checked her order number.');
    // The dialog says what the principal will see, and that the team note is not part of it.
    expect(await textOf(admin, 'dialog[open]')).toMatch(/That page shows them the type of request, what they asked as you write it here.*Your team note is never shown to them/s);
    await expectNoAxeViolations(admin);
    await click(admin, aria('Log request', 'button'));
    await waitForH1(admin, 'Erasure request');
    await waitForText(admin, 'Letter');
    expect(await textOf(admin)).toMatch(/What the principal asked\s*Please erase everything about me\.\s*Team note \(not shown to the principal\)\s*Asha phoned and asked/);
    await expectNoAxeViolations(admin);

    await click(admin, aria('Start', 'button'));
    await waitForText(admin, 'Work on the request started.');
    // Fulfilling with pending assets is refused, and says which.
    await fill(admin, '#resolve-response', 'Erased, invoices kept.');
    await click(admin, aria('Resolve request', 'button'));
    await waitForText(admin, 'still pending');
    await click(admin, aria('Done: CRM', 'button'));
    await waitForText(admin, 'CRM: done.');
    await click(admin, aria('Retain: Orders', 'button'));
    await admin.waitForSelector('dialog[open]');
    await fill(admin, '#retain-note', 'Invoices: 8 years under the Companies Act, 2013');
    await click(admin, 'dialog button[type="submit"]');
    await dialogClosed(admin);
    await waitForText(admin, 'Orders: retained.');
    await click(admin, aria('Preview the access summary', 'button'));
    await admin.waitForFunction(() => (globalThis as any).document.querySelector('.document-preview')?.shadowRoot?.querySelector('article')?.innerText.includes('Shared with'));
    const summary = await previewText(admin);
    expect(summary).toMatch(/Courier Co[\s\S]*Data Processor[\s\S]*IN[\s\S]*address and email/);
    expect(summary).not.toContain('Cyber cell');
    expect(summary).not.toMatch(/\d{4}-\d{2}-\d{2}T|\b(true|false|null)\b/);
    await expectNoAxeViolations(admin);
    // On a phone: the page does not scroll sideways, and each table's rows stack under their column names.
    await admin.setViewport({ width: 375, height: 800 });
    const narrow = await admin.$eval('.document-preview', (host) => {
      const root = (host as any).shadowRoot;
      const cells = [...root.querySelectorAll('td')];
      return {
        fits: host.getBoundingClientRect().right <= 375 && (host as any).scrollWidth <= (host as any).clientWidth + 1,
        overflowing: [...root.querySelectorAll('table, dl, pre')].filter((element: any) => element.scrollWidth > element.clientWidth + 1).length,
        stacked: cells.length > 0 && cells.every((cell: any) => (globalThis as any).getComputedStyle(cell).display === 'block'),
        labelled: cells.every((cell: any) => Boolean(cell.dataset.label)),
      };
    });
    expect(narrow).toEqual({ fits: true, overflowing: 0, stacked: true, labelled: true });
    await expectNoAxeViolations(admin);
    await admin.setViewport({ width: 1280, height: 900 });
    await click(admin, aria('Resolve request', 'button'));
    await waitForText(admin, 'Request resolved; the principal is told.');
    const shown = await textOf(admin);
    expect(shown).toMatch(/Consent withdrawn\s*withdrawal/);
    // Who acted, by email and role as they were then: no user id.
    expect(shown).toContain(`resolved by ${tenant.adminEmail} (administrator)`);
    expect(shown).not.toMatch(/by user:/);
    await expectNoAxeViolations(admin);

    await go(admin, 'Rights requests');
    await admin.select('#filter-type', 'ERASURE');
    await click(admin, aria('Show', 'button'));
    await waitForText(admin, 'Resolved');
    await expectNoAxeViolations(admin);
  });

  it('shows a VIEWER the requests and the data map without a control that changes them', async () => {
    const viewerEmail = uniqueEmail('viewer');
    await addUser({ tenantId: tenant.tenantId, email: viewerEmail, password, role: 'VIEWER' });
    const viewer = await signedInTab(viewerEmail);
    await go(viewer, 'Rights requests');
    expect(await viewer.$(aria('Log a request', 'button'))).toBeNull();
    expect(await viewer.$(aria('Save periods', 'button'))).toBeNull();
    await click(viewer, 'main table a');
    await waitForH1(viewer, 'Erasure request');
    expect(await viewer.$(aria('Resolve request', 'button'))).toBeNull();
    await expectNoAxeViolations(viewer);
    await go(viewer, 'Data map');
    expect(await viewer.$(aria('Add asset', 'button'))).toBeNull();
    expect(await viewer.$('td.row-actions')).toBeNull();
    await expectNoAxeViolations(viewer);
  });
});
