import { UpdateCommand } from '../shared/db/commands';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../shared/db/client';
import { newTenant, password, uniqueEmail, useApi } from './support/api';
import { axeViolations, useBrowser } from './support/browser';
import { mailsTo } from './support/mail';
import { startReceiver } from './support/receiver';
import { useTestWorkers } from './support/workers';

/**
 * The Webhooks and Team screens and the public set-password page, in real headless Chromium
 * against the local server: a webhook to a local receiver with "Send test" delivered, edited and
 * deleted; users invited with a password and by mailed link, signed in, removed; the plan's
 * team-member limit; a VIEWER's read-only view. axe-core on every state.
 */
const { call, state } = useApi();
const { browser } = useBrowser();
useTestWorkers();

type Tenant = Awaited<ReturnType<typeof newTenant>>;
let tenant: Tenant;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let admin: Page;
const pages: Page[] = [];
const viewerEmail = uniqueEmail('viewer');

const aria = (name: string, role: string) => `::-p-aria([name="${name}"][role="${role}"])`;
const mainText = (target: Page) => target.$eval('main', (element) => (element as unknown as { innerText: string }).innerText);
const valueOf = (target: Page, selector: string) => target.$eval(selector, (element) => (element as unknown as { value: string }).value);
const waitForH1 = (target: Page, text: string) => target.waitForFunction((expected) => (globalThis as any).document.querySelector('h1')?.textContent === expected, { timeout: 15_000 }, text);
const waitForText = (target: Page, text: string, timeout = 15_000) =>
  target.waitForFunction((expected) => (globalThis as any).document.querySelector('main')?.innerText.includes(expected), { timeout }, text);
const expectNoAxeViolations = async (target: Page) => expect(await axeViolations(target)).toEqual([]);
const click = async (target: Page, selector: string) => (await target.waitForSelector(selector))!.click();
const fill = async (target: Page, selector: string, text: string) => {
  const box = (await target.waitForSelector(selector))!;
  await box.click({ clickCount: 3 });
  await box.press('Backspace');
  await box.type(text);
};
const dialogClosed = (target: Page) => target.waitForFunction(() => !(globalThis as any).document.querySelector('dialog[open]'));

const openDashboard = async (path = '/dashboard/') => {
  const opened = await browser().newPage();
  pages.push(opened);
  // axe is injected as an inline script, which the dashboard's policy refuses.
  await opened.setBypassCSP(true);
  await opened.goto(path.startsWith('http') ? path : `${state.baseUrl}${path}`, { waitUntil: 'load' });
  return opened;
};

const signIn = async (target: Page, email: string, secret: string) => {
  await fill(target, aria('Email', 'textbox'), email);
  await fill(target, '#password', secret);
  await click(target, aria('Sign in', 'button'));
  await waitForH1(target, 'Overview');
};

const go = async (target: Page, link: string) => {
  await click(target, `nav ${aria(link, 'link')}`);
  await waitForH1(target, link);
  await target.waitForFunction(() => !(globalThis as any).document.querySelector('main')?.innerText.includes('Loading'));
};

const webhooks = async () => (await call('GET', '/api/v1/webhooks', { token: tenant.token })).body.data as { id: string; label: string; isActive: boolean }[];
const team = async () => (await call('GET', '/api/v1/users', { token: tenant.token })).body.data as { userId: string; email: string; role: string }[];

beforeAll(async () => {
  process.env.DASHBOARD_BASE_URL = `${state.baseUrl}/dashboard`;
  // Every page polls and reloads with the same tenant's token.
  process.env.RATE_LIMIT_BEARER_PER_MINUTE = '100000';
  // The browser's sign-ins and set-password calls all come from 127.0.0.1.
  process.env.RATE_LIMIT_LOGIN_PER_IP_PER_MINUTE = '1000';
  tenant = await newTenant(call);
  receiver = await startReceiver(() => ({ status: 200 }));
  admin = await openDashboard();
  await signIn(admin, tenant.adminEmail, password);
});

afterAll(async () => {
  await Promise.all(pages.map((opened) => opened.close()));
  await receiver?.close();
  delete process.env.DASHBOARD_BASE_URL;
  delete process.env.RATE_LIMIT_BEARER_PER_MINUTE;
  delete process.env.RATE_LIMIT_LOGIN_PER_IP_PER_MINUTE;
});

