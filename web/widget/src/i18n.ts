import { widgetStorage } from '../../../shared/cmp/widget-storage';
import { load, save } from './env';

/** Every language the widget can show, before the tenant's are known (their names come with the bootstrap). */
export const knownLanguages = 'EN AS BN BRX DOI GU HI KN KS KOK MAI ML MNI MR NE OR PA SA SAT SD TA TE UR'.split(' ');

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
