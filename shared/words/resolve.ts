import type { LanguageCode } from '../i18n/languages';
import { noticeBannerKeys, widgetKeys, type Unreviewed, type WordKey } from './catalogue';
import type { WordStatus } from './statuses';
import { fillWords } from './fill';
import { cookieBannerWords, noticeBannerWords } from './widget-words';
import { shownWord, summaryOf, type LanguageWords, type WordsHead } from './words';

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

/** The words of one language as a principal reads them: the language's shown word, else the tenant's English, marked as such. */
export const sayer =
  <K extends WordKey>(language: LanguageCode, own: LanguageWords | undefined, english: LanguageWords | undefined, unreviewed: Unreviewed, defaults: EnglishDefaults<K>): Say<K> =>
  (key, values) => {
    const text = language === 'EN' ? undefined : shownWord(own?.words[key], unreviewed);
    return text === undefined ? { text: fillWords(englishOf(english, key, defaults), valuesIn(values, 'EN')), language: 'EN' } : { text: fillWords(text, valuesIn(values, language)), language };
  };

/** Only the keys a language shows (all of them for English), as plain texts. */
const shownOf = <K extends WordKey>(keys: readonly K[], defaults: EnglishDefaults<K>, language: LanguageCode, own: LanguageWords | undefined, unreviewed: Unreviewed): Partial<Record<K, string>> => {
  const shown: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const text = language === 'EN' ? englishOf(own, key, defaults) : shownWord(own?.words[key], unreviewed);
    if (text !== undefined) shown[key] = text;
  }
  return shown;
};

/** The notice banner's shown words of a language: what the head keeps for the public notice. */
export const noticeBannerShown = (language: LanguageCode, own: LanguageWords | undefined, unreviewed: Unreviewed) => shownOf(noticeBannerKeys, noticeBannerWords, language, own, unreviewed);

/**
 * A language as the public cookie configuration's labelSets carry it: the widget's words it
 * shows (every one for English), or nothing when it shows none (the banner then does not offer it).
 */
export const widgetLabelSet = (language: LanguageCode, own: LanguageWords | undefined, unreviewed: Unreviewed): WidgetLabelSet | undefined => {
  const labels = shownOf(widgetKeys, { ...noticeBannerWords, ...cookieBannerWords }, language, own, unreviewed);
  if (language !== 'EN' && Object.keys(labels).length === 0) return undefined;
  return { labels, status: own ? summaryOf(own).status : 'DEFAULT', updatedAt: own?.updatedAt ?? null };
};

export interface WidgetLabelSet {
  labels: Partial<Record<WordKey, string>>;
  status: WordStatus;
  updatedAt: string | null;
}

/** `sets` (keyed by lower-case code, as the cookie configuration has them) with these languages projected again. */
export const withWidgetLabelSets = (
  sets: Readonly<Record<string, WidgetLabelSet>>,
  languages: readonly LanguageCode[],
  wordsOf: (language: LanguageCode) => LanguageWords | undefined,
  unreviewed: Unreviewed,
): Record<string, WidgetLabelSet> => {
  const next = { ...sets };
  for (const language of languages) {
    const set = widgetLabelSet(language, wordsOf(language), unreviewed);
    if (set) next[language.toLowerCase()] = set;
    else delete next[language.toLowerCase()];
  }
  return next;
};

/** A language shows some word of its own (under the tenant's setting). */
export const showsWords = (head: WordsHead | undefined, language: LanguageCode): boolean => {
  const counts = head?.languages[language]?.counts;
  return !!counts && (counts.REVIEWED > 0 || (head.unreviewed === 'MACHINE_DRAFTS' && counts.DRAFT > 0));
};
