import { describe, expect, it } from 'vitest';
import { languageCodes } from '../shared/i18n/languages';
import { chromeLanguages, english, label, translationSlots } from '../web/portal/src/labels';
import { directionOf, initialLanguage, languageName, languageTag } from '../web/portal/src/languages';

describe('withdrawal pages: languages', () => {
  it('has a chrome slot, a name in itself and a tag for English and each of the 22 scheduled languages', () => {
    expect([...translationSlots].sort()).toEqual([...languageCodes].sort());
    for (const code of languageCodes) {
      expect(languageName(code), code).not.toBe(code);
      expect(languageTag(code), code).toMatch(/^[a-z]{2,3}$/);
    }
  });

  it('writes Urdu, Kashmiri and Sindhi right to left, and nothing else', () => {
    expect(languageCodes.filter((code) => directionOf(code) === 'rtl')).toEqual(['KS', 'SD', 'UR']);
  });

  it('falls back to English label by label and says so', () => {
    expect(chromeLanguages).toEqual(['EN', 'HI']);
    expect(label('HI', 'submit')).toEqual({ text: 'सहमति वापस लें', language: 'HI' });
    expect(label('HI', 'requiredHint')).toEqual({ text: english.requiredHint, language: 'EN' });
    expect(label('TA', 'intro', { tenant: 'Acme' })).toEqual({ text: english.intro.replace('{tenant}', 'Acme'), language: 'EN' });
  });

  it("picks the browser's first language the page has: exact tag, then base language, else English", () => {
    expect(initialLanguage(['EN', 'HI', 'UR'], ['ur-PK', 'hi'])).toBe('UR');
    expect(initialLanguage(['EN', 'HI'], ['fr-FR', 'hi-IN'])).toBe('HI');
    expect(initialLanguage(['EN', 'HI'], ['fr-FR'])).toBe('EN');
  });
});
