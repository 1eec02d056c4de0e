import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock, resetClock, setClock } from '../shared/clock';
import { changeDocument } from '../shared/cmp/service';
import { setTranslator } from '../shared/translation/select';
import { localTranslator } from '../shared/translation/local-translator';
import { readBuiltIn } from '../shared/words/built-in-words';
import { englishWords } from '../shared/words/catalogue';
import { noticeBannerWords } from '../shared/words/widget-words';
import { newTenant, uniqueEmail, useApi, type ApiResponse } from './support/api';
import { mailsTo } from './support/mail';
import { createNotice, createPurpose, publish } from './support/notices';
import { failWrites, tenantDigest } from './support/storage';
import { hindiWords, reviewWords, showUnreviewed } from './support/words';

const { call, state } = useApi();

beforeAll(() => {
  process.env.PORTAL_BASE_URL = `${state.baseUrl}/portal`;
  process.env.PORTAL_LINK_MIN_MS = '20';
});
afterEach(() => {
  resetClock();
  setTranslator(undefined);
});

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const expectError = (response: ApiResponse, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
};

const overview = async (tenant: Tenant) => (await call('GET', '/api/v1/words', { token: tenant.token })).body.data;
const languageWords = async (tenant: Tenant, language: string) => (await call('GET', `/api/v1/words/languages/${language}`, { token: tenant.token })).body.data;
const wordOf = (view: { words: { key: string }[] }, key: string) => view.words.find((word) => word.key === key) as unknown as { text: string | null; status: string; shown: boolean; shownFrom: string; english: string; placeholders: string[] };
const draft = (tenant: Tenant, body: Record<string, unknown>) => call('POST', '/api/v1/words/draft', { token: tenant.token, body });
const save = (tenant: Tenant, language: string, labels: Record<string, unknown>) => call('PUT', `/api/v1/words/languages/${language}`, { token: tenant.token, body: { labels } });

/** The Tamil a person reviews for the notice banner. */
const tamilBanner = { acceptAll: 'அனைத்தையும் ஏற்கவும்', rejectAll: 'அனைத்தையும் நிராகரிக்கவும்' };

/** A published notice in English and Tamil, read by the widget through the tenant's key. */
const tamilNotice = async (tenant: Tenant) => {
  const purpose = await createPurpose(call, tenant.token);
  const noticeId = await createNotice(call, tenant.token, [purpose], { translations: { TA: { title: 'தனியுரிமை அறிவிப்பு' } } });
  expect((await publish(call, tenant.token, noticeId)).status).toBe(200);
  const apiKey = await tenant.apiKey();
  return async () => (await call('GET', `/api/v1/consent/public-notice?apiKey=${apiKey}`, { headers: { origin: 'https://shop.example' } })).body.data;
};

