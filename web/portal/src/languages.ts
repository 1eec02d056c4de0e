import { languages } from '../../../shared/i18n/languages';

/**
 * How the language switcher names each language (in itself, as people look for their own), the
 * BCP 47 tag for `lang`, and the writing direction: all from the one list (shared/i18n/languages.ts).
 */
const known = new Map<string, (typeof languages)[number]>(languages.map((language) => [language.code, language]));

export const languageName = (code: string): string => known.get(code)?.native ?? code;
export const languageTag = (code: string): string => known.get(code)?.iso ?? 'en';
export { directionOf } from '../../../shared/i18n/languages';

/** The first of the browser's languages the page has (exact tag, then base language), else English. */
export const initialLanguage = (available: readonly string[], preferred: readonly string[]): string => {
  const byTag = new Map(available.map((code) => [languageTag(code), code]));
  for (const wanted of preferred) {
    const tag = wanted.toLowerCase();
    const match = byTag.get(tag) ?? byTag.get(tag.split('-')[0] ?? '');
    if (match) return match;
  }
  return available.includes('EN') ? 'EN' : (available[0] ?? 'EN');
};
