import type { LanguageCode } from '../i18n/languages';
import type { NoticeBannerWordKey } from './widget-words';
import type { Unreviewed, WordKey } from './catalogue';
import type { WordStatus } from './statuses';

/** A word of the tenant's in one language: its text and where it came from. */
export interface StoredWord {
  text: string;
  status: Exclude<WordStatus, 'DEFAULT'>;
}

/** One language's words: only keys the tenant has a word for (a missing key is the English default). */
export interface LanguageWords {
  language: LanguageCode;
  words: Partial<Record<WordKey, StoredWord>>;
  updatedAt: string;
}

export type WordCounts = Record<Exclude<WordStatus, 'DEFAULT'>, number>;

export interface LanguageSummary {
  status: WordStatus;
  counts: WordCounts;
  updatedAt: string;
}

/**
 * What every reader of the tenant's words needs first, kept small: the setting for unreviewed
 * words, each language's status and counts, and the notice banner's words as shown (English in
 * full, other languages only the keys they show), which the public notice serves to the widget.
 */
export interface WordsHead {
  tenantId: string;
  revision: number;
  unreviewed: Unreviewed;
  languages: Partial<Record<LanguageCode, LanguageSummary>>;
  noticeBanner: Partial<Record<LanguageCode, Partial<Record<NoticeBannerWordKey, string>>>>;
  updatedAt: string | null;
}

export const emptyHead = (tenantId: string): WordsHead => ({ tenantId, revision: 0, unreviewed: 'ENGLISH', languages: {}, noticeBanner: {}, updatedAt: null });

/** REVIEWED once a person saved any word of it; else DRAFT while any word is a machine draft; else NEEDS_TRANSLATION; DEFAULT when it has none. */
export const summaryOf = (language: LanguageWords): LanguageSummary => {
  const counts: WordCounts = { DRAFT: 0, NEEDS_TRANSLATION: 0, REVIEWED: 0 };
  for (const word of Object.values(language.words)) if (word) counts[word.status] += 1;
  const status: WordStatus = counts.REVIEWED > 0 ? 'REVIEWED' : counts.DRAFT > 0 ? 'DRAFT' : counts.NEEDS_TRANSLATION > 0 ? 'NEEDS_TRANSLATION' : 'DEFAULT';
  return { status, counts, updatedAt: language.updatedAt };
};

/** A word is shown in its language when a person reviewed it, or when it is a machine draft and the tenant chose to show those. */
export const shownWord = (word: StoredWord | undefined, unreviewed: Unreviewed): string | undefined =>
  word && (word.status === 'REVIEWED' || (word.status === 'DRAFT' && unreviewed === 'MACHINE_DRAFTS')) ? word.text : undefined;
