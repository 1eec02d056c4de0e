import { languageCodes, type LanguageCode } from '../i18n/languages';
import { requireTenant } from '../tenants/store';
import type { Tenant } from '../tenants/tenant';
import { machineTranslatable } from '../translation/coverage';
import { englishWords, surfaceOf, surfaces, wordKeys, type WordKey } from './catalogue';
import { placeholdersOf } from './fill';
import { englishOf, showsWords } from './resolve';
import { readState } from './state';
import { shownWord, summaryOf, type LanguageWords, type WordCounts } from './words';

const noCounts = (): WordCounts => ({ DRAFT: 0, NEEDS_TRANSLATION: 0, REVIEWED: 0 });

/** Every language with its status and counts, the surfaces, and the setting: the "Words people see" overview. */
export const wordsOverview = async (tenantId: string) => {
  const { head } = await readState(await requireTenant(tenantId));
  return {
    unreviewed: head.unreviewed,
    updatedAt: head.updatedAt,
    total: wordKeys.length,
    surfaces: surfaces.map((surface) => ({ id: surface.id, name: surface.name, count: Object.keys(surface.words).length })),
    languages: languageCodes.map((language) => {
      const summary = head.languages[language];
      return {
        language,
        status: summary?.status ?? 'DEFAULT',
        counts: summary?.counts ?? noCounts(),
        updatedAt: summary?.updatedAt ?? null,
        shown: language === 'EN' || showsWords(head, language),
        machineTranslatable: language !== 'EN' && machineTranslatable(language),
      };
    }),
  };
};

/** One word of a language, beside the English it stands for. */
const wordView = (key: WordKey, language: LanguageCode, own: LanguageWords | undefined, english: LanguageWords | undefined, unreviewed: 'ENGLISH' | 'MACHINE_DRAFTS') => {
  const word = own?.words[key];
  return {
    key,
    surface: surfaceOf(key),
    default: englishWords[key],
    english: englishOf(english, key, englishWords),
    placeholders: placeholdersOf(englishWords[key]),
    text: word?.text ?? null,
    status: word?.status ?? 'DEFAULT',
    shown: language === 'EN' || shownWord(word, unreviewed) !== undefined,
  };
};

/** Every word of one language with its status, beside the tenant's English. */
export const languageView = async (tenant: Tenant, language: LanguageCode) => {
  const state = await readState(tenant);
  const items = await state.read(['EN', language]);
  const own = items.get(language);
  const summary = own ? summaryOf(own) : undefined;
  return {
    language,
    status: summary?.status ?? 'DEFAULT',
    counts: summary?.counts ?? noCounts(),
    updatedAt: own?.updatedAt ?? null,
    unreviewed: state.head.unreviewed,
    words: wordKeys.map((key) => wordView(key, language, own, items.get('EN'), state.head.unreviewed)),
  };
};

export const readLanguageWords = async (tenantId: string, language: LanguageCode) => languageView(await requireTenant(tenantId), language);