describe('Webhooks screen', () => {
  it('creates a webhook after a failed save that named each field and kept the form', async () => {
    await go(admin, 'Webhooks');
    expect(await mainText(admin)).toContain('No webhooks yet.');
    await expectNoAxeViolations(admin);
    await click(admin, aria('Add webhook', 'button'));
    await admin.waitForSelector('dialog[open]');
    await expectNoAxeViolations(admin);

    // A short secret and a bad URL: the API's messages beside those fields, what was typed kept.
    await fill(admin, aria('Label', 'textbox'), 'Order system');
    await fill(admin, aria('URL', 'textbox'), 'not a url');
    await fill(admin, aria('Signing secret', 'textbox'), 'short');
    await click(admin, aria('Create webhook', 'button'));
    await admin.waitForSelector('dialog [role="alert"]');
    expect(await admin.$('#webhook-url-problem')).not.toBeNull();
    expect(await admin.$('#webhook-secret-problem')).not.toBeNull();
    expect(await admin.$eval('#webhook-secret', (element) => element.getAttribute('aria-invalid'))).toBe('true');
    expect(await valueOf(admin, '#webhook-label')).toBe('Order system');
    await expectNoAxeViolations(admin);

    await fill(admin, aria('URL', 'textbox'), receiver.url);
    await fill(admin, aria('Signing secret', 'textbox'), 'a-signing-secret-of-enough-length');
    await click(admin, aria('Create webhook', 'button'));
    await dialogClosed(admin);
    await waitForText(admin, 'Webhook "Order system" created.');
    await admin.waitForSelector('.card');
    const [created] = await webhooks();
    expect(created).toMatchObject({ label: 'Order system', url: receiver.url, events: ['consent.recorded', 'consent.withdrawn'], isActive: true });
    expect(JSON.stringify(created)).not.toContain('a-signing-secret');
    await expectNoAxeViolations(admin);
  });

  it('sends a test and shows its delivery in the history as it arrives', async () => {
    await click(admin, aria('Send test', 'button'));
    await waitForText(admin, 'Checking the delivery history');
    await admin.waitForFunction(() => [...(globalThis as any).document.querySelectorAll('.history tbody tr')].some((row: any) => row.innerText.includes('webhook.test') && row.innerText.includes('Success')), {
      timeout: 20_000,
    });
    await waitForText(admin, 'Test delivery: success (HTTP 200).');
    const [webhook] = await webhooks();
    const deliveries = (await call('GET', `/api/v1/webhooks/${webhook!.id}/deliveries`, { token: tenant.token })).body.data;
    expect(deliveries[0]).toMatchObject({ event: 'webhook.test', status: 'SUCCESS', attempts: 1, statusCode: 200 });
    expect(receiver.received).toHaveLength(1);
    const row = await admin.$eval('.history tbody tr', (element) => (element as unknown as { innerText: string }).innerText);
    expect(row).toMatch(/Success[\s\S]*\b1\b[\s\S]*200/);
    await expectNoAxeViolations(admin);
  });

  it('edits a webhook: label, events and active, the secret left as it was', async () => {
    await click(admin, aria('Edit', 'button'));
    await admin.waitForSelector('dialog[open]');
    expect(await valueOf(admin, '#webhook-label')).toBe('Order system');
    expect(await valueOf(admin, '#webhook-secret')).toBe('');
    await expectNoAxeViolations(admin);
    await fill(admin, aria('Label', 'textbox'), 'Order system (paused)');
    await click(admin, 'dialog ::-p-text(Notice published)');
    await click(admin, aria('Active (deliver events to this URL)', 'checkbox'));
    await click(admin, aria('Save changes', 'button'));
    await dialogClosed(admin);
    await waitForText(admin, 'Webhook "Order system (paused)" saved.');
    await admin.waitForFunction(() => (globalThis as any).document.querySelector('.card .badge')?.textContent === 'Inactive');
    expect((await webhooks())[0]).toMatchObject({ label: 'Order system (paused)', isActive: false, events: ['consent.recorded', 'consent.withdrawn', 'notice.published'] });
    await expectNoAxeViolations(admin);
  });

  it('deletes a webhook after asking, by keyboard', async () => {
    await admin.focus(`.card button.danger`);
    await admin.keyboard.press('Enter');
    await admin.waitForSelector('dialog[open]');
    await expectNoAxeViolations(admin);
    // Escape cancels, and the focus is back on the button that opened the dialog.
    await admin.keyboard.press('Escape');
    await dialogClosed(admin);
    await admin.waitForFunction(() => (globalThis as any).document.activeElement?.textContent === 'Delete', { timeout: 5_000 });
    await admin.keyboard.press('Enter');
    await admin.waitForSelector('dialog[open]');
    // The dialog's first control, the confirmation, has the focus.
    expect(await admin.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe('Delete webhook');
    await admin.keyboard.press('Enter');
    await dialogClosed(admin);
    await waitForText(admin, 'No webhooks yet.');
    expect(await webhooks()).toEqual([]);
    // The focus went to what happened, not to the body.
    expect(await admin.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe('Webhook "Order system (paused)" deleted.');
  });
});

describe('Team screen', () => {
  it('invites a VIEWER with an initial password, who signs in and is offered no write action', async () => {
    await go(admin, 'Team');
    expect(await mainText(admin)).toContain(tenant.adminEmail);
    await expectNoAxeViolations(admin);
    await fill(admin, aria('Email', 'textbox'), viewerEmail);
    await admin.select('#invite-role', 'VIEWER');
    await fill(admin, '#invite-password', password);
    await click(admin, aria('Invite user', 'button'));
    await waitForText(admin, `Invited ${viewerEmail} as Viewer. They can sign in now`);
    await admin.waitForFunction((email) => (globalThis as any).document.querySelector('tbody')?.innerText.includes(email), {}, viewerEmail);
    expect((await team()).find((user) => user.email === viewerEmail)).toMatchObject({ role: 'VIEWER' });
    await expectNoAxeViolations(admin);

    // A webhook to look at, so the viewer sees a card with its history.
    expect((await call('POST', '/api/v1/webhooks', { token: tenant.token, body: { label: 'CRM', url: receiver.url, secret: 'another-secret-of-length', events: ['consent.recorded'] } })).status).toBe(201);
    const viewer = await openDashboard();
    await signIn(viewer, viewerEmail, password);
    await go(viewer, 'Webhooks');
    await viewer.waitForSelector('.history');
    expect(await viewer.$$eval('main button', (buttons) => buttons.map((button) => button.textContent))).toEqual(['Refresh history']);
    await expectNoAxeViolations(viewer);
    await go(viewer, 'Team');
    expect(await mainText(viewer)).toContain('Only a super admin can manage the team');
    expect(await viewer.$$('main button, main input, main table')).toHaveLength(0);
    await expectNoAxeViolations(viewer);
  });

  it('invites without a password: the mailed link opens the set-password page, signed out, and the user signs in', async () => {
    const email = uniqueEmail('invited');
    await fill(admin, aria('Email', 'textbox'), email);
    await admin.select('#invite-role', 'DPO');
    await click(admin, aria('Invite user', 'button'));
    await waitForText(admin, `Invited ${email} as DPO. A set-password link was mailed to them.`);
    const [mail] = await mailsTo(email);
    const link = /(http\S+\/set-password#token=[\w-]+)/.exec(mail?.body.text ?? '')?.[1];
    expect(link, mail?.body.text).toMatch(new RegExp(`^${state.baseUrl}/dashboard/set-password#token=`));

    const invited = await openDashboard(link!);
    await waitForH1(invited, 'Set your password');
    // The single-use token left the address bar.
    expect(invited.url()).toBe(`${state.baseUrl}/dashboard/set-password`);
    await expectNoAxeViolations(invited);
    await fill(invited, '#new-password', 'my-own-new-password');
    await click(invited, aria('Set password', 'button'));
    await waitForH1(invited, 'Password set');
    await expectNoAxeViolations(invited);
    await click(invited, aria('Sign in', 'link'));
    await waitForH1(invited, 'Sign in');
    await signIn(invited, email, 'my-own-new-password');
    expect(await mainText(invited)).not.toContain('Set your password');

    // The link is spent: a second use shows the API's message and keeps the password typed.
    const again = await openDashboard(link!);
    await fill(again, '#new-password', 'yet-another-password');
    await click(again, aria('Set password', 'button'));
    const alert = await again.waitForSelector('main [role="alert"]');
    const refused = await call('POST', '/api/v1/auth/set-password', { body: { token: link!.split('#token=')[1], password: 'yet-another-password' } });
    expect(refused.body.error.code).toBe('SET_PASSWORD_TOKEN_USED');
    expect(await alert!.evaluate((element) => element.textContent)).toBe(refused.body.error.message);
    expect(await valueOf(again, '#new-password')).toBe('yet-another-password');
    await expectNoAxeViolations(again);
  });

  it('removes a user after asking, not offering to remove yourself', async () => {
    await admin.waitForFunction((email) => (globalThis as any).document.querySelector('tbody')?.innerText.includes(email), {}, viewerEmail);
    const viewerId = (await team()).find((user) => user.email === viewerEmail)!.userId;
    const adminRow = await admin.$eval('tbody tr', (row) => (row as unknown as { innerText: string }).innerText);
    expect(adminRow).toContain(tenant.adminEmail);
    expect(adminRow).not.toContain('Remove');
    await click(admin, `button[aria-describedby="member-${viewerId}"]`);
    await admin.waitForSelector('dialog[open]');
    await expectNoAxeViolations(admin);
    await click(admin, aria('Remove user', 'button'));
    await dialogClosed(admin);
    await waitForText(admin, `Removed ${viewerEmail}.`);
    await admin.waitForFunction((email) => !(globalThis as any).document.querySelector('tbody')?.innerText.includes(email), {}, viewerEmail);
    expect((await team()).map((user) => user.email)).not.toContain(viewerEmail);
    expect((await call('POST', '/api/v1/auth/login', { body: { email: viewerEmail, password } })).status).toBe(401);
  });

  it("shows the plan's team-member limit as such, keeping the form", async () => {
    const members = (await team()).length;
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: { PK: `TENANT#${tenant.tenantId}`, SK: 'TENANT' }, UpdateExpression: 'SET limits.teamMembers = :limit', ExpressionAttributeValues: { ':limit': members } }),
    );
    const email = uniqueEmail('one-too-many');
    await fill(admin, aria('Email', 'textbox'), email);
    await click(admin, aria('Invite user', 'button'));
    const alert = await admin.waitForSelector('main [role="alert"]');
    expect(await alert!.evaluate((element) => element.textContent)).toMatch(/^Plan limit reached: The tenant has reached its team-member limit\./);
    expect(await valueOf(admin, '#invite-email')).toBe(email);
    expect(await team()).toHaveLength(members);
    await expectNoAxeViolations(admin);
  });
});