describe('the words people see: drafts, review and the setting', () => {
  it('drafts Tamil, marks Assamese NEEDS_TRANSLATION, saves a person\'s words as REVIEWED and shows unreviewed ones only by the tenant\'s choice', async () => {
    const tenant = await newTenant(call);
    const fresh = await overview(tenant);
    expect(fresh).toMatchObject({ unreviewed: 'BUILT_IN', total: Object.keys(englishWords).length, translator: { name: 'local', standIn: true } });
    expect(fresh.languages).toHaveLength(23);
    // No words of the tenant's anywhere: English is the catalogue's, every scheduled language the service's.
    expect(fresh.languages.map((language: { status: string }) => language.status)).toEqual(['DEFAULT', ...Array(22).fill('BUILT_IN')]);
    expect(fresh.languages.every((language: { shown: boolean; builtIn: boolean; language: string }) => language.shown && language.builtIn === (language.language !== 'EN'))).toBe(true);
    // This test is about the tenant's own words: English until its person reviews them.
    await showUnreviewed(call, tenant.token, 'ENGLISH');

    const tamil = await draft(tenant, { language: 'ta' });
    expect(tamil.status).toBe(200);
    expect(tamil.body.data).toMatchObject({ language: 'TA', status: 'DRAFT', translator: 'local', counts: { DRAFT: Object.keys(englishWords).length, REVIEWED: 0 } });
    expect(wordOf(tamil.body.data, 'portal.intro')).toMatchObject({ text: `[TA machine draft] ${englishWords['portal.intro']}`, status: 'DRAFT', shown: false, placeholders: ['tenant'] });
    expect((await draft(tenant, { language: 'AS' })).body.data).toMatchObject({ status: 'NEEDS_TRANSLATION', counts: { NEEDS_TRANSLATION: Object.keys(englishWords).length } });

    const saved = await save(tenant, 'TA', tamilBanner);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ status: 'REVIEWED', counts: { REVIEWED: 2 } });
    expect(wordOf(saved.body.data, 'acceptAll')).toMatchObject({ text: tamilBanner.acceptAll, status: 'REVIEWED', shown: true });
    // The other words keep their drafts, still not shown.
    expect(wordOf(saved.body.data, 'close')).toMatchObject({ text: '[TA machine draft] Close', status: 'DRAFT', shown: false });
    expectError(await draft(tenant, { language: 'ta' }), 409, 'CONFLICT');

    const languages = (await overview(tenant)).languages as { language: string; status: string; shown: boolean }[];
    expect(languages.filter((language) => !['DEFAULT', 'BUILT_IN'].includes(language.status)).map(({ language, status, shown }) => [language, status, shown])).toEqual([
      ['AS', 'NEEDS_TRANSLATION', false],
      ['TA', 'REVIEWED', true],
    ]);

    expect((await call('PUT', '/api/v1/words/settings', { token: tenant.token, body: { unreviewed: 'MACHINE_DRAFTS' } })).body.data).toMatchObject({ unreviewed: 'MACHINE_DRAFTS' });
    expect(wordOf(await languageWords(tenant, 'ta'), 'close').shown).toBe(true);
    // A NEEDS_TRANSLATION stand-in is never shown: under MACHINE_DRAFTS the service's Assamese stands in its place.
    expect(wordOf(await languageWords(tenant, 'as'), 'close')).toMatchObject({ status: 'NEEDS_TRANSLATION', text: 'Close', shown: true, shownFrom: 'BUILT_IN' });
    expect(wordOf(await languageWords(tenant, 'en'), 'close')).toMatchObject({ text: null, status: 'DEFAULT', shown: true, english: 'Close' });

    const replaced = await draft(tenant, { language: 'TA', replaceReviewed: true });
    expect(replaced.body.data).toMatchObject({ status: 'DRAFT' });
    expect(wordOf(replaced.body.data, 'acceptAll').text).toBe('[TA machine draft] Accept all');
  });

  it("serves the notice banner's shown words with the public notice, and the cookie configuration's labelSets the same", async () => {
    const tenant = await newTenant(call);
    const publicNotice = await tamilNotice(tenant);
    // No cookie configuration at all: the notice brings the banner's words, the service's Tamil by default.
    expect((await call('GET', `/api/v1/cmp/config/${tenant.tenantId}`)).status).toBe(404);
    const builtInTamil = (await readBuiltIn('TA'))!.words;
    expect((await publicNotice()).labels).toEqual({ EN: noticeBannerWords, TA: Object.fromEntries(Object.keys(noticeBannerWords).map((key) => [key, builtInTamil[key as keyof typeof builtInTamil]])) });
    // From here on, the tenant's own words: English until its person reviews them.
    await showUnreviewed(call, tenant.token, 'ENGLISH');
    expect((await publicNotice()).labels).toEqual({ EN: noticeBannerWords });

    await draft(tenant, { language: 'TA' });
    expect(Object.keys((await publicNotice()).labels)).toEqual(['EN']);
    await reviewWords(call, tenant.token, 'TA', tamilBanner);
    expect((await publicNotice()).labels.TA).toEqual(tamilBanner);
    await showUnreviewed(call, tenant.token, 'MACHINE_DRAFTS');
    expect((await publicNotice()).labels.TA).toMatchObject({ ...tamilBanner, close: '[TA machine draft] Close' });
    await reviewWords(call, tenant.token, 'EN', { acceptAll: 'Yes to all' });
    expect((await publicNotice()).labels.EN).toEqual({ ...noticeBannerWords, acceptAll: 'Yes to all' });

    // Configuring the cookie banner later starts from the same words.
    expect((await call('PUT', '/api/v1/cmp/config', { token: tenant.token, body: { languages: ['en', 'ta'] } })).status).toBe(200);
    const labelSets = (await call('GET', `/api/v1/cmp/config/${tenant.tenantId}`)).body.data.labelSets;
    expect(labelSets.en.labels.acceptAll).toBe('Yes to all');
    expect(labelSets.ta).toMatchObject({ status: 'REVIEWED', labels: { acceptAll: tamilBanner.acceptAll, close: '[TA machine draft] Close' } });
    await showUnreviewed(call, tenant.token, 'ENGLISH');
    const reviewedOnly = (await call('GET', `/api/v1/cmp/config/${tenant.tenantId}`)).body.data.labelSets.ta.labels;
    expect(reviewedOnly).toEqual(tamilBanner);
  });

  it('refuses unknown keys, a lost or added {slot}, control characters and unknown languages, and stores nothing of a failed write', async () => {
    const tenant = await newTenant(call);
    const fields = async (response: Promise<ApiResponse>) => {
      const answer = await response;
      expectError(answer, 400, 'VALIDATION_ERROR');
      return Object.keys(answer.body.error.fields);
    };
    expect(await fields(save(tenant, 'hi', { acceptAll: 'ठीक है', buttonColour: 'blue' }))).toContain('labels.buttonColour');
    expect(await fields(save(tenant, 'hi', { 'portal.intro': 'सहमति दर्ज की गई।' }))).toEqual(['labels.portal.intro']);
    expect(await fields(save(tenant, 'hi', { 'mail.withdrawal.linkText': '{tenant} {url} {expiresAt} {email}' }))).toEqual(['labels.mail.withdrawal.linkText']);
    expect(await fields(save(tenant, 'hi', { acceptAll: 'a\u0000b' }))).toEqual(['labels.acceptAll']);
    expect(await fields(save(tenant, 'hi', {}))).toEqual(['labels']);
    expect(await fields(save(tenant, 'fr', { acceptAll: 'Tout accepter' }))).toEqual(['language']);
    expect(await fields(draft(tenant, { language: 'en' }))).toEqual(['language']);
    expect(await fields(call('PUT', '/api/v1/words/settings', { token: tenant.token, body: { unreviewed: 'SOMETIMES' } }))).toEqual(['unreviewed']);
    // The {slots} kept, in another order, with new lines (a mail's paragraphs): fine.
    expect((await save(tenant, 'hi', { 'mail.withdrawal.linkText': '{url}\n{tenant} — {expiresAt}' })).status).toBe(200);

    const before = await tenantDigest(tenant.tenantId);
    const storage = failWrites({ except: (command) => command === 'UpdateItem' });
    try {
      expectError(await save(tenant, 'hi', { acceptAll: 'सभी स्वीकार करें' }), 500, 'INTERNAL_ERROR');
      expectError(await call('PUT', '/api/v1/words/settings', { token: tenant.token, body: { unreviewed: 'MACHINE_DRAFTS' } }), 500, 'INTERNAL_ERROR');
    } finally {
      storage.restore();
    }
    expect(await tenantDigest(tenant.tenantId)).toBe(before);
  });

  it('keeps each language one storable item, and a draft-all of long words within transactions that fit', async () => {
    const tenant = await newTenant(call);
    /** Every key's English slots and `length` more characters. */
    const long = (length: number) => Object.fromEntries(Object.entries(englishWords).map(([key, text]) => [key, `${text.match(/\{[A-Za-z]+\}/g)?.join(' ') ?? ''} ${'x'.repeat(length)}`.trim()]));
    const tooLarge = await save(tenant, 'EN', long(1900));
    expectError(tooLarge, 400, 'VALIDATION_ERROR');
    expect(Object.keys(tooLarge.body.error.fields)).toEqual(['labels']);
    // About 200 KB of English: 22 drafts of it are more than one 4 MB transaction holds.
    expect((await save(tenant, 'EN', long(1000))).status).toBe(200);
    const drafted = await call('POST', '/api/v1/words/draft-all', { token: tenant.token });
    expect(drafted.status, JSON.stringify(drafted.body)).toBe(200);
    expect(drafted.body.data.languages).toHaveLength(22);
    expect(wordOf(await languageWords(tenant, 'UR'), 'acceptAll').text).toBe(`[UR machine draft] ${'x'.repeat(1000)}`);
  });

  it('keeps English where a machine draft lost a {slot}', async () => {
    const tenant = await newTenant(call);
    // A translator that translates the slot it was told to leave alone.
    setTranslator({ ...localTranslator, translate: async (texts) => texts.map((text) => text.replace(/<span translate="no">\{[a-zA-Z]+\}<\/span>/g, 'X')) });
    const hindi = (await draft(tenant, { language: 'HI' })).body.data;
    expect(wordOf(hindi, 'portal.intro')).toMatchObject({ text: englishWords['portal.intro'], status: 'NEEDS_TRANSLATION' });
    expect(wordOf(hindi, 'acceptAll')).toMatchObject({ text: 'Accept all', status: 'DRAFT' });
  });

  it('lands two saves at once, both', async () => {
    const tenant = await newTenant(call);
    const [hindi, tamil, english] = await Promise.all([save(tenant, 'HI', { acceptAll: 'सभी स्वीकार करें' }), save(tenant, 'TA', tamilBanner), save(tenant, 'EN', { close: 'Done' })]);
    expect([hindi.status, tamil.status, english.status]).toEqual([200, 200, 200]);
    const languages = (await overview(tenant)).languages as { language: string; status: string }[];
    expect(languages.filter((language) => language.status === 'REVIEWED').map((language) => language.language)).toEqual(['EN', 'HI', 'TA']);
    expect(wordOf(await languageWords(tenant, 'HI'), 'acceptAll').text).toBe('सभी स्वीकार करें');
  });

  it('drafts all 22 languages but keeps reviewed words, three runs a day shared with /cmp/translations/draft-all', async () => {
    setClock(fixedClock('2026-11-22T08:00:00Z'));
    const tenant = await newTenant(call);
    await reviewWords(call, tenant.token, 'BN', { acceptAll: 'সব গ্রহণ করুন' });
    const first = await call('POST', '/api/v1/words/draft-all', { token: tenant.token });
    expect(first.status).toBe(200);
    expect(first.body.data.keptReviewed).toEqual(['BN']);
    expect(first.body.data.languages).toHaveLength(21);
    const bengali = await languageWords(tenant, 'BN');
    expect(wordOf(bengali, 'acceptAll')).toMatchObject({ text: 'সব গ্রহণ করুন', status: 'REVIEWED' });
    // Keys the reviewed language had no word for are drafted into it.
    expect(wordOf(bengali, 'rejectAll')).toMatchObject({ text: '[BN machine draft] Reject all', status: 'DRAFT' });
    expect((await call('POST', '/api/v1/cmp/translations/draft-all', { token: tenant.token })).status).toBe(200);
    expect((await call('POST', '/api/v1/words/draft-all', { token: tenant.token })).status).toBe(200);
    expectError(await call('POST', '/api/v1/words/draft-all', { token: tenant.token }), 429, 'RATE_LIMIT');
    expectError(await call('POST', '/api/v1/cmp/translations/draft-all', { token: tenant.token }), 429, 'RATE_LIMIT');
  });

  it('is on every plan: a collect-only tenant has its words, not the cookie endpoints', async () => {
    const tenant = await newTenant(call, { plan: 'collect-only' });
    expect((await save(tenant, 'HI', { 'portal.pageTitle': 'अपनी सहमति वापस लें' })).status).toBe(200);
    expect((await showUnreviewed(call, tenant.token, 'MACHINE_DRAFTS'), (await overview(tenant)).unreviewed)).toBe('MACHINE_DRAFTS');
    expectError(await call('GET', '/api/v1/cmp/translations', { token: tenant.token }), 404, 'CMP_NOT_CONFIGURED');
  });

  it("carries a tenant's label sets over from its cookie configuration, so no reviewed label is lost", async () => {
    const tenant = await newTenant(call);
    // Label sets as the cookie configuration held them before the tenant's words existed.
    await changeDocument(
      tenant.tenantId,
      (document) => ({
        ...document,
        labelSets: {
          ...document.labelSets,
          hi: { labels: { acceptAll: 'सभी स्वीकार करें', rejectAll: 'सभी अस्वीकार करें' }, status: 'REVIEWED', updatedAt: '2026-01-01T00:00:00.000Z' },
          bn: { labels: { acceptAll: '[BN machine draft] Accept all' }, status: 'DRAFT', updatedAt: '2026-01-01T00:00:00.000Z' },
        },
      }),
      'labels',
    );
    expect((await overview(tenant)).languages.find((language: { language: string }) => language.language === 'HI')).toMatchObject({ status: 'REVIEWED', counts: { REVIEWED: 2 } });
    await reviewWords(call, tenant.token, 'TA', tamilBanner);
    expect(wordOf(await languageWords(tenant, 'HI'), 'rejectAll')).toMatchObject({ text: 'सभी अस्वीकार करें', status: 'REVIEWED' });
    expect(wordOf(await languageWords(tenant, 'BN'), 'acceptAll')).toMatchObject({ status: 'DRAFT' });
    const sets = (await call('GET', '/api/v1/cmp/translations', { token: tenant.token })).body.data.map((set: { language: string; status: string }) => [set.language, set.status]);
    expect(sets).toEqual([['en', 'DEFAULT'], ['bn', 'DRAFT'], ['hi', 'REVIEWED'], ['ta', 'REVIEWED']]);
  });
});

