import { describe, expect, it } from 'vitest';
import { newTenant, useApi } from './support/api';
import { englishNotice } from './support/notices';

const { call } = useApi();

/** The 22 scheduled languages, and the 12 the translator lacks (they keep English, NEEDS_TRANSLATION). */
const scheduled = ['AS', 'BN', 'BRX', 'DOI', 'GU', 'HI', 'KN', 'KS', 'KOK', 'MAI', 'ML', 'MNI', 'MR', 'NE', 'OR', 'PA', 'SA', 'SAT', 'SD', 'TA', 'TE', 'UR'];
const unsupported = ['AS', 'BRX', 'DOI', 'KS', 'KOK', 'MAI', 'MNI', 'NE', 'OR', 'SA', 'SAT', 'SD'];

const english = englishNotice;

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const createPurpose = async (token: string, name: string) => {
  const response = await call('POST', '/api/v1/purposes', {
    token,
    body: { name, description: `${name}: why we need it`, dataCategories: ['email'] },
  });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; name: string; description: string };
};

/** A DRAFT notice listing `purposes` in the given order, each displayed at its index. */
const createNotice = async (token: string, purposeIds: string[]) => {
  const response = await call('POST', '/api/v1/notices', {
    token,
    body: {
      ...english,
      purposeIds,
      purposeConfig: purposeIds.map((purposeId, displayOrder) => ({ purposeId, isRequired: displayOrder === 0, displayOrder })),
    },
  });
  expect(response.status).toBe(201);
  return response.body.data.id as string;
};

/** A tenant with one DRAFT notice over `purposeCount` purposes. */
const draftNotice = async (purposeCount = 1) => {
  const tenant = await newTenant(call);
  const purposes = [];
  for (let index = 0; index < purposeCount; index += 1) purposes.push(await createPurpose(tenant.token, `Purpose ${index + 1}`));
  const noticeId = await createNotice(tenant.token, purposes.map((purpose) => purpose.id));
  return { tenant, purposes, noticeId };
};

const publish = async (token: string, noticeId: string) => {
  const response = await call('POST', `/api/v1/notices/${noticeId}/publish`, { token, body: {} });
  expect(response.status).toBe(200);
};

const translations = (noticeId: string, lang?: string) =>
  `/api/v1/notices/${noticeId}/translations${lang ? `/${lang}` : ''}`;

const listTranslations = async (tenant: Tenant, noticeId: string) => {
  const response = await call('GET', translations(noticeId), { token: tenant.token });
  expect(response.status).toBe(200);
  return response.body.data as Array<Record<string, any>>;
};

const byLanguage = async (tenant: Tenant, noticeId: string) =>
  Object.fromEntries((await listTranslations(tenant, noticeId)).map((translation) => [translation.language, translation]));

const expectError = (response: { status: number; body: any }, status: number, code: string) => {
  expect(response.status).toBe(status);
  expect(response.body.error.code).toBe(code);
};

