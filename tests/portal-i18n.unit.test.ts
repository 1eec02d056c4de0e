import { describe, expect, it } from 'vitest';
import { languageCodes } from '../shared/i18n/languages';
import { pageWords } from '../shared/words/page-words';
import { label, type PageWords } from '../web/portal/src/labels';
import { askedLanguages, directionOf, initialLanguage, languageName, languageTag } from '../web/portal/src/languages';

describe('withdrawal pages: languages', () => {
  it('has a name in itself and a tag for English and each of the 22 scheduled languages', () => {
    for (const code of languageCodes) {
      expect(languageName(code), code).not.toBe(code);
      expect(languageTag(code), code).toMatch(/^[a-z]{2,3}$/);
    }
  });

  it('writes Urdu, Kashmiri and Sindhi right to left, and nothing else', () => {
    expect(languageCodes.filter((code) => directionOf(code) === 'rtl')).toEqual(['KS', 'SD', 'UR']);
  });

  it("takes the tenant's words, English where the language shows none (and says so), the catalogue's English before they arrive", () => {
    const hindi: PageWords = {
      tenant: { name: 'Acme', slug: 'acme' },
      language: 'HI',
      languages: ['EN', 'HI'],
      words: { 'portal.submit': 'सहमति वापस लें', 'portal.requiredHint': 'Acme English hint', 'portal.intro': '{tenant} ने सहमति दर्ज की है।' },
      english: ['portal.requiredHint'],
    };
    expect(label(hindi, 'HI', 'portal.submit')).toEqual({ text: 'सहमति वापस लें', language: 'HI' });
    expect(label(hindi, 'HI', 'portal.requiredHint')).toEqual({ text: 'Acme English hint', language: 'EN' });
    expect(label(hindi, 'HI', 'portal.intro', { tenant: 'Acme' })).toEqual({ text: 'Acme ने सहमति दर्ज की है।', language: 'HI' });
    // Words of another language (the switcher just moved on) or none yet: the catalogue's English, marked.
    expect(label(hindi, 'TA', 'portal.submit')).toEqual({ text: pageWords['portal.submit'], language: 'EN' });
    expect(label(undefined, 'HI', 'portal.intro', { tenant: 'Acme' })).toEqual({ text: pageWords['portal.intro'].replace('{tenant}', 'Acme'), language: 'EN' });
  });

  it("picks the browser's first language the page has: exact tag, then base language, else English", () => {
    expect(initialLanguage(['EN', 'HI', 'UR'], ['ur-PK', 'hi'])).toBe('UR');
    expect(initialLanguage(['EN', 'HI'], ['fr-FR', 'hi-IN'])).toBe('HI');
    expect(initialLanguage(['EN', 'HI'], ['fr-FR'])).toBe('EN');
  });

  it("honours a link's ?lang= (tag or code) before the browser's languages, and the browser's without one", () => {
    expect(initialLanguage(['EN', 'HI', 'TA'], askedLanguages('?lang=ta', ['hi-IN']))).toBe('TA');
    expect(initialLanguage(['EN', 'HI', 'TA'], askedLanguages('?lang=TA', ['hi-IN']))).toBe('TA');
    expect(initialLanguage(['EN', 'HI', 'UR'], askedLanguages('?x=1&lang=ur', []))).toBe('UR');
    // A language the page does not have: the browser's next.
    expect(initialLanguage(['EN', 'HI'], askedLanguages('?lang=fr', ['hi-IN']))).toBe('HI');
    expect(initialLanguage(['EN', 'HI'], askedLanguages('', ['hi-IN']))).toBe('HI');
  });
});
