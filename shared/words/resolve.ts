import type { LanguageCode } from '../i18n/languages';
import type { BuiltInLanguage } from './built-in-words';
import { hasBuiltIn } from './built-in-words';
import { noticeBannerKeys, widgetKeys, type Unreviewed, type WordKey } from './catalogue';
import type { WordStatus } from './statuses';
import { fillWords } from './fill';
import { cookieBannerWords, noticeBannerWords } from './widget-words';
import { shownWord, summaryOf, unreviewedOf, type LanguageWords, type WordsHead } from './words';

/** A word as read: its text and the language it is actually in (English where the language shows none). */
export interface Said {
  text: string;
  language: LanguageCode;
}

/** A value to fill in: as is, or written for the language the word turned out to be in (a date, a name). */
export type WordValue = string | number | ((language: LanguageCode) => string);
export type Say<K extends WordKey = WordKey> = (key: K, values?: Readonly<Record<string, WordValue>>) => Said;

/**
 * The English defaults of the keys a caller reads: one surface's words (shared/words/mail-words.ts,
 * ...) or the whole catalogue (englishWords). Passed in, not looked up in the catalogue, so a
 * function that sends only mails bundles no page or widget words (docs/bundles.md).
 */
export type EnglishDefaults<K extends WordKey> = Readonly<Record<K, string>>;

const valuesIn = (values: Readonly<Record<string, WordValue>> | undefined, language: LanguageCode) =>
  values && Object.fromEntries(Object.entries(values).map(([name, value]) => [name, typeof value === 'function' ? value(language) : value]));

/** The tenant's English: its own English words over the defaults. */
export const englishOf = <K extends WordKey>(english: LanguageWords | undefined, key: K, defaults: EnglishDefaults<K>): string => english?.words[key]?.text ?? defaults[key];

/**
 * The service's built-in word for a key, where it stands for what the tenant says: a built-in
 * word translates the catalogue's English, so where the tenant rewrote its English for the key
 * (`english`: its own English words, or the English as it shows it) the built-in word says
 * something else, and English stands in until the tenant has a word of its own.
 */
export const builtInWord = <K extends WordKey>(builtIn: Pick<BuiltInLanguage, 'words'> | undefined, english: LanguageWords | undefined, key: K, defaults: EnglishDefaults<K>): string | undefined =>
  builtIn && englishOf(english, key, defaults) === defaults[key] ? builtIn.words[key] : undefined;

/**
 * The words of one language as a principal reads them: the language's shown word (the tenant's,
 * or the service's built-in `builtIn` words), else the tenant's English, marked as such.
 */
export const sayer =
  <K extends WordKey>(
    language: LanguageCode,
    own: LanguageWords | undefined,
    english: LanguageWords | undefined,
    unreviewed: Unreviewed,
    defaults: EnglishDefaults<K>,
    builtIn?: Pick<BuiltInLanguage, 'words'>,
  ): Say<K> =>
  (key, values) => {
    const text = language === 'EN' ? undefined : shownWord(own?.words[key], unreviewed, builtInWord(builtIn, english, key, defaults));
    return text === undefined ? { text: fillWords(englishOf(english, key, defaults), valuesIn(values, 'EN')), language: 'EN' } : { text: fillWords(text, valuesIn(values, language)), language };
  };

/** Only the keys a language shows (all of them for English), as plain texts: the tenant's own, and the built-in words given. */
const shownOf = <K extends WordKey>(
  keys: readonly K[],
  defaults: EnglishDefaults<K>,
  language: LanguageCode,
  own: LanguageWords | undefined,
  unreviewed: Unreviewed,
  builtIn?: { words: BuiltInLanguage['words']; english: LanguageWords | undefined },
): Partial<Record<K, string>> => {
  const shown: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const text = language === 'EN' ? englishOf(own, key, defaults) : shownWord(own?.words[key], unreviewed, builtIn && builtInWord(builtIn, builtIn.english, key, defaults));
    if (text !== undefined) shown[key] = text;
  }
  return shown;
};

/**
 * The notice banner's shown words of a language of the tenant's own (no built-in word): what the
 * head keeps for the public notice, which lays them over the built-in words as it serves them
 * (noticeBannerLabels), so a new release's built-in words reach the widget without a write.
 */