describe('notice translations: add, list, change, remove', () => {
  it('adds a translation (lower-case code stored upper case), lists it, merges a PUT as MANUAL and deletes it', async () => {
    const { tenant, purposes, noticeId } = await draftNotice();
    const [purpose] = purposes;
    const added = await call('POST', translations(noticeId), {
      token: tenant.token,
      body: { language: 'hi', title: 'गोपनीयता सूचना', purposes: { [purpose!.id]: { name: 'उद्देश्य एक', description: 'हमें इसकी आवश्यकता क्यों है' } } },
    });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ language: 'HI', title: 'गोपनीयता सूचना', source: 'MANUAL' });
    expect(added.body.data).not.toHaveProperty('introText');

    const listed = await listTranslations(tenant, noticeId);
    expect(listed).toEqual([
      {
        language: 'HI',
        title: 'गोपनीयता सूचना',
        purposes: { [purpose!.id]: { name: 'उद्देश्य एक', description: 'हमें इसकी आवश्यकता क्यों है' } },
        source: 'MANUAL',
        updatedAt: expect.any(String),
      },
    ]);
    const notice = await call('GET', `/api/v1/notices/${noticeId}`, { token: tenant.token });
    expect(Object.keys(notice.body.data.translations)).toEqual(['HI']);

    const changed = await call('PUT', translations(noticeId, 'HI'), {
      token: tenant.token,
      body: { introText: 'हम आपके डेटा को केवल नीचे दिए गए उद्देश्यों के लिए संसाधित करते हैं।' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      language: 'HI',
      title: 'गोपनीयता सूचना',
      introText: 'हम आपके डेटा को केवल नीचे दिए गए उद्देश्यों के लिए संसाधित करते हैं।',
      purposes: { [purpose!.id]: { name: 'उद्देश्य एक' } },
      source: 'MANUAL',
    });
    expect((await byLanguage(tenant, noticeId)).HI).toEqual(changed.body.data);

    const removed = await call('DELETE', translations(noticeId, 'HI'), { token: tenant.token });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ language: 'HI', title: 'गोपनीयता सूचना' });
    expect(await listTranslations(tenant, noticeId)).toEqual([]);
  });

  it('merges purpose texts in a PUT field by field, keeping what the body leaves out', async () => {
    const { tenant, purposes, noticeId } = await draftNotice(2);
    const [first, second] = purposes;
    await call('POST', translations(noticeId), {
      token: tenant.token,
      body: {
        language: 'TA',
        purposes: { [first!.id]: { name: 'நோக்கம் 1', description: 'விளக்கம் 1' }, [second!.id]: { name: 'நோக்கம் 2', description: 'விளக்கம் 2' } },
      },
    });
    const changed = await call('PUT', translations(noticeId, 'TA'), {
      token: tenant.token,
      body: { purposes: { [first!.id]: { name: 'புதிய நோக்கம் 1' } } },
    });
    expect(changed.status).toBe(200);
    expect((await byLanguage(tenant, noticeId)).TA!.purposes).toEqual({
      [first!.id]: { name: 'புதிய நோக்கம் 1', description: 'விளக்கம் 1' },
      [second!.id]: { name: 'நோக்கம் 2', description: 'விளக்கம் 2' },
    });
  });

  it('refuses unknown language codes, EN included (it is the base language)', async () => {
    const { tenant, noticeId } = await draftNotice();
    for (const language of ['XX', 'EN', 'en', '', 'HIN']) {
      const response = await call('POST', translations(noticeId), { token: tenant.token, body: { language, title: 'Title' } });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.fields).toHaveProperty('language');
    }
    const missing = await call('POST', translations(noticeId), { token: tenant.token, body: { title: 'Title' } });
    expect(missing.body.error.fields).toHaveProperty('language');
    for (const lang of ['XX', 'EN']) {
      const put = await call('PUT', translations(noticeId, lang), { token: tenant.token, body: { title: 'Title' } });
      expectError(put, 400, 'VALIDATION_ERROR');
      expect(put.body.error.fields).toHaveProperty('lang');
      const del = await call('DELETE', translations(noticeId, lang), { token: tenant.token });
      expectError(del, 400, 'VALIDATION_ERROR');
      expect(del.body.error.fields).toHaveProperty('lang');
    }
    expect(await listTranslations(tenant, noticeId)).toEqual([]);
  });

  it('answers a second POST of a language with 409, and PUT or DELETE of a missing one with 404', async () => {
    const { tenant, noticeId } = await draftNotice();
    expect((await call('POST', translations(noticeId), { token: tenant.token, body: { language: 'HI', title: 'पहला' } })).status).toBe(201);
    const again = await call('POST', translations(noticeId), { token: tenant.token, body: { language: 'hi', title: 'दूसरा' } });
    expectError(again, 409, 'CONFLICT');
    expect((await byLanguage(tenant, noticeId)).HI!.title).toBe('पहला');

    expectError(await call('PUT', translations(noticeId, 'TA'), { token: tenant.token, body: { title: 'x' } }), 404, 'NOT_FOUND');
    expectError(await call('DELETE', translations(noticeId, 'TA'), { token: tenant.token }), 404, 'NOT_FOUND');
    expect(Object.keys(await byLanguage(tenant, noticeId))).toEqual(['HI']);
  });

  it('refuses every translation write on a PUBLISHED notice with 409 and leaves it as published', async () => {
    const { tenant, noticeId } = await draftNotice();
    await call('POST', translations(noticeId), { token: tenant.token, body: { language: 'HI', title: 'गोपनीयता सूचना' } });
    await publish(tenant.token, noticeId);
    const before = await listTranslations(tenant, noticeId);

    expectError(await call('POST', translations(noticeId), { token: tenant.token, body: { language: 'TA', title: 'x' } }), 409, 'CONFLICT');
    expectError(await call('PUT', translations(noticeId, 'HI'), { token: tenant.token, body: { title: 'x' } }), 409, 'CONFLICT');
    expectError(await call('DELETE', translations(noticeId, 'HI'), { token: tenant.token }), 409, 'CONFLICT');
    expectError(await call('POST', `/api/v1/notices/${noticeId}/auto-translate`, { token: tenant.token }), 409, 'CONFLICT');
    expect(await listTranslations(tenant, noticeId)).toEqual(before);
  });

  it('refuses unknown fields and an empty change', async () => {
    const { tenant, purposes, noticeId } = await draftNotice();
    const post = await call('POST', translations(noticeId), { token: tenant.token, body: { language: 'HI', subtitle: 'x' } });
    expectError(post, 400, 'VALIDATION_ERROR');
    expect(post.body.error.fields).toHaveProperty('subtitle');
    const source = await call('POST', translations(noticeId), { token: tenant.token, body: { language: 'HI', source: 'MACHINE_DRAFTED' } });
    expect(source.body.error.fields).toHaveProperty('source');

    await call('POST', translations(noticeId), { token: tenant.token, body: { language: 'HI', title: 'शीर्षक' } });
    for (const body of [{ subtitle: 'x' }, { purposes: { [purposes[0]!.id]: { name: 'x', label: 'y' } } }, {}]) {
      expectError(await call('PUT', translations(noticeId, 'HI'), { token: tenant.token, body }), 400, 'VALIDATION_ERROR');
    }
    expect((await byLanguage(tenant, noticeId)).HI).toMatchObject({ title: 'शीर्षक', source: 'MANUAL' });
    expect((await byLanguage(tenant, noticeId)).HI).not.toHaveProperty('subtitle');
  });

  it("answers another tenant's notice with 404 and changes nothing", async () => {
    const { tenant, noticeId } = await draftNotice();
    await call('POST', translations(noticeId), { token: tenant.token, body: { language: 'HI', title: 'शीर्षक' } });
    const other = await newTenant(call);
    for (const [method, path, body] of [
      ['GET', translations(noticeId), undefined],
      ['POST', translations(noticeId), { language: 'TA', title: 'x' }],
      ['PUT', translations(noticeId, 'HI'), { title: 'x' }],
      ['DELETE', translations(noticeId, 'HI'), undefined],
      ['POST', `/api/v1/notices/${noticeId}/auto-translate`, undefined],
      ['GET', `/api/v1/notices/${noticeId}/preview?lang=HI`, undefined],
    ] as const) {
      expectError(await call(method, path, { token: other.token, body }), 404, 'NOT_FOUND');
    }
    expect(await listTranslations(tenant, noticeId)).toEqual([expect.objectContaining({ language: 'HI', title: 'शीर्षक' })]);
  });
});

