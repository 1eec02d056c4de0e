/**
 * English plus the 22 languages of the Eighth Schedule to the Constitution of India, listed once.
 * Codes are the service's own upper-case codes (used in paths and payloads); `iso` is the
 * ISO 639 code translation engines use; `native` is the language's name in itself (as a person looks
 * for their own in a language switcher; Manipuri in Meitei Mayek, as the built-in words are written).
 */
export const languages = [
  { code: 'EN', iso: 'en', name: 'English', native: 'English' },
  { code: 'AS', iso: 'as', name: 'Assamese', native: 'অসমীয়া' },
  { code: 'BN', iso: 'bn', name: 'Bengali', native: 'বাংলা' },
  { code: 'BRX', iso: 'brx', name: 'Bodo', native: 'बड़ो' },
  { code: 'DOI', iso: 'doi', name: 'Dogri', native: 'डोगरी' },
  { code: 'GU', iso: 'gu', name: 'Gujarati', native: 'ગુજરાતી' },
  { code: 'HI', iso: 'hi', name: 'Hindi', native: 'हिन्दी' },
  { code: 'KN', iso: 'kn', name: 'Kannada', native: 'ಕನ್ನಡ' },
  { code: 'KS', iso: 'ks', name: 'Kashmiri', native: 'کٲشُر' },
  { code: 'KOK', iso: 'kok', name: 'Konkani', native: 'कोंकणी' },
  { code: 'MAI', iso: 'mai', name: 'Maithili', native: 'मैथिली' },
  { code: 'ML', iso: 'ml', name: 'Malayalam', native: 'മലയാളം' },
  { code: 'MNI', iso: 'mni', name: 'Manipuri', native: 'ꯃꯤꯇꯩꯂꯣꯟ' },
  { code: 'MR', iso: 'mr', name: 'Marathi', native: 'मराठी' },
  { code: 'NE', iso: 'ne', name: 'Nepali', native: 'नेपाली' },
  { code: 'OR', iso: 'or', name: 'Odia', native: 'ଓଡ଼ିଆ' },
  { code: 'PA', iso: 'pa', name: 'Punjabi', native: 'ਪੰਜਾਬੀ' },
  { code: 'SA', iso: 'sa', name: 'Sanskrit', native: 'संस्कृतम्' },
  { code: 'SAT', iso: 'sat', name: 'Santali', native: 'ᱥᱟᱱᱛᱟᱲᱤ' },
  { code: 'SD', iso: 'sd', name: 'Sindhi', native: 'سنڌي' },
  { code: 'TA', iso: 'ta', name: 'Tamil', native: 'தமிழ்' },
  { code: 'TE', iso: 'te', name: 'Telugu', native: 'తెలుగు' },
  { code: 'UR', iso: 'ur', name: 'Urdu', native: 'اردو' },
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

/**
 * The names in themselves of the languages a banner or page offers (unknown codes left out), sent
 * with the public notice and the cookie configuration so the widget carries no table of its own.
 */
export const nativeNamesOf = (codes: readonly string[]): Record<string, string> =>
  Object.fromEntries(languages.filter((language) => codes.some((code) => code.toUpperCase() === language.code)).map((language) => [language.code, language.native]));
