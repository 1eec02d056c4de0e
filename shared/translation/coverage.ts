import type { LanguageCode } from '../i18n/languages';

/**
 * Scheduled languages Amazon Translate cannot target: it lists none of them on its "Supported
 * languages and language codes" page (docs.aws.amazon.com/translate/latest/dg/what-is-languages.html).
 * The local translator lacks the same ones, so the NEEDS_TRANSLATION path runs locally as in AWS.
 */
export const untranslatableLanguages: ReadonlySet<LanguageCode> = new Set<LanguageCode>([
  'AS',
  'BRX',
  'DOI',
  'KS',
  'KOK',
  'MAI',
  'MNI',
  'NE',
  'OR',
  'SA',
  'SAT',
  'SD',
]);

export const machineTranslatable = (language: LanguageCode): boolean => !untranslatableLanguages.has(language);
