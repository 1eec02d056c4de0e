/**
 * English plus the 22 languages of the Eighth Schedule to the Constitution of India, listed once.
 * Codes are the service's own upper-case codes (used in paths and payloads); `iso` is the
 * ISO 639 code translation engines use.
 */
export const languages = [
  { code: 'EN', iso: 'en', name: 'English' },
  { code: 'AS', iso: 'as', name: 'Assamese' },
  { code: 'BN', iso: 'bn', name: 'Bengali' },
  { code: 'BRX', iso: 'brx', name: 'Bodo' },
  { code: 'DOI', iso: 'doi', name: 'Dogri' },
  { code: 'GU', iso: 'gu', name: 'Gujarati' },
  { code: 'HI', iso: 'hi', name: 'Hindi' },
  { code: 'KN', iso: 'kn', name: 'Kannada' },
  { code: 'KS', iso: 'ks', name: 'Kashmiri' },
  { code: 'KOK', iso: 'kok', name: 'Konkani' },
  { code: 'MAI', iso: 'mai', name: 'Maithili' },
  { code: 'ML', iso: 'ml', name: 'Malayalam' },
  { code: 'MNI', iso: 'mni', name: 'Manipuri' },
  { code: 'MR', iso: 'mr', name: 'Marathi' },
  { code: 'NE', iso: 'ne', name: 'Nepali' },
  { code: 'OR', iso: 'or', name: 'Odia' },
  { code: 'PA', iso: 'pa', name: 'Punjabi' },
  { code: 'SA', iso: 'sa', name: 'Sanskrit' },
  { code: 'SAT', iso: 'sat', name: 'Santali' },
  { code: 'SD', iso: 'sd', name: 'Sindhi' },
  { code: 'TA', iso: 'ta', name: 'Tamil' },
  { code: 'TE', iso: 'te', name: 'Telugu' },
  { code: 'UR', iso: 'ur', name: 'Urdu' },
] as const;

export type LanguageCode = (typeof languages)[number]['code'];

export const languageCodes = languages.map((language) => language.code) as [LanguageCode, ...LanguageCode[]];

/** The 22 scheduled languages a notice can be translated into (every language but English). */
export const scheduledLanguageCodes = languageCodes.filter((code) => code !== 'EN');

export const isLanguageCode = (value: string): value is LanguageCode => (languageCodes as string[]).includes(value);

export const isoOf = (code: LanguageCode): string => languages.find((language) => language.code === code)!.iso;

/** Urdu, Kashmiri and Sindhi are written right to left (Perso-Arabic scripts). */
export const rightToLeftCodes: readonly LanguageCode[] = ['KS', 'SD', 'UR'];

export const directionOf = (code: string): 'rtl' | 'ltr' => ((rightToLeftCodes as readonly string[]).includes(code) ? 'rtl' : 'ltr');
