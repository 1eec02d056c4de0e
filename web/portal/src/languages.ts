import { languages } from '../../../shared/i18n/languages';

/**
 * How the language switcher names each language (in itself, as people look for their own), the
 * BCP 47 tag for `lang`, and the writing direction: all from the one list (shared/i18n/languages.ts).
 */
const known = new Map<string, (typeof languages)[number]>(languages.map((language) => [language.code, language]));

export const languageName = (code: string): string => known.get(code)?.native ?? code;
export const languageTag = (code: string): string => known.get(code)?.iso ?? 'en';
export { directionOf } from '../../../shared/i18n/languages';

/**
 * The languages a visitor asks for, first first: the link's `?lang=` (a tag such as `ta` or a code
 * such as `TA`; a tenant links to its page in a language so), then the browser's own (its
 * Accept-Language setting, which the browser gives the page as navigator.languages).
 */
export const askedLanguages = (search: string, browser: readonly string[]): string[] => {
  const asked = new URLSearchParams(search).get('lang')?.trim();
  if (!asked) return [...browser];
  return [known.has(asked.toUpperCase()) ? languageTag(asked.toUpperCase()) : asked, ...browser];
};

/** The first of the asked languages the page has (exact tag, then base language), else English. */
export const initialLanguage = (available: readonly string[], preferred: readonly string[]): string => {
  const byTag = new Map(available.map((code) => [languageTag(code), code]));
  for (const wanted of preferred) {
    const tag = wanted.toLowerCase();
    const match = byTag.get(tag) ?? byTag.get(tag.split('-')[0] ?? '');
    if (match) return match;
  }
  return available.includes('EN') ? 'EN' : (available[0] ?? 'EN');
};