export const noticeBannerShown = (language: LanguageCode, own: LanguageWords | undefined, unreviewed: Unreviewed) => shownOf(noticeBannerKeys, noticeBannerWords, language, own, unreviewed);

/**
 * The notice banner's words of a language as the public notice serves them: the tenant's shown
 * words (the head's projection) over the service's built-in words, each built-in word only where
 * the tenant's English for it is the catalogue's (the head keeps its English in full).
 */
export const noticeBannerServed = (head: WordsHead | undefined, language: LanguageCode, builtIn: Pick<BuiltInLanguage, 'words'> | undefined): Partial<Record<keyof typeof noticeBannerWords, string>> => {
  const own = head?.noticeBanner[language] ?? {};
  if (!builtIn || unreviewedOf(head) === 'ENGLISH') return own;
  const english = head?.noticeBanner.EN ?? {};
  const served: Partial<Record<keyof typeof noticeBannerWords, string>> = {};
  for (const key of noticeBannerKeys) {
    const text = own[key] ?? ((english[key] ?? noticeBannerWords[key]) === noticeBannerWords[key] ? builtIn.words[key] : undefined);
    if (text !== undefined) served[key] = text;
  }
  return served;
};

/**
 * A language as the public cookie configuration's labelSets carry it: the widget's words it
 * shows (every one for English), the service's built-in words included where `builtIn` is given
 * (a language the banner offers), or nothing when it shows none (the banner then does not offer it).
 */
export const widgetLabelSet = (
  language: LanguageCode,
  own: LanguageWords | undefined,
  unreviewed: Unreviewed,
  builtIn?: { words: BuiltInLanguage['words']; english: LanguageWords | undefined },
): WidgetLabelSet | undefined => {
  const labels = shownOf(widgetKeys, { ...noticeBannerWords, ...cookieBannerWords }, language, own, unreviewed, builtIn);
  if (language !== 'EN' && Object.keys(labels).length === 0) return undefined;
  const ownStatus = own ? summaryOf(own).status : 'DEFAULT';
  // A set without a word of the tenant's shown is the service's words (or English's default).
  const status: WordStatus = ownStatus === 'DEFAULT' && language !== 'EN' ? 'BUILT_IN' : ownStatus;
  return { labels, status, updatedAt: own?.updatedAt ?? null };
};

export interface WidgetLabelSet {
  labels: Partial<Record<WordKey, string>>;
  status: WordStatus;
  updatedAt: string | null;
}

/**
 * `sets` (keyed by lower-case code, as the cookie configuration has them) with these languages
 * projected again: the tenant's shown words, and the service's built-in words (`builtInOf`) of the
 * languages the banner offers (`offered`, its configured languages), each read over `english`.
 */
export const withWidgetLabelSets = (
  sets: Readonly<Record<string, WidgetLabelSet>>,
  languages: readonly LanguageCode[],
  wordsOf: (language: LanguageCode) => LanguageWords | undefined,
  unreviewed: Unreviewed,
  builtIns: { offered: readonly string[]; builtInOf: (language: LanguageCode) => Pick<BuiltInLanguage, 'words'> | undefined } = { offered: [], builtInOf: () => undefined },
): Record<string, WidgetLabelSet> => {
  const next = { ...sets };
  const offered = new Set(builtIns.offered.map((code) => code.toUpperCase()));
  for (const language of languages) {
    const builtIn = offered.has(language) ? builtIns.builtInOf(language) : undefined;
    const set = widgetLabelSet(language, wordsOf(language), unreviewed, builtIn && { words: builtIn.words, english: wordsOf('EN') });
    if (set) next[language.toLowerCase()] = set;
    else delete next[language.toLowerCase()];
  }
  return next;
};

/** A language shows some word (under the tenant's setting): one of the tenant's, or the service's built-in words. */
export const showsWords = (head: WordsHead | undefined, language: LanguageCode): boolean => {
  const counts = head?.languages[language]?.counts;
  const unreviewed = unreviewedOf(head);
  if (counts && (counts.REVIEWED > 0 || (unreviewed === 'MACHINE_DRAFTS' && counts.DRAFT > 0))) return true;
  return unreviewed !== 'ENGLISH' && hasBuiltIn(language);
};