describe("the pages' words, in public", () => {
  it("answers every page key in the language asked, English where the tenant shows none, and which languages it shows", async () => {
    const tenant = await newTenant(call);
    await reviewWords(call, tenant.token, 'UR', { 'portal.publicHeading': 'اس تنظیم کو دی گئی رضامندی واپس لیں' });
    // By default every scheduled language is offered, the service's words standing in for the tenant's.
    const fresh = (await call('GET', `/api/v1/words/public/${tenant.slug}?language=ur`)).body.data;
    expect(fresh.languages).toHaveLength(23);
    expect(fresh.english).toEqual([]);
    expect(fresh.words['portal.publicHeading']).toBe('اس تنظیم کو دی گئی رضامندی واپس لیں');
    expect(fresh.words['portal.email']).toBe((await readBuiltIn('UR'))!.words['portal.email']);
    await showUnreviewed(call, tenant.token, 'ENGLISH');
    const urdu = await call('GET', `/api/v1/words/public/${tenant.slug}?language=ur`);
    expect(urdu.status).toBe(200);
    expect(urdu.body.data).toMatchObject({ tenant: { slug: tenant.slug }, language: 'UR', languages: ['EN', 'UR'] });
    expect(urdu.body.data.words['portal.publicHeading']).toBe('اس تنظیم کو دی گئی رضامندی واپس لیں');
    expect(urdu.body.data.english).toContain('portal.email');
    expect(urdu.body.data.english).not.toContain('portal.publicHeading');
    expect(Object.keys(urdu.body.data.words).every((key) => key.startsWith('portal.') || key.startsWith('rights.'))).toBe(true);
    expect((await call('GET', `/api/v1/words/public/${tenant.slug}?language=xx`)).body.data).toMatchObject({ language: 'EN', english: [] });
    expectError(await call('GET', '/api/v1/words/public/no-such-tenant-here'), 404, 'NOT_FOUND');
  });
});

