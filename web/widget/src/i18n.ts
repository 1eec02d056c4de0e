import { widgetStorage } from '../../../shared/cmp/widget-storage';
import { load, save } from './env';

/** Native names for the switcher: a visitor looks for their language in their own script. */
const names: Record<string, string> = {
  EN: 'English', AS: 'অসমীয়া', BN: 'বাংলা', BRX: 'बड़ो', DOI: 'डोगरी', GU: 'ગુજરાતી', HI: 'हिन्दी', KN: 'ಕನ್ನಡ',
  KS: 'كٲشُر', KOK: 'कोंकणी', MAI: 'मैथिली', ML: 'മലയാളം', MNI: 'মৈতৈলোন্', MR: 'मराठी', NE: 'नेपाली', OR: 'ଓଡ଼ିଆ',
  PA: 'ਪੰਜਾਬੀ', SA: 'संस्कृतम्', SAT: 'ᱥᱟᱱᱛᱟᱲᱤ', SD: 'سنڌي', TA: 'தமிழ்', TE: 'తెలుగు', UR: 'اردو',
};
/** Every language the widget can show, before the tenant's are known. */
export const knownLanguages = Object.keys(names);

export const languageName = (code: string): string => (Object.prototype.hasOwnProperty.call(names, code) ? names[code]! : code);

const rtl = ['UR', 'KS', 'SD'];
export const directionOf = (code: string): 'rtl' | 'ltr' => (rtl.indexOf(code) >= 0 ? 'rtl' : 'ltr');

const savedKey = widgetStorage.language;
export const saveLanguage = (code: string): void => save(savedKey, code);

/**
 * The visitor's saved choice, else the embed's data-language, else the first of the browser's
 * languages offered (each tried exact, then as its base language: hi-IN is HI), else the page's <html lang>, else English.
 */
export const pickLanguage = (available: string[], embedLanguage: string | undefined): string => {
  const offered = (code: string | undefined): string | undefined => (code && available.indexOf(code) >= 0 ? code : undefined);
  const tag = (value: string) => value.toUpperCase();
  const base = (value: string) => tag(value.split('-')[0] ?? '');
  const browser = Array.from(navigator.languages ?? []);
  return (
    offered(load<string>(savedKey)) ??
    offered(embedLanguage) ??
    browser.map((value) => offered(tag(value)) ?? offered(base(value))).filter(Boolean)[0] ??
    offered(base(document.documentElement.lang || '')) ??
    'EN'
  );
};
