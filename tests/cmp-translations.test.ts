import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock, resetClock, setClock } from '../shared/clock';
import { defaultBannerLabels } from '../shared/cmp/labels';
import { loginAs, newTenant, useApi, type ApiResponse } from './support/api';
import { readBuiltIn } from '../shared/words/built-in-words';

const { call } = useApi();

afterEach(() => resetClock());

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const expectError = (response: ApiResponse, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
};

const configuredTenant = async () => {
  const tenant = await newTenant(call);
  expect((await call('PUT', '/api/v1/cmp/config', { token: tenant.token, body: { languages: ['en', 'hi', 'as'] } })).status).toBe(200);
  return tenant;
};

const draft = (tenant: Tenant, body: Record<string, unknown>) => call('POST', '/api/v1/cmp/translations/draft', { token: tenant.token, body });
const draftAll = (tenant: Tenant) => call('POST', '/api/v1/cmp/translations/draft-all', { token: tenant.token });
const save = (tenant: Tenant, language: string, labels: Record<string, unknown>) =>
  call('PUT', `/api/v1/cmp/translations/${language}`, { token: tenant.token, body: { labels } });
const list = async (tenant: Tenant) => (await call('GET', '/api/v1/cmp/translations', { token: tenant.token })).body.data as { language: string; status: string; labels: Record<string, string> }[];

/** The scheduled languages the translator lacks: drafted as NEEDS_TRANSLATION with the English kept. */
const untranslatable = ['as', 'brx', 'doi', 'ks', 'kok', 'mai', 'mni', 'ne', 'or', 'sa', 'sat', 'sd'];

