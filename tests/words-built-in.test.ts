import { describe, expect, it } from 'vitest';
import { withTenantLabels } from '../shared/breaches/run-labels';
import { readBuiltIn } from '../shared/words/built-in-words';
import { breachMailWords } from '../shared/words/mail-words';
import { newTenant, useApi } from './support/api';
import { reviewWords, showUnreviewed } from './support/words';

/**
 * The service's built-in words where a tenant has none of its own, against the real engines: the
 * cookie banner's label sets for the languages it offers, a breach intimation's languages, and
 * the views that show each word beside its provenance. (Pages, widget and mails in Chromium:
 * tests/words-pages.test.ts; the files themselves: tests/built-in-words.unit.test.ts.)
 */
const { call } = useApi();

type Tenant = Awaited<ReturnType<typeof newTenant>>;
const languageWords = async (tenant: Tenant, language: string) => (await call('GET', `/api/v1/words/languages/${language}`, { token: tenant.token })).body.data;
const wordOf = (view: { words: { key: string }[] }, key: string) => view.words.find((word) => word.key === key) as unknown as { text: string | null; status: string; shown: boolean; shownFrom: string };

describe("the service's built-in words", () => {
  it("label the cookie banner in each language it offers, under the tenant's own words and its English, by its setting", async () => {
    const tenant = await newTenant(call);
    const tamil = (await readBuiltIn('TA'))!.words;
    const urdu = (await readBuiltIn('UR'))!.words;
    const labelSets = async () => (await call('GET', `/api/v1/cmp/config/${tenant.tenantId}`)).body.data.labelSets as Record<string, { status: string; labels: Record<string, string> }>;
    const configure = async (languages: string[]) => expect((await call('PUT', '/api/v1/cmp/config', { token: tenant.token, body: { languages } })).status).toBe(200);

    await configure(['en', 'ta', 'ur']);
    const fresh = await labelSets();
    expect(Object.keys(fresh).sort()).toEqual(['en', 'ta', 'ur']);
    expect(fresh.ta).toMatchObject({ status: 'BUILT_IN', labels: { acceptAll: tamil.acceptAll, title: tamil.title, 'category.ANALYTICS.name': tamil['category.ANALYTICS.name'] } });
    expect(Object.keys(fresh.ta!.labels)).toHaveLength(Object.keys(fresh.en!.labels).length);
    expect(fresh.ur!.labels.rejectAll).toBe(urdu.rejectAll);

    // A language no longer offered loses the service's words; one offered again gets them back.
    await configure(['en', 'ta']);
    expect(Object.keys(await labelSets()).sort()).toEqual(['en', 'ta']);

    // The tenant's override stands over the service's word; the rest stay the service's.
    await reviewWords(call, tenant.token, 'TA', { acceptAll: 'எல்லாம் சரி' });
    expect((await labelSets()).ta).toMatchObject({ status: 'REVIEWED', labels: { acceptAll: 'எல்லாம் சரி', rejectAll: tamil.rejectAll } });
    // A key whose English the tenant rewrote shows no built-in word: it translates the catalogue's English.
    await reviewWords(call, tenant.token, 'EN', { rejectAll: 'No, thanks' });
    const rewritten = (await labelSets()).ta!.labels;
    expect(rewritten.rejectAll).toBeUndefined();
    expect(rewritten.close).toBe(tamil.close);
    const view = (await languageWords(tenant, 'TA')).words as { key: string; status: string; builtIn: string | null; shownFrom: string }[];
    expect(view.find((word) => word.key === 'rejectAll')).toMatchObject({ status: 'DEFAULT', builtIn: null, shownFrom: 'ENGLISH' });
    expect(view.find((word) => word.key === 'close')).toMatchObject({ status: 'BUILT_IN', builtIn: tamil.close, shownFrom: 'BUILT_IN' });
    expect(view.find((word) => word.key === 'acceptAll')).toMatchObject({ status: 'REVIEWED', builtIn: tamil.acceptAll, shownFrom: 'REVIEWED' });

    // English until the tenant's own person reviews: only its own word is left.
    await showUnreviewed(call, tenant.token, 'ENGLISH');
    expect((await labelSets()).ta).toEqual({ status: 'REVIEWED', labels: { acceptAll: 'எல்லாம் சரி' }, updatedAt: expect.any(String) });
    await configure(['en', 'ta', 'ur']);
    expect((await labelSets()).ur).toBeUndefined();
    await showUnreviewed(call, tenant.token, 'BUILT_IN');
    expect((await labelSets()).ur).toMatchObject({ status: 'BUILT_IN', labels: { acceptAll: urdu.acceptAll } });
  });

  it("word a breach intimation's languages around the tenant's own texts, by its setting", async () => {
    const tenant = await newTenant(call);
    const hindi = (await readBuiltIn('HI'))!.words;
    const texts = { whatHappened: 'w', consequences: 'c', mitigation: 'm', safetySteps: 's', contact: 'dpo@shop.example', translations: { HI: { whatHappened: 'व', consequences: 'ग', mitigation: 'म', safetySteps: 'स', labels: { reference: 'क्रमांक: {breachId}' } } } };
    const labelled = await withTenantLabels(tenant.tenantId, texts);
    expect(labelled.labels?.subject).toBe(breachMailWords['mail.breach.subject']);
    // The service's Hindi, under the intimation's own label.
    expect(labelled.translations?.HI?.labels).toMatchObject({ subject: hindi['mail.breach.subject'], opening: hindi['mail.breach.opening'], reference: 'क्रमांक: {breachId}' });
    await showUnreviewed(call, tenant.token, 'ENGLISH');
    expect((await withTenantLabels(tenant.tenantId, texts)).translations?.HI?.labels).toEqual({ reference: 'क्रमांक: {breachId}' });
  });

  it('describe who translated them and how they were checked, beside each word', async () => {
    const tenant = await newTenant(call);
    const hindi = await languageWords(tenant, 'HI');
    expect(hindi).toMatchObject({ status: 'BUILT_IN', builtIn: { name: 'Hindi', script: 'Devanagari', provenance: { reviewedBy: null, confidence: 'draft' } } });
    expect(hindi.builtIn.provenance.translatedBy).toMatch(/AI assistant/);
    expect(wordOf(hindi, 'portal.pageTitle')).toMatchObject({ text: null, status: 'BUILT_IN', shown: true });
    expect((await languageWords(tenant, 'EN')).builtIn).toBeNull();
  });
});
