import { languageCodes, type LanguageCode } from '../i18n/languages';
import { requireTenant } from '../tenants/store';
import type { Tenant } from '../tenants/tenant';
import { machineTranslatable } from '../translation/coverage';
import { translatorFor } from '../translation/select';
import { hasBuiltIn, readBuiltIn, type BuiltInLanguage } from './built-in-words';
import { englishWords, surfaceOf, surfaces, wordKeys, type Unreviewed, type WordKey } from './catalogue';
import { placeholdersOf } from './fill';
import { builtInWord, englishOf, showsWords } from './resolve';
import { readState } from './state';
import type { WordStatus } from './statuses';
import { shownSource, summaryOf, type LanguageWords, type WordCounts } from './words';

const noCounts = (): WordCounts => ({ DRAFT: 0, NEEDS_TRANSLATION: 0, REVIEWED: 0 });

/** The translator "Draft" uses, and whether it is the local stack's stand-in, which translates nothing. */
const translatorView = () => {
  const translator = translatorFor();
  return { name: translator.name, standIn: translator.standIn === true };
};

/** A language's status: the tenant's words' where it has any; else the service's words where it has them; else none. */
const languageStatus = (language: LanguageCode, own: WordStatus | undefined): WordStatus => own ?? (hasBuiltIn(language) ? 'BUILT_IN' : 'DEFAULT');

/** Every language with its status and counts, the surfaces, the setting and the translator: the "Words people see" overview. */
export const wordsOverview = async (tenantId: string) => {
  const { head } = await readState(await requireTenant(tenantId));
  return {
    unreviewed: head.unreviewed,
    updatedAt: head.updatedAt,
    total: wordKeys.length,
    translator: translatorView(),
    surfaces: surfaces.map((surface) => ({ id: surface.id, name: surface.name, count: Object.keys(surface.words).length })),
    languages: languageCodes.map((language) => {
      const summary = head.languages[language];
      return {
        language,
        status: languageStatus(language, summary?.status),
        counts: summary?.counts ?? noCounts(),
        updatedAt: summary?.updatedAt ?? null,
        shown: language === 'EN' || showsWords(head, language),
        builtIn: hasBuiltIn(language),
        machineTranslatable: language !== 'EN' && machineTranslatable(language),
      };
    }),
  };
};

/** One word of a language, beside the English it stands for and the service's built-in word. */
const wordView = (key: WordKey, language: LanguageCode, own: LanguageWords | undefined, english: LanguageWords | undefined, unreviewed: Unreviewed, builtIn: BuiltInLanguage | undefined) => {
  const word = own?.words[key];
  const service = builtInWord(builtIn, english, key, englishWords);
  const shown = language === 'EN' ? undefined : shownSource(word, unreviewed, service);
  return {
    key,
    surface: surfaceOf(key),
    default: englishWords[key],
    english: englishOf(english, key, englishWords),
    placeholders: placeholdersOf(englishWords[key]),
    text: word?.text ?? null,
    status: word?.status ?? (service !== undefined ? 'BUILT_IN' : 'DEFAULT'),
    builtIn: service ?? null,
    shown: language === 'EN' || shown !== undefined,
    shownFrom: shown?.from ?? 'ENGLISH',
  };
};

/** Every word of one language with its status, beside the tenant's English and the service's built-in words (with their provenance). */
export const languageView = async (tenant: Tenant, language: LanguageCode) => {
  const state = await readState(tenant);
  const [items, builtIn] = await Promise.all([state.read(['EN', language]), readBuiltIn(language)]);
  const own = items.get(language);
  const summary = own ? summaryOf(own) : undefined;
  return {
    language,
    status: language === 'EN' ? (summary?.status ?? 'DEFAULT') : languageStatus(language, summary?.status),
    counts: summary?.counts ?? noCounts(),
    updatedAt: own?.updatedAt ?? null,
    unreviewed: state.head.unreviewed,
    builtIn: builtIn ? { name: builtIn.name, script: builtIn.script, provenance: builtIn.provenance } : null,
    words: wordKeys.map((key) => wordView(key, language, own, items.get('EN'), state.head.unreviewed, builtIn)),
  };
};

export const readLanguageWords = async (tenantId: string, language: LanguageCode) => languageView(await requireTenant(tenantId), language);