describe('notice preview', () => {
  it('falls back to English field by field and names exactly the fields it fell back on', async () => {
    const { tenant, purposes, noticeId } = await draftNotice(2);
    const [first, second] = purposes;
    await call('POST', translations(noticeId), {
      token: tenant.token,
      body: { language: 'HI', title: 'गोपनीयता सूचना', introText: 'परिचय', purposes: { [first!.id]: { name: 'उद्देश्य एक' } } },
    });

    const preview = await call('GET', `/api/v1/notices/${noticeId}/preview?lang=HI`, { token: tenant.token });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({
      id: noticeId,
      language: 'HI',
      title: 'गोपनीयता सूचना',
      introText: 'परिचय',
      rightsText: english.rightsText,
      complaintText: english.complaintText,
      contactEmail: english.contactEmail,
      withdrawalUrl: english.withdrawalUrl,
      purposes: [
        { id: first!.id, name: 'उद्देश्य एक', description: first!.description, required: true, dataCategories: ['email'] },
        { id: second!.id, name: second!.name, description: second!.description, required: false, dataCategories: ['email'] },
      ],
    });
    expect([...preview.body.data.fallbackFields].sort()).toEqual(
      ['rightsText', 'complaintText', `purposes.${first!.id}.description`, `purposes.${second!.id}.name`, `purposes.${second!.id}.description`].sort(),
    );

    const lowerCase = await call('GET', `/api/v1/notices/${noticeId}/preview?lang=hi`, { token: tenant.token });
    expect(lowerCase.body.data).toEqual(preview.body.data);

    const untranslated = await call('GET', `/api/v1/notices/${noticeId}/preview?lang=TA`, { token: tenant.token });
    expect(untranslated.body.data).toMatchObject({ language: 'TA', title: english.title, introText: english.introText });
    expect(untranslated.body.data.fallbackFields).toHaveLength(4 + 2 * purposes.length);
  });

  it('shows English with no fallback fields by default, and refuses an unknown language', async () => {
    const { tenant, purposes, noticeId } = await draftNotice();
    await call('POST', translations(noticeId), { token: tenant.token, body: { language: 'HI', title: 'गोपनीयता सूचना' } });
    const preview = await call('GET', `/api/v1/notices/${noticeId}/preview`, { token: tenant.token });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({
      language: 'EN',
      title: english.title,
      introText: english.introText,
      purposes: [expect.objectContaining({ id: purposes[0]!.id, name: purposes[0]!.name })],
      fallbackFields: [],
    });
    for (const lang of ['xx', 'HINDI']) {
      const bad = await call('GET', `/api/v1/notices/${noticeId}/preview?lang=${lang}`, { token: tenant.token });
      expectError(bad, 400, 'VALIDATION_ERROR');
      expect(bad.body.error.fields).toHaveProperty('lang');
    }
  });
});

