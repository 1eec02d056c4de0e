import { describe, expect, it } from 'vitest';
import { newTenant, useApi } from './support/api';
import { englishNotice } from './support/notices';
import { passInstanceCacheBound, useClockReset } from './support/clock';
import { readBuiltIn } from '../shared/words/built-in-words';
import { noticeBannerWords } from '../shared/words/widget-words';
import { fillWords } from '../shared/words/fill';

const { call } = useApi();
useClockReset();

const english = englishNotice;

const specFields = ['id', 'title', 'description', 'privacyPolicyUrl', 'contactEmail', 'complaintText', 'withdrawalUrl', 'purposes', 'translations', 'availableLanguages'];
/** Extensions the widget needs: the rights text it must show, what decides asking again, the notice banner's words and its languages' names. */
const extensionFields = ['rightsText', 'versionNumber', 'materialVersion', 'materialNoticeId', 'labels', 'languageNames'];
const publicFields = [...specFields, ...extensionFields].sort();
/** Scheduled languages the local translator drafts (the other 12 stay NEEDS_TRANSLATION). */
const machineDrafted = ['BN', 'GU', 'HI', 'KN', 'ML', 'MR', 'PA', 'TA', 'TE', 'UR'];

type Tenant = Awaited<ReturnType<typeof newTenant>>;
type Purpose = { id: string; name: string; description: string; dataCategories: string[] };

const createPurpose = async (token: string, name: string, dataCategories = ['email'], extra: Record<string, unknown> = {}): Promise<Purpose> => {
  const response = await call('POST', '/api/v1/purposes', { token, body: { name, description: `${name}: why we need it`, dataCategories, ...extra } });
  expect(response.status).toBe(201);
  return response.body.data;
};

/**
 * A DRAFT listing the purposes in the given order but displaying them in reverse, so output in
 * display order proves the sort. The first purpose is required.
 */
const createNotice = async (token: string, purposes: Purpose[], overrides: Record<string, unknown> = {}) => {
  const response = await call('POST', '/api/v1/notices', {
    token,
    body: {
      ...english,
      purposeIds: purposes.map((purpose) => purpose.id),
      purposeConfig: purposes.map((purpose, index) => ({ purposeId: purpose.id, isRequired: index === 0, displayOrder: purposes.length - index })),
      ...overrides,
    },
  });
  expect(response.status).toBe(201);
  return response.body.data.id as string;
};

const publish = async (token: string, noticeId: string) => {
  const response = await call('POST', `/api/v1/notices/${noticeId}/publish`, { token, body: {} });
  expect(response.status).toBe(200);
  return response.body.data;
};

/** A tenant with a key and a published notice over one purpose. */
const publishedTenant = async () => {
  const tenant = await newTenant(call);
  const purpose = await createPurpose(tenant.token, 'Order updates');
  const noticeId = await createNotice(tenant.token, [purpose]);
  await publish(tenant.token, noticeId);
  return { tenant, noticeId, apiKey: await tenant.apiKey() };
};

const publicNotice = (apiKey: string | undefined, headers: Record<string, string> = {}) =>
  call('GET', `/api/v1/consent/public-notice${apiKey === undefined ? '' : `?apiKey=${encodeURIComponent(apiKey)}`}`, { headers });

const expectError = (response: { status: number; body: any }, status: number, code: string) => {
  expect(response.status).toBe(status);
  expect(response.body.error.code).toBe(code);
};

const userIdOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;

const createKey = async (tenant: Tenant) => {
  const response = await call('POST', '/api/v1/api-keys', { token: tenant.token });
  expect(response.status).toBe(201);
  return response.body.data as { keyId: string; apiKey: string };
};

