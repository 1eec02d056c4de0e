import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../shared/tenants/service';
import { englishWords } from '../shared/words/catalogue';
import { newTenant, password, uniqueEmail, useApi } from './support/api';
import { useBrowser } from './support/browser';
import { readBuiltIn } from '../shared/words/built-in-words';
import { aria, click, expectNoAxeViolations, fill, go, textOf, useDashboardTabs, waitForText } from './support/dashboard';

/**
 * "Words people see" in headless Chromium: the setting for unreviewed words, drafting a language,
 * a surface reviewed side by side with English with the keyboard alone (a lost {slot} refused
 * beside its field), and a VIEWER's read-only view; axe-core on every state.
 */
const { call, state } = useApi();
const { browser } = useBrowser();

type Tenant = Awaited<ReturnType<typeof newTenant>>;
let tenant: Tenant;
let admin: Page;
const { signedInTab } = useDashboardTabs(browser, () => state.baseUrl);

const focusedId = (page: Page) => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id ?? '');
const languageWords = async (language: string) => (await call('GET', `/api/v1/words/languages/${language}`, { token: tenant.token })).body.data as { status: string; words: { key: string; text: string | null; status: string }[] };

beforeAll(async () => {
  tenant = await newTenant(call);
  admin = await signedInTab(tenant.adminEmail);
});

