import type { LanguageCode } from '../i18n/languages';

/**
 * The Translator port: machine translation from English, the only source language. Its
 * implementations (Amazon Translate, the local translator) and the choice between them
 * (select.ts) sit above it, so this module imports neither.
 */
export interface Translator {
  readonly name: string;
  /** A stand-in that marks its drafts (`[TA machine draft] …`) instead of translating: the local stack's. */
  readonly standIn?: boolean;
  supports(language: LanguageCode): boolean;
  translate(texts: string[], target: LanguageCode): Promise<string[]>;
}

export interface DraftedTranslation {
  texts: Record<string, string>;
  source: 'MACHINE_DRAFTED' | 'NEEDS_TRANSLATION';
}

/**
 * Drafts every value in one `translate` call. A language the translator lacks keeps the English
 * texts, marked for a person to translate.
 */
export const draftTranslation = async (
  translator: Translator,
  texts: Record<string, string>,
  target: LanguageCode,
): Promise<DraftedTranslation> => {
  if (!translator.supports(target)) return { texts: { ...texts }, source: 'NEEDS_TRANSLATION' };
  // Empty fields stay empty: nothing to translate, and TranslateText rejects an empty text.
  const keys = Object.keys(texts).filter((key) => texts[key] !== '');
  const translated = keys.length === 0 ? [] : await translator.translate(keys.map((key) => texts[key] as string), target);
  if (translated.length !== keys.length) {
    throw new Error(`${translator.name} returned ${translated.length} texts for ${keys.length}`);
  }
  const drafted = { ...texts };
  keys.forEach((key, index) => {
    drafted[key] = translated[index] as string;
  });
  return { texts: drafted, source: 'MACHINE_DRAFTED' };
};
