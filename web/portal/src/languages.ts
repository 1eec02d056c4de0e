/**
 * How the language switcher names each language (in itself, as people look for their own), the
 * BCP 47 tag for `lang`, and the writing direction. Codes are the service's (shared/i18n/languages.ts).
 */
const known: Record<string, { name: string; tag: string }> = {
  EN: { name: 'English', tag: 'en' },
  AS: { name: 'অসমীয়া', tag: 'as' },
  BN: { name: 'বাংলা', tag: 'bn' },
  BRX: { name: 'बड़ो', tag: 'brx' },
  DOI: { name: 'डोगरी', tag: 'doi' },
  GU: { name: 'ગુજરાતી', tag: 'gu' },
  HI: { name: 'हिन्दी', tag: 'hi' },
  KN: { name: 'ಕನ್ನಡ', tag: 'kn' },
  KS: { name: 'کٲشُر', tag: 'ks' },
  KOK: { name: 'कोंकणी', tag: 'kok' },
  MAI: { name: 'मैथिली', tag: 'mai' },
  ML: { name: 'മലയാളം', tag: 'ml' },
  MNI: { name: 'ꯃꯤꯇꯩꯂꯣꯟ', tag: 'mni' },
  MR: { name: 'मराठी', tag: 'mr' },
  NE: { name: 'नेपाली', tag: 'ne' },
  OR: { name: 'ଓଡ଼ିଆ', tag: 'or' },
  PA: { name: 'ਪੰਜਾਬੀ', tag: 'pa' },
  SA: { name: 'संस्कृतम्', tag: 'sa' },
  SAT: { name: 'ᱥᱟᱱᱛᱟᱲᱤ', tag: 'sat' },
  SD: { name: 'سنڌي', tag: 'sd' },
  TA: { name: 'தமிழ்', tag: 'ta' },
  TE: { name: 'తెలుగు', tag: 'te' },
  UR: { name: 'اردو', tag: 'ur' },
};

export const languageName = (code: string): string => known[code]?.name ?? code;
export const languageTag = (code: string): string => known[code]?.tag ?? 'en';
export { directionOf } from '../../../shared/i18n/languages';

/**
 * The languages a visitor asks for, first first: the link's `?lang=` (a tag such as `ta` or a code
 * such as `TA`; a tenant links to its page in a language so), then the browser's own (its
 * Accept-Language setting, which the browser gives the page as navigator.languages).
 */
export const askedLanguages = (search: string, browser: readonly string[]): string[] => {
  const asked = new URLSearchParams(search).get('lang')?.trim();
  if (!asked) return [...browser];
  return [known[asked.toUpperCase()] ? languageTag(asked.toUpperCase()) : asked, ...browser];
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