describe('banner label translations', () => {
  it('starts with the built-in English labels', async () => {
    const tenant = await configuredTenant();
    const sets = await list(tenant);
    expect(sets).toEqual([{ language: 'en', status: 'DEFAULT', labels: defaultBannerLabels, updatedAt: null }]);
    for (const key of ['title', 'description', 'acceptAll', 'rejectAll', 'savePreferences', 'managePreferences', 'close', 'poweredBy', 'category.ANALYTICS.name', 'category.NECESSARY.description']) {
      expect(sets[0]!.labels[key], key).toBeTruthy();
    }
  });

  it('drafts one language through the translator, or marks it NEEDS_TRANSLATION where the translator lacks it', async () => {
    const tenant = await configuredTenant();
    const hindi = await draft(tenant, { language: 'HI' });
    expect(hindi.status).toBe(200);
    expect(hindi.body.data).toMatchObject({ language: 'hi', status: 'DRAFT' });
    expect(hindi.body.data.labels.acceptAll).toBe('[HI machine draft] Accept all');

    const assamese = await draft(tenant, { language: 'as' });
    expect(assamese.body.data).toMatchObject({ language: 'as', status: 'NEEDS_TRANSLATION' });
    expect(assamese.body.data.labels).toEqual(defaultBannerLabels);

    expect((await list(tenant)).map((set) => [set.language, set.status])).toEqual([['en', 'DEFAULT'], ['as', 'NEEDS_TRANSLATION'], ['hi', 'DRAFT']]);
    // Machine drafts are served only when the tenant chooses to show them, a NEEDS_TRANSLATION stand-in never; by default the
    // banner's languages show the service's words, and under ENGLISH nothing unreviewed at all.
    const served = async () => (await call('GET', `/api/v1/cmp/config/${tenant.tenantId}`)).body.data.labelSets;
    const builtIn = await served();
    expect(Object.keys(builtIn).sort()).toEqual(['as', 'en', 'hi']);
    expect([builtIn.hi.labels.rejectAll, builtIn.as.labels.rejectAll]).toEqual([(await readBuiltIn('HI'))!.words.rejectAll, (await readBuiltIn('AS'))!.words.rejectAll]);
    expect((await call('PUT', '/api/v1/words/settings', { token: tenant.token, body: { unreviewed: 'ENGLISH' } })).status).toBe(200);
    expect(Object.keys(await served())).toEqual(['en']);
    expect((await call('PUT', '/api/v1/words/settings', { token: tenant.token, body: { unreviewed: 'MACHINE_DRAFTS' } })).status).toBe(200);
    const shown = await served();
    expect(Object.keys(shown).sort()).toEqual(['as', 'en', 'hi']);
    expect(shown.hi.status).toBe('DRAFT');
    expect(shown.hi.labels.rejectAll).toBe('[HI machine draft] Reject all');
    expect(shown.as).toMatchObject({ status: 'NEEDS_TRANSLATION', labels: { rejectAll: (await readBuiltIn('AS'))!.words.rejectAll } });

    for (const [body, field] of [[{ language: 'en' }, 'language'], [{ language: 'fr' }, 'language'], [{}, 'language'], [{ language: 'hi', force: true }, 'force']] as const) {
      const response = await draft(tenant, body);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(Object.keys(response.body.error.fields)).toContain(field);
    }
  });

  it("saves a person's labels as REVIEWED, rejects unknown keys, and protects them from drafts", async () => {
    const tenant = await configuredTenant();
    await draft(tenant, { language: 'hi' });
    const saved = await save(tenant, 'HI', { acceptAll: 'सभी स्वीकार करें', rejectAll: 'सभी अस्वीकार करें' });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ language: 'hi', status: 'REVIEWED' });
    expect(saved.body.data.labels.acceptAll).toBe('सभी स्वीकार करें');
    // Keys not sent keep the draft's text.
    expect(saved.body.data.labels.close).toBe('[HI machine draft] Close');

    const unknown = await save(tenant, 'hi', { acceptAll: 'ठीक है', buttonColour: 'blue' });
    expectError(unknown, 400, 'VALIDATION_ERROR');
    expect(unknown.body.error.fields).toHaveProperty('labels.buttonColour');
    expectError(await save(tenant, 'hi', {}), 400, 'VALIDATION_ERROR');
    expectError(await save(tenant, 'hi', { title: '' }), 400, 'VALIDATION_ERROR');
    const badLanguage = await save(tenant, 'fr', { title: 'Bonjour' });
    expectError(badLanguage, 400, 'VALIDATION_ERROR');
    expect(badLanguage.body.error.fields).toHaveProperty('language');
    expect((await list(tenant)).find((set) => set.language === 'hi')!.labels.acceptAll).toBe('सभी स्वीकार करें');

    expectError(await draft(tenant, { language: 'hi' }), 409, 'CONFLICT');
    const replaced = await draft(tenant, { language: 'hi', replaceReviewed: true });
    expect(replaced.body.data).toMatchObject({ status: 'DRAFT' });
    expect(replaced.body.data.labels.acceptAll).toBe('[HI machine draft] Accept all');
  });

  it("drafts from the tenant's own English once edited", async () => {
    const tenant = await configuredTenant();
    const english = await save(tenant, 'en', { title: 'Cookies on Example Shop' });
    expect(english.body.data).toMatchObject({ language: 'en', status: 'REVIEWED' });
    expect((await draft(tenant, { language: 'ta' })).body.data.labels.title).toBe('[TA machine draft] Cookies on Example Shop');
  });

  it('drafts all 22 languages but the reviewed ones, at most 3 runs a day', async () => {
    setClock(fixedClock('2026-11-22T08:00:00Z'));
    const tenant = await configuredTenant();
    await save(tenant, 'bn', { title: 'কুকি' });
    const first = await draftAll(tenant);
    expect(first.status).toBe(200);
    expect(first.body.data.keptReviewed).toEqual(['bn']);
    expect(first.body.data.languages).toHaveLength(21);
    for (const { language, status } of first.body.data.languages) {
      expect({ language, status }).toEqual({ language, status: untranslatable.includes(language) ? 'NEEDS_TRANSLATION' : 'DRAFT' });
    }
    const sets = await list(tenant);
    expect(sets).toHaveLength(23);
    expect(sets.find((set) => set.language === 'bn')).toMatchObject({ status: 'REVIEWED', labels: { title: 'কুকি' } });
    expect(sets.find((set) => set.language === 'ur')!.labels.title).toBe(`[UR machine draft] ${defaultBannerLabels.title}`);

    expect((await draftAll(tenant)).status).toBe(200);
    expect((await draftAll(tenant)).status).toBe(200);
    const fourth = await draftAll(tenant);
    expectError(fourth, 429, 'RATE_LIMIT');
    expect(Number(fourth.headers.get('retry-after'))).toBe(16 * 60 * 60);
    // Another tenant has its own three runs; the next UTC day opens the cap again.
    expect((await draftAll(await configuredTenant())).status).toBe(200);
    setClock(fixedClock('2026-11-23T00:00:01Z'));
    // Sixteen hours on, the access token has expired too.
    expect((await draftAll({ ...tenant, token: await loginAs(call, tenant.adminEmail) })).status).toBe(200);
  });

  it('lets every role read the label sets and only DPO and SUPER_ADMIN change them', async () => {
    const tenant = await configuredTenant();
    const viewer = await tenant.userToken('VIEWER');
    expect((await call('GET', '/api/v1/cmp/translations', { token: viewer })).status).toBe(200);
    expectError(await call('POST', '/api/v1/cmp/translations/draft', { token: viewer, body: { language: 'hi' } }), 403, 'FORBIDDEN');
    expectError(await call('POST', '/api/v1/cmp/translations/draft-all', { token: viewer }), 403, 'FORBIDDEN');
    expectError(await call('PUT', '/api/v1/cmp/translations/hi', { token: viewer, body: { labels: { title: 'x' } } }), 403, 'FORBIDDEN');
  });
});
