import type { LanguageCode } from '../i18n/languages';
import type { Translator } from '../translation/translator';
import { draftTranslation } from '../translation/translator';
import type { WordKey } from './catalogue';
import { placeholdersOf } from './fill';
import type { StoredWord } from './words';

/**
 * A `{slot}` is sent to the translator inside a do-not-translate element (Amazon Translate leaves
 * the content of `translate="no"` elements as it is) and unwrapped after; a draft that still lost
 * or changed a slot is not kept: that word stays English, NEEDS_TRANSLATION, for a person.
 */
const protect = (text: string): string => text.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, '<span translate="no">{$1}</span>');
const unprotect = (text: string): string =>
  text
    .replace(/<span translate=["']?no["']?>\s*(\{[A-Za-z][A-Za-z0-9]*\})\s*<\/span>/g, '$1')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const sameSlots = (a: string, b: string) => placeholdersOf(a).join() === placeholdersOf(b).join();

/** Every given English word drafted into `language`, each DRAFT, or NEEDS_TRANSLATION (English kept) where the translator cannot. */
export const draftWords = async (translator: Translator, english: Partial<Record<WordKey, string>>, language: LanguageCode): Promise<Partial<Record<WordKey, StoredWord>>> => {
  const sent = Object.fromEntries(Object.entries(english).map(([key, text]) => [key, placeholdersOf(text!).length > 0 ? protect(text!) : text!]));
  const { texts, source } = await draftTranslation(translator, sent, language);
  const drafted: Partial<Record<WordKey, StoredWord>> = {};
  for (const [key, text] of Object.entries(english) as [WordKey, string][]) {
    const back = placeholdersOf(text).length > 0 ? unprotect(texts[key] ?? '') : (texts[key] ?? '');
    drafted[key] = source === 'MACHINE_DRAFTED' && back.trim() !== '' && sameSlots(back, text) ? { text: back, status: 'DRAFT' } : { text, status: 'NEEDS_TRANSLATION' };
  }
  return drafted;
};