describe('Words people see', () => {
  it('chooses machine drafts, drafts Tamil, and reviews the notice banner side by side with English, keyboard only', async () => {
    await go(admin, 'Words people see');
    const shown = await textOf(admin);
    // A fresh tenant shows the service's own Tamil, and the local stack says its drafts are stand-ins.
    expect(shown).toMatch(/Tamil\s*The service's words\s*0 of \d+\s*0\s*0\s*Yes: the service's words/);
    expect(shown).toContain('This is the local stack: drafts made with "Draft" come from a stand-in translator');
    await expectNoAxeViolations(admin);

    await click(admin, aria('Machine drafts until a person reviews them', 'radio'));
    await click(admin, aria('Save setting', 'button'));
    await waitForText(admin, 'Setting saved.');
    expect((await call('GET', '/api/v1/words', { token: tenant.token })).body.data.unreviewed).toBe('MACHINE_DRAFTS');

    await click(admin, aria('Draft Tamil', 'button'));
    await waitForText(admin, 'Tamil drafted: machine draft, to review.');
    await waitForText(admin, 'Machine draft, to review', 'table');
    expect(await textOf(admin, 'table')).toMatch(/Tamil\s*Machine draft, to review\s*0 of \d+\s*\d+\s*0\s*Yes/);
    await click(admin, aria('Draft Assamese', 'button'));
    await waitForText(admin, 'Assamese drafted: needs translation.');
    await expectNoAxeViolations(admin);

    await click(admin, aria('Edit Tamil words', 'button'));
    await admin.waitForSelector('#word-acceptAll');
    expect(await focusedId(admin)).toBe('editor-heading');
    expect(await admin.$eval('#word-acceptAll', (element) => [(element as unknown as { value: string }).value, element.getAttribute('lang'), element.getAttribute('dir')])).toEqual([
      '[TA machine draft] Accept all',
      'ta',
      'ltr',
    ]);
    await expectNoAxeViolations(admin);

    // Keyboard only: Tab to Accept all's field, replace the draft, Tab on to the save button, Enter.
    for (let tabs = 0; (await focusedId(admin)) !== 'word-acceptAll' && tabs < 10; tabs += 1) await admin.keyboard.press('Tab');
    expect(await focusedId(admin)).toBe('word-acceptAll');
    await admin.keyboard.down('Control');
    await admin.keyboard.press('a');
    await admin.keyboard.up('Control');
    await admin.keyboard.type('அனைத்தையும் ஏற்கவும்');
    const focusedText = () => admin.evaluate(() => ((globalThis as any).document.activeElement?.textContent ?? '') as string);
    // Past every other word of the surface (the notice banner has about a hundred, retention's included).
    for (let tabs = 0; (await focusedText()) !== 'Save notice banner (widget) words in Tamil' && tabs < 200; tabs += 1) await admin.keyboard.press('Tab');
    expect(await focusedText()).toBe('Save notice banner (widget) words in Tamil');
    await admin.keyboard.press('Enter');
    await waitForText(admin, 'Notice banner (widget): 1 word saved in Tamil and marked reviewed; the others keep their status.');
    const tamil = await languageWords('TA');
    expect(tamil.status).toBe('REVIEWED');
    const word = (key: string) => tamil.words.find((candidate) => candidate.key === key)!;
    expect(word('acceptAll')).toMatchObject({ text: 'அனைத்தையும் ஏற்கவும்', status: 'REVIEWED' });
    // Only the word the person changed: the screen's other drafts stay drafts (issue 37), as do other surfaces'.
    expect(tamil.words.filter((candidate) => candidate.status === 'REVIEWED').map((candidate) => candidate.key)).toEqual(['acceptAll']);
    expect(word('rejectAll')).toMatchObject({ text: '[TA machine draft] Reject all', status: 'DRAFT' });
    expect(word('portal.pageTitle').status).toBe('DRAFT');
    await expectNoAxeViolations(admin);

    // A draft a person accepts as it is becomes reviewed only by its own explicit confirmation.
    await click(admin, aria('Confirm as reviewed (rejectAll)', 'checkbox'));
    await click(admin, aria('Save notice banner (widget) words in Tamil', 'button'));
    // Reviewed now, so nothing left to confirm on that word.
    await admin.waitForSelector('#word-rejectAll-confirm', { hidden: true });
    const confirmed = await languageWords('TA');
    expect(confirmed.words.filter((candidate) => candidate.status === 'REVIEWED').map((candidate) => candidate.key).sort()).toEqual(['acceptAll', 'rejectAll']);
    expect(confirmed.words.find((candidate) => candidate.key === 'rejectAll')).toMatchObject({ text: '[TA machine draft] Reject all', status: 'REVIEWED' });
    expect(confirmed.words.find((candidate) => candidate.key === 'close')).toMatchObject({ status: 'DRAFT' });
    await expectNoAxeViolations(admin);
  });

  it("refuses a word that loses its {slot}, beside the field, and starts a word to translate from the service's word", async () => {
    await click(admin, aria('Edit Assamese words', 'button'));
    await admin.select('#words-surface', 'withdrawal-pages');
    await admin.waitForSelector('#word-portal-intro');
    // A word the translator could not draft starts from the service's Assamese, not the English copy kept for it.
    expect(await admin.$eval('#word-portal-intro', (element) => (element as unknown as { value: string }).value)).toBe((await readBuiltIn('AS'))!.words['portal.intro']);
    await fill(admin, '#word-portal-intro', 'সন্মতি লোৱা হৈছে');
    await click(admin, aria('Save withdrawal pages words in Assamese', 'button'));
    await admin.waitForSelector('#word-portal-intro-problem');
    expect(await admin.$eval('#word-portal-intro', (element) => element.getAttribute('aria-invalid'))).toBe('true');
    expect(await admin.$eval('#word-portal-intro-problem', (element) => element.textContent)).toContain('{tenant}');
    await expectNoAxeViolations(admin);
    await admin.type('#word-portal-intro', ' {tenant}');
    await click(admin, aria('Save withdrawal pages words in Assamese', 'button'));
    await waitForText(admin, 'Withdrawal pages: 1 word saved in Assamese and marked reviewed; the others keep their status.');
    const assamese = await languageWords('AS');
    expect(assamese.words.find((word) => word.key === 'portal.intro')).toMatchObject({ text: 'সন্মতি লোৱা হৈছে {tenant}', status: 'REVIEWED' });
    expect(assamese.words.find((word) => word.key === 'portal.pageTitle')).toMatchObject({ text: englishWords['portal.pageTitle'], status: 'NEEDS_TRANSLATION' });
  });

  it("shows the service's words with who made them, and makes one the tenant's own only when a person confirms or changes it", async () => {
    const fresh = await newTenant(call);
    const page = await signedInTab(fresh.adminEmail);
    const hindi = (await readBuiltIn('HI'))!.words;
    await go(page, 'Words people see');
    await click(page, aria('Edit Hindi words', 'button'));
    await page.waitForSelector('#word-acceptAll');
    expect(await page.$eval('#word-acceptAll', (element) => (element as unknown as { value: string }).value)).toBe(hindi.acceptAll);
    const editor = await textOf(page, '.words-editor');
    expect(editor).toContain("The service's words in Hindi (Devanagari), 2026-11-28: An AI assistant (a large language model), writing as the translator for the service. Not yet reviewed by a native speaker.");
    expect(editor).toContain("People read the service's word.");
    await expectNoAxeViolations(page);

    // Confirm one of the service's words, change another: only those two become the tenant's, reviewed.
    await click(page, aria('Confirm as reviewed (rejectAll)', 'checkbox'));
    await fill(page, '#word-close', 'बंद');
    await click(page, aria('Save notice banner (widget) words in Hindi', 'button'));
    await waitForText(page, 'Notice banner (widget): 2 words saved in Hindi and marked reviewed; the others keep their status.');
    const words = (await call('GET', '/api/v1/words/languages/HI', { token: fresh.token })).body.data.words as { key: string; text: string | null; status: string; shownFrom: string }[];
    expect(words.filter((word) => word.status === 'REVIEWED').map(({ key, text }) => [key, text])).toEqual([
      ['rejectAll', hindi.rejectAll],
      ['close', 'बंद'],
    ]);
    expect(words.find((word) => word.key === 'acceptAll')).toMatchObject({ text: null, status: 'BUILT_IN', shownFrom: 'BUILT_IN' });
    expect(words.filter((word) => word.status === 'BUILT_IN')).toHaveLength(words.length - 2);
    await expectNoAxeViolations(page);
  });

  it('shows a VIEWER every language and word without a change offered', async () => {
    const email = uniqueEmail('viewer');
    await addUser({ tenantId: tenant.tenantId, email, password, role: 'VIEWER' });
    const viewer = await signedInTab(email);
    await go(viewer, 'Words people see');
    for (const name of ['Save setting', 'Draft all languages', 'Draft Hindi']) expect(await viewer.$$(aria(name, 'button'))).toHaveLength(0);
    expect(await viewer.$eval(aria('English until a person reviews them', 'radio'), (element) => (element as unknown as { matches(selector: string): boolean }).matches(':disabled'))).toBe(true);
    await click(viewer, aria('View Tamil words', 'button'));
    await viewer.waitForSelector('#word-acceptAll');
    expect(await viewer.$eval('#word-acceptAll', (element) => (element as unknown as { readOnly: boolean }).readOnly)).toBe(true);
    expect(await viewer.$$('form.words-form button[type="submit"]')).toHaveLength(0);
    await expectNoAxeViolations(viewer);
  });
});