describe('GET /api/v1/consent/public-notice', () => {
  it('is 404 until a notice is published, then returns exactly the spec fields, purposes in display order', async () => {
    const tenant = await newTenant(call);
    const apiKey = await tenant.apiKey();
    const shown = await createPurpose(tenant.token, 'Order updates', ['email', 'phone'], { retention: { period: 'P3Y', from: 'LAST_ACTIVITY' } });
    const marketing = await createPurpose(tenant.token, 'Marketing');
    const noticeId = await createNotice(tenant.token, [shown, marketing]);
    await call('POST', `/api/v1/notices/${noticeId}/translations`, {
      token: tenant.token,
      body: { language: 'HI', title: 'गोपनीयता सूचना', purposes: { [shown.id]: { name: 'ऑर्डर अपडेट' } } },
    });

    expectError(await publicNotice(apiKey), 404, 'NOT_FOUND');
    await publish(tenant.token, noticeId);

    const response = await publicNotice(apiKey);
    expect(response.status).toBe(200);
    const data = response.body.data;
    const hindi = (await readBuiltIn('HI'))!.words;
    expect(Object.keys(data).sort()).toEqual(publicFields);
    expect(data).toEqual({
      id: noticeId,
      title: english.title,
      description: english.introText,
      privacyPolicyUrl: null,
      contactEmail: english.contactEmail,
      complaintText: english.complaintText,
      rightsText: english.rightsText,
      withdrawalUrl: english.withdrawalUrl,
      // marketing has displayOrder 1, shown has 2.
      purposes: [
        { id: marketing.id, name: marketing.name, description: marketing.description, required: false, dataCategories: ['email'], retention: null },
        // Its retention as published, and in words in each language of labels (the service's Hindi).
        {
          id: shown.id,
          name: shown.name,
          description: shown.description,
          required: true,
          dataCategories: ['email', 'phone'],
          retention: { period: 'P3Y', from: 'LAST_ACTIVITY' },
          retentionWords: {
            EN: 'Kept for 3 years after your last activity.',
            HI: fillWords(hindi['notice.retention.LAST_ACTIVITY']!, { period: fillWords(hindi['notice.retention.years.other']!, { count: 3 }) }),
          },
        },
      ],
      translations: {
        HI: {
          title: 'गोपनीयता सूचना',
          introText: english.introText,
          rightsText: english.rightsText,
          complaintText: english.complaintText,
          purposes: {
            [shown.id]: { name: 'ऑर्डर अपडेट', description: shown.description },
            [marketing.id]: { name: marketing.name, description: marketing.description },
          },
        },
      },
      availableLanguages: ['EN', 'HI'],
      languageNames: { EN: 'English', HI: 'हिन्दी' },
      versionNumber: 1,
      materialVersion: 1,
      materialNoticeId: noticeId,
      // The tenant has no words of its own: the catalogue's English, and the service's Hindi.
      labels: { EN: noticeBannerWords, HI: Object.fromEntries(Object.keys(noticeBannerWords).map((key) => [key, hindi[key as keyof typeof hindi]])) },
    });
  });

  it('keeps the material baseline across a wording change and moves it on a material change', async () => {
    const { tenant, noticeId, apiKey } = await publishedTenant();
    const reviseAndPublish = async (fromId: string, change: Record<string, unknown>) => {
      const draftId = (await call('POST', `/api/v1/notices/${fromId}/revise`, { token: tenant.token })).body.data.id as string;
      expect((await call('PUT', `/api/v1/notices/${draftId}`, { token: tenant.token, body: change })).status).toBe(200);
      await publish(tenant.token, draftId);
      return draftId;
    };
    const reworded = await reviseAndPublish(noticeId, { title: 'Privacy notice, clearer wording' });
    expect((await publicNotice(apiKey)).body.data).toMatchObject({ id: reworded, versionNumber: 2, materialVersion: 1, materialNoticeId: noticeId });

    const added = await createPurpose(tenant.token, 'Analytics', ['usage']);
    const current = (await call('GET', `/api/v1/notices/${reworded}`, { token: tenant.token })).body.data;
    const widened = await reviseAndPublish(reworded, { purposeIds: [...current.purposeIds, added.id] });
    expect((await publicNotice(apiKey)).body.data).toMatchObject({ id: widened, versionNumber: 3, materialVersion: 3, materialNoticeId: widened });
  });

  it('offers machine drafts but not NEEDS_TRANSLATION placeholders', async () => {
    const tenant = await newTenant(call);
    const purpose = await createPurpose(tenant.token, 'Order updates');
    const noticeId = await createNotice(tenant.token, [purpose]);
    expect((await call('POST', `/api/v1/notices/${noticeId}/auto-translate`, { token: tenant.token })).status).toBe(200);
    await publish(tenant.token, noticeId);

    const { data } = (await publicNotice(await tenant.apiKey())).body;
    expect(data.availableLanguages).toEqual(['EN', ...machineDrafted]);
    expect(Object.keys(data.translations).sort()).toEqual(machineDrafted);
    for (const placeholder of ['BRX', 'SAT', 'AS']) expect(data.translations).not.toHaveProperty(placeholder);
    expect(data.translations.TA).toEqual({
      title: `[TA machine draft] ${english.title}`,
      introText: `[TA machine draft] ${english.introText}`,
      rightsText: `[TA machine draft] ${english.rightsText}`,
      complaintText: `[TA machine draft] ${english.complaintText}`,
      purposes: { [purpose.id]: { name: `[TA machine draft] ${purpose.name}`, description: `[TA machine draft] ${purpose.description}` } },
    });
  });

  it('follows a published revision, and is 404 again once the published notice is archived', async () => {
    const { tenant, noticeId, apiKey } = await publishedTenant();
    const revised = await call('POST', `/api/v1/notices/${noticeId}/revise`, { token: tenant.token });
    expect(revised.status).toBe(201);
    const draftId = revised.body.data.id as string;
    const edited = await call('PUT', `/api/v1/notices/${draftId}`, {
      token: tenant.token,
      body: { title: 'Privacy notice, second edition', contactUrl: 'https://shop.example/privacy' },
    });
    expect(edited.status).toBe(200);
    expect((await publicNotice(apiKey)).body.data).toMatchObject({ id: noticeId, title: english.title });

    expect((await publish(tenant.token, draftId)).versionNumber).toBe(2);
    expect((await publicNotice(apiKey)).body.data).toMatchObject({
      id: draftId,
      title: 'Privacy notice, second edition',
      privacyPolicyUrl: 'https://shop.example/privacy',
    });
    expect((await call('GET', `/api/v1/notices/${noticeId}`, { token: tenant.token })).body.data.status).toBe('ARCHIVED');

    const archived = await call('POST', `/api/v1/notices/${draftId}/archive`, { token: tenant.token });
    expect(archived.body.data.action).toBe('ARCHIVED');
    expectError(await publicNotice(apiKey), 404, 'NOT_FOUND');
  });

  it('follows a withdrawal URL change on the PUBLISHED notice at once, with no new version and an audit trail', async () => {
    const { tenant, noticeId, apiKey } = await publishedTenant();
    const newUrl = 'https://shop.example/privacy/withdraw';
    const changed = await call('PATCH', `/api/v1/notices/${noticeId}/withdrawal-url`, { token: tenant.token, body: { withdrawalUrl: newUrl } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ id: noticeId, status: 'PUBLISHED', versionNumber: 1, withdrawalUrl: newUrl });
    expect((await publicNotice(apiKey)).body.data.withdrawalUrl).toBe(newUrl);

    const versions = await call('GET', `/api/v1/notices/${noticeId}/versions`, { token: tenant.token });
    expect(versions.body.data).toHaveLength(1);
    expect(versions.body.data[0].withdrawalUrl).toBe(english.withdrawalUrl);

    const actorUserId = userIdOf(tenant.token);
    const audit = async () => (await call('GET', `/api/v1/notices/${noticeId}/audit`, { token: tenant.token })).body.data;
    expect(await audit()).toEqual([
      { action: 'WITHDRAWAL_URL_CHANGED', oldValue: english.withdrawalUrl, newValue: newUrl, actorUserId, at: expect.any(String) },
    ]);

    const cleared = await call('PATCH', `/api/v1/notices/${noticeId}/withdrawal-url`, { token: tenant.token, body: { withdrawalUrl: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.withdrawalUrl).toBeNull();
    const after = (await publicNotice(apiKey)).body.data;
    // With no URL of its own the notice's withdrawal route is the tenant's page on the service portal.
    expect(after).toMatchObject({ id: noticeId, withdrawalUrl: expect.stringMatching(new RegExp(`/portal/t/${tenant.slug}$`)) });
    expect(Object.keys(after).sort()).toEqual(publicFields);
    expect(await audit()).toEqual([
      expect.objectContaining({ action: 'WITHDRAWAL_URL_CHANGED', oldValue: newUrl, newValue: null, actorUserId }),
      expect.objectContaining({ oldValue: english.withdrawalUrl, newValue: newUrl }),
    ]);
    expect((await call('GET', `/api/v1/notices/${noticeId}/versions`, { token: tenant.token })).body.data).toHaveLength(1);
  });
});

describe('public notice: API key and origin rules', () => {
  it('refuses a missing, invalid or revoked key with 401 UNAUTHORIZED', async () => {
    const { tenant } = await publishedTenant();
    const { keyId, apiKey } = await createKey(tenant);
    expect((await publicNotice(apiKey)).status).toBe(200);
    for (const key of [undefined, '', 'not-a-key', `${apiKey.slice(0, -4)}AAAA`]) {
      const response = await publicNotice(key);
      expectError(response, 401, 'UNAUTHORIZED');
      expect(response.body).not.toHaveProperty('data');
    }
    expect((await call('DELETE', `/api/v1/api-keys/${keyId}`, { token: tenant.token })).status).toBe(200);
    // Within the bound on what a warm instance remembers of a key.
    passInstanceCacheBound();
    expectError(await publicNotice(apiKey), 401, 'UNAUTHORIZED');
  });

  it('enforces the allowlist of a key with a registered domain', async () => {
    const { tenant, noticeId } = await publishedTenant();
    const { keyId, apiKey } = await createKey(tenant);
    expect((await publicNotice(apiKey, { origin: 'https://anything.example' })).status).toBe(200);
    const added = await call('POST', `/api/v1/api-keys/${keyId}/domains`, { token: tenant.token, body: { domain: 'shop.example.com' } });
    expect(added.status).toBe(201);
    passInstanceCacheBound();

    expectError(await publicNotice(apiKey, { origin: 'https://evil.example' }), 403, 'ORIGIN_NOT_ALLOWED');
    expectError(await publicNotice(apiKey, { referer: 'https://evil.example/page' }), 403, 'ORIGIN_NOT_ALLOWED');
    expectError(await publicNotice(apiKey), 403, 'ORIGIN_MISSING');
    for (const headers of [{ origin: 'https://shop.example.com' }, { referer: 'https://shop.example.com/checkout' }] as Record<string, string>[]) {
      const allowed = await publicNotice(apiKey, headers);
      expect(allowed.status).toBe(200);
      expect(allowed.body.data.id).toBe(noticeId);
    }
  });

  it("gives each tenant's key only its own tenant's notice", async () => {
    const owner = await publishedTenant();
    const other = await newTenant(call);
    const otherKey = await other.apiKey();
    expectError(await publicNotice(otherKey), 404, 'NOT_FOUND');

    const purpose = await createPurpose(other.token, 'Newsletter');
    const otherNoticeId = await createNotice(other.token, [purpose], { title: 'Other tenant notice' });
    await publish(other.token, otherNoticeId);
    expect((await publicNotice(otherKey)).body.data).toMatchObject({ id: otherNoticeId, title: 'Other tenant notice' });
    expect((await publicNotice(owner.apiKey)).body.data).toMatchObject({ id: owner.noticeId, title: english.title });
  });
});