describe('mails in the principal\'s language', () => {
  it('writes the withdrawal link and the confirmation in the language of her latest consent, once the tenant reviewed it, English (marked) before', async () => {
    const tenant = await newTenant(call);
    const purpose = await createPurpose(call, tenant.token, { name: 'Marketing' });
    const noticeId = await createNotice(call, tenant.token, [purpose], { translations: { HI: { title: 'गोपनीयता सूचना', purposes: { [purpose]: { name: 'विपणन' } } } } });
    expect((await publish(call, tenant.token, noticeId)).status).toBe(200);
    const email = uniqueEmail('hindi');
    expect((await call('POST', '/api/v1/consent/record', { token: tenant.token, body: { noticeId, dataPrincipalIdentifier: email, consentGiven: { [purpose]: true }, language: 'HI' } })).status).toBe(201);
    const askLink = async () => expect((await call('POST', '/api/v1/consent/portal-link', { body: { tenantSlug: tenant.slug, email } })).status).toBe(202);

    // By default the service's Hindi, with no word of the tenant's.
    await askLink();
    const [builtIn] = await mailsTo(email);
    const hindi = (await readBuiltIn('HI'))!.words;
    expect(builtIn!.subject).toBe(hindi['mail.withdrawal.linkSubject']!.replace('{tenant}', await overviewName(tenant)));
    expect(builtIn!.body.html).toMatch(/<html lang="hi" dir="ltr">[\s\S]*<p>किसी ने, संभवतः आपने/);

    // The tenant chooses English until its person reviews its Hindi.
    await showUnreviewed(call, tenant.token, 'ENGLISH');
    await askLink();
    const before = (await mailsTo(email)).find((mail) => mail.subject.endsWith('your link to withdraw consent'));
    expect(before!.subject).toBe(`${(await overviewName(tenant))}: your link to withdraw consent`);
    expect(before!.body.html).toContain('<html lang="hi" dir="ltr">');
    expect(before!.body.html).toMatch(/<p lang="en" dir="ltr">Someone, hopefully you/);

    await reviewWords(call, tenant.token, 'HI', hindiWords);
    await reviewWords(call, tenant.token, 'HI', {
      'mail.withdrawal.linkSubject': '{tenant}: सहमति वापस लेने का आपका लिंक',
      'mail.withdrawal.linkText': 'किसी ने, संभवतः आपने, {tenant} को दी गई सहमति वापस लेने को कहा।\nयह लिंक खोलें ({expiresAt} तक, केवल एक बार):\n{url}',
      'mail.withdrawal.confirmedSubject': '{tenant}: आपकी सहमति वापसी की पुष्टि',
      'mail.withdrawal.confirmedText': '{at} को {scope} के लिए आपकी सहमति वापसी दर्ज की गई।\nसंदर्भ: {reference}। {tenant} को प्रसंस्करण बंद करना होगा।',
      'mail.withdrawal.scopeAll': 'सभी प्रयोजनों',
    });
    await askLink();
    const hindiLink = (await mailsTo(email)).find((mail) => mail.subject.includes('सहमति वापस लेने का आपका लिंक'));
    expect(hindiLink?.body.html).toMatch(/<html lang="hi" dir="ltr">[\s\S]*<p>किसी ने, संभवतः आपने/);
    const token = hindiLink!.body.text!.match(/\/portal\/([A-Za-z0-9_-]{43})/)![1];
    expect((await call('POST', `/api/v1/consent/portal/${token}/withdraw`, { body: { withdrawAll: true } })).status).toBe(200);
    const confirmed = (await mailsTo(email)).find((mail) => mail.subject.includes('आपकी सहमति वापसी की पुष्टि'));
    expect(confirmed?.body.text).toContain('सभी प्रयोजनों के लिए आपकी सहमति वापसी दर्ज की गई');
    expect(confirmed?.body.html).toContain('<html lang="hi" dir="ltr">');
  });
});

/** The tenant's name, as the mails fill it in. */
const overviewName = async (tenant: Tenant) => (await call('GET', `/api/v1/words/public/${tenant.slug}`)).body.data.tenant.name as string;
