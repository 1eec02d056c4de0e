import type { LanguageCode } from '../i18n/languages';
import type { NoticeBannerWordKey } from './widget-words';
import type { Unreviewed, WordKey } from './catalogue';
import type { StoredStatus, WordStatus } from './statuses';

/** A word of the tenant's in one language: its text and where it came from. */
export interface StoredWord {
  text: string;
  status: StoredStatus;
}

/** One language's words: only keys the tenant has a word for (a missing key is the English default). */
export interface LanguageWords {
  language: LanguageCode;
  words: Partial<Record<WordKey, StoredWord>>;
  updatedAt: string;
}

export type WordCounts = Record<StoredStatus, number>;

export interface LanguageSummary {
  status: WordStatus;
  counts: WordCounts;
  updatedAt: string;
}

/**
 * What every reader of the tenant's words needs first, kept small: the setting for unreviewed
 * words, each language's status and counts, and the notice banner's words of the tenant's own as
 * shown (English in full, other languages only the keys they show), which the public notice
 * serves to the widget over the service's built-in words.
 */
export interface WordsHead {
  tenantId: string;
  revision: number;
  unreviewed: Unreviewed;
  languages: Partial<Record<LanguageCode, LanguageSummary>>;
  noticeBanner: Partial<Record<LanguageCode, Partial<Record<NoticeBannerWordKey, string>>>>;
  updatedAt: string | null;
}

/** What a tenant that never chose shows: the service's built-in words. */
export const defaultUnreviewed: Unreviewed = 'BUILT_IN';

export const emptyHead = (tenantId: string): WordsHead => ({ tenantId, revision: 0, unreviewed: defaultUnreviewed, languages: {}, noticeBanner: {}, updatedAt: null });

/** The setting of a tenant's words: a tenant without a head never chose, and shows the default. */
export const unreviewedOf = (head: Pick<WordsHead, 'unreviewed'> | undefined): Unreviewed => head?.unreviewed ?? defaultUnreviewed;

/** REVIEWED once a person saved any word of it; else DRAFT while any word is a machine draft; else NEEDS_TRANSLATION; DEFAULT when it has none. */
export const summaryOf = (language: LanguageWords): LanguageSummary => {
  const counts: WordCounts = { DRAFT: 0, NEEDS_TRANSLATION: 0, REVIEWED: 0 };
  for (const word of Object.values(language.words)) if (word) counts[word.status] += 1;
  const status: WordStatus = counts.REVIEWED > 0 ? 'REVIEWED' : counts.DRAFT > 0 ? 'DRAFT' : counts.NEEDS_TRANSLATION > 0 ? 'NEEDS_TRANSLATION' : 'DEFAULT';
  return { status, counts, updatedAt: language.updatedAt };
};

/** Where the word a principal reads in a language comes from; ENGLISH where the language shows none. */
export type ShownFrom = 'REVIEWED' | 'DRAFT' | 'BUILT_IN' | 'ENGLISH';

/**
 * Which word of a language a principal reads: the tenant's word a person reviewed; else, by the
 * tenant's choice, its machine draft (MACHINE_DRAFTS) or nothing more (ENGLISH); else, unless it
 * chose ENGLISH, the service's built-in word (`builtIn`: only where it translates the tenant's
 * English, see builtInWord); else none, and English stands in. A NEEDS_TRANSLATION word is never shown.
 */
export const shownSource = (word: StoredWord | undefined, unreviewed: Unreviewed, builtIn?: string): { text: string; from: Exclude<ShownFrom, 'ENGLISH'> } | undefined => {
  if (word?.status === 'REVIEWED') return { text: word.text, from: 'REVIEWED' };
  if (word?.status === 'DRAFT' && unreviewed === 'MACHINE_DRAFTS') return { text: word.text, from: 'DRAFT' };
  return builtIn !== undefined && unreviewed !== 'ENGLISH' ? { text: builtIn, from: 'BUILT_IN' } : undefined;
};

export const shownWord = (word: StoredWord | undefined, unreviewed: Unreviewed, builtIn?: string): string | undefined => shownSource(word, unreviewed, builtIn)?.text;
