import { fillWords } from '../../../shared/words/fill';
import { pageWords, type PageWordKey } from '../../../shared/words/page-words';

export type LabelKey = PageWordKey;

/**
 * The tenant's words for the pages in one language, as GET /words/public/:tenantSlug answers:
 * every page key's word, and which of them are English because the language shows none of its own.
 */
export interface PageWords {
  tenant: { name: string; slug: string };
  language: string;
  languages: string[];
  words: Partial<Record<LabelKey, string>>;
  english: string[];
}

/**
 * A label in `language` from the tenant's words, with `{name}` values filled in (as text, never
 * HTML), and the language it is actually in, so English standing in can be marked as such.
 * Without the tenant's words for that language (not loaded yet, or a link of no known tenant), the
 * catalogue's English.
 */
export const label = (words: PageWords | undefined, language: string, key: LabelKey, values: Record<string, string | number> = {}): { text: string; language: string } => {
  const own = words?.language === language ? words.words[key] : undefined;
  return { text: fillWords(own ?? pageWords[key], values), language: own === undefined || words!.english.includes(key) ? 'EN' : language };
};
