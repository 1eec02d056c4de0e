import type { LanguageCode } from '../i18n/languages';
import { englishOf } from '../words/resolve';
import { draftAllLanguages, draftLanguage, saveWords } from '../words/service';
import { readState } from '../words/state';
import { summaryOf, type LanguageWords } from '../words/words';
import { bannerLabelKeys, defaultBannerLabels, type BannerLabels } from './labels';
import { requireCmpTenant } from './service';

/**
 * The spec's /cmp/translations: the widget's part of the tenant's words (shared/words), in the
 * shape the cookie-consent API has always had (lower-case codes, every banner key). Drafting
 * here drafts the language's whole set of words, as /words/draft does.
 */

const upper = (language: string) => language.toUpperCase() as LanguageCode;

const viewOf = (language: LanguageCode, own: LanguageWords | undefined, english: LanguageWords | undefined) => ({
  language: language.toLowerCase(),
  status: own ? summaryOf(own).status : 'DEFAULT',
  labels: Object.fromEntries(bannerLabelKeys.map((key) => [key, own?.words[key]?.text ?? englishOf(english, key, defaultBannerLabels)])) as BannerLabels,
  updatedAt: own?.updatedAt ?? null,
});

const labelSetOf = async (tenantId: string, language: LanguageCode) => {
  const state = await readState(await requireCmpTenant(tenantId));
  const items = await state.read(['EN', language]);
  return viewOf(language, items.get(language), items.get('EN'));
};

/** English first, then every language that has words, by code. */
export const listLabelSets = async (tenantId: string) => {
  const state = await readState(await requireCmpTenant(tenantId));
  const languages = ['EN', ...(Object.keys(state.head.languages) as LanguageCode[]).filter((code) => code !== 'EN').sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))] as LanguageCode[];
  const items = await state.read(languages);
  return languages.map((language) => viewOf(language, items.get(language), items.get('EN')));
};

export const draftLabelSet = async (tenantId: string, language: string, replaceReviewed: boolean) => {
  await requireCmpTenant(tenantId);
  await draftLanguage(tenantId, upper(language), replaceReviewed);
  return labelSetOf(tenantId, upper(language));
};

export const draftAllLabelSets = async (tenantId: string) => {
  await requireCmpTenant(tenantId);
  const drafted = await draftAllLanguages(tenantId);
  return {
    translator: drafted.translator,
    languages: drafted.languages.map(({ language, status }) => ({ language: language.toLowerCase(), status })),
    keptReviewed: drafted.keptReviewed.map((language) => language.toLowerCase()),
  };
};

/** A person's labels: those keys of the language's words become REVIEWED. */
export const saveLabelSet = async (tenantId: string, language: string, labels: Partial<BannerLabels>) => {
  await requireCmpTenant(tenantId);
  await saveWords(tenantId, upper(language), labels);
  return labelSetOf(tenantId, upper(language));
};