describe('auto-translate', () => {
  const autoTranslate = (tenant: Tenant, noticeId: string) => call('POST', `/api/v1/notices/${noticeId}/auto-translate`, { token: tenant.token });

  it('drafts all 22 languages: machine drafts where supported, English marked NEEDS_TRANSLATION elsewhere, MANUAL kept', async () => {
    const { tenant, purposes, noticeId } = await draftNotice();
    const [purpose] = purposes;
    await call('POST', translations(noticeId), { token: tenant.token, body: { language: 'GU', title: 'ગોપનીયતા સૂચના' } });
    const manualBefore = (await byLanguage(tenant, noticeId)).GU;

    const drafted = await autoTranslate(tenant, noticeId);
    expect(drafted.status).toBe(200);
    expect(drafted.body.data).toMatchObject({ noticeId, translator: 'local', keptManual: ['GU'] });
    const expectedSources = scheduled
      .filter((language) => language !== 'GU')
      .map((language) => ({ language, source: unsupported.includes(language) ? 'NEEDS_TRANSLATION' : 'MACHINE_DRAFTED' }));
    expect([...drafted.body.data.languages].sort((a, b) => a.language.localeCompare(b.language))).toEqual(
      expectedSources.sort((a, b) => a.language.localeCompare(b.language)),
    );

    const stored = await byLanguage(tenant, noticeId);
    expect(Object.keys(stored).sort()).toEqual([...scheduled].sort());
    for (const language of ['HI', 'TA']) {
      expect(stored[language]).toEqual({
        language,
        title: `[${language} machine draft] ${english.title}`,
        introText: `[${language} machine draft] ${english.introText}`,
        rightsText: `[${language} machine draft] ${english.rightsText}`,
        complaintText: `[${language} machine draft] ${english.complaintText}`,
        purposes: { [purpose!.id]: { name: `[${language} machine draft] ${purpose!.name}`, description: `[${language} machine draft] ${purpose!.description}` } },
        source: 'MACHINE_DRAFTED',
        updatedAt: expect.any(String),
      });
    }
    for (const language of ['BRX', 'SAT']) {
      expect(stored[language]).toEqual({
        language,
        title: english.title,
        introText: english.introText,
        rightsText: english.rightsText,
        complaintText: english.complaintText,
        purposes: { [purpose!.id]: { name: purpose!.name, description: purpose!.description } },
        source: 'NEEDS_TRANSLATION',
        updatedAt: expect.any(String),
      });
    }
    expect(stored.GU).toEqual(manualBefore);

    // A placeholder is no translation: preview names every field it shows in English.
    const brx = await call('GET', `/api/v1/notices/${noticeId}/preview?lang=BRX`, { token: tenant.token });
    expect(brx.body.data.fallbackFields).toEqual(
      expect.arrayContaining(['title', 'introText', 'rightsText', 'complaintText', `purposes.${purpose!.id}.name`]),
    );
    const hi = await call('GET', `/api/v1/notices/${noticeId}/preview?lang=HI`, { token: tenant.token });
    expect(hi.body.data.fallbackFields).toEqual([]);
  });

  it('leaves drafts editable: a PUT makes one MANUAL, and the next auto-translate keeps it', async () => {
    const { tenant, noticeId } = await draftNotice();
    expect((await autoTranslate(tenant, noticeId)).body.data.keptManual).toEqual([]);
    const edited = await call('PUT', translations(noticeId, 'HI'), { token: tenant.token, body: { title: 'मानव द्वारा शीर्षक' } });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({
      title: 'मानव द्वारा शीर्षक',
      introText: `[HI machine draft] ${english.introText}`,
      source: 'MANUAL',
    });

    const again = await autoTranslate(tenant, noticeId);
    expect(again.body.data.keptManual).toEqual(['HI']);
    expect(again.body.data.languages.map((entry: { language: string }) => entry.language)).not.toContain('HI');
    const stored = await byLanguage(tenant, noticeId);
    expect(stored.HI).toMatchObject({ title: 'मानव द्वारा शीर्षक', source: 'MANUAL' });
    expect(stored.TA).toMatchObject({ title: `[TA machine draft] ${english.title}`, source: 'MACHINE_DRAFTED' });
  });
});
