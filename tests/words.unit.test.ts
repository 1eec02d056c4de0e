import { describe, expect, it } from 'vitest';
import { composeMail } from '../shared/mail/compose';
import type { Translator } from '../shared/translation/translator';
import { localTranslator } from '../shared/translation/local-translator';
import { englishWords, isWordKey, surfaceOf, surfaces, wordKeys } from '../shared/words/catalogue';
import { draftWords } from '../shared/words/drafting';
import { fillWords, placeholdersOf } from '../shared/words/fill';
import { noticeBannerServed, noticeBannerShown, sayer, widgetLabelSet, withWidgetLabelSets } from '../shared/words/resolve';
import { wordsBody } from '../shared/words/schemas';
import { emptyHead, type LanguageWords } from '../shared/words/words';

const tamil: LanguageWords = {
  language: 'TA',
  updatedAt: '2026-11-20T10:00:00.000Z',
  words: {
    acceptAll: { text: 'அனைத்தையும் ஏற்கவும்', status: 'REVIEWED' },
    rejectAll: { text: '[TA machine draft] Reject all', status: 'DRAFT' },
    close: { text: 'Close', status: 'NEEDS_TRANSLATION' },
    'portal.intro': { text: '{tenant} உங்கள் ஒப்புதலைப் பதிவு செய்தது.', status: 'REVIEWED' },
  },
};
const english: LanguageWords = { language: 'EN', updatedAt: '2026-11-20T10:00:00.000Z', words: { rejectAll: { text: 'Say no to all', status: 'REVIEWED' } } };

describe('the principal words catalogue', () => {
  it('names every key once, in exactly one surface, with an English default', () => {
    const all = surfaces.flatMap((surface) => Object.keys(surface.words));
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual([...wordKeys].sort());
    for (const key of wordKeys) {
      expect(englishWords[key].trim(), key).not.toBe('');
      expect(surfaces.find((surface) => surface.id === surfaceOf(key))!.words).toHaveProperty([key]);
    }
    expect(isWordKey('portal.pageTitle')).toBe(true);
    expect(isWordKey('constructor')).toBe(false);
  });

  it('finds and fills {slots}, leaving a slot without a value as written', () => {
    expect(placeholdersOf('{tenant} and {email}, {tenant} again')).toEqual(['email', 'tenant']);
    expect(fillWords('{tenant}: {unknown}', { tenant: 'Acme' })).toBe('Acme: {unknown}');
    expect(fillWords('{constructor}', {})).toBe('{constructor}');
  });
});

describe("a tenant's words as a principal reads them", () => {
  it('shows reviewed words, machine drafts only by the tenant\'s choice, and never a NEEDS_TRANSLATION stand-in; English otherwise, marked as English', () => {
    const asWritten = sayer('TA', tamil, english, 'ENGLISH', englishWords);
    expect(asWritten('acceptAll')).toEqual({ text: 'அனைத்தையும் ஏற்கவும்', language: 'TA' });
    expect(asWritten('rejectAll')).toEqual({ text: 'Say no to all', language: 'EN' });
    expect(asWritten('close')).toEqual({ text: englishWords.close, language: 'EN' });
    expect(asWritten('portal.intro', { tenant: 'Acme' })).toEqual({ text: 'Acme உங்கள் ஒப்புதலைப் பதிவு செய்தது.', language: 'TA' });
    const drafts = sayer('TA', tamil, english, 'MACHINE_DRAFTS', englishWords);
    expect(drafts('rejectAll')).toEqual({ text: '[TA machine draft] Reject all', language: 'TA' });
    expect(drafts('close').language).toBe('EN');
    // A value written for the language the word turned out to be in.
    expect(asWritten('mail.withdrawal.confirmedText', { at: (language) => `at-${language}` }).text).toContain('at-EN');
  });

  it("projects the widget's shown words: English in full, a language only with what it shows, or not at all", () => {
    expect(noticeBannerShown('TA', tamil, 'ENGLISH')).toEqual({ acceptAll: 'அனைத்தையும் ஏற்கவும்' });
    expect(noticeBannerShown('TA', tamil, 'MACHINE_DRAFTS')).toEqual({ acceptAll: 'அனைத்தையும் ஏற்கவும்', rejectAll: '[TA machine draft] Reject all' });
    expect(noticeBannerShown('EN', english, 'ENGLISH')).toMatchObject({ acceptAll: 'Accept all', rejectAll: 'Say no to all' });
    expect(widgetLabelSet('TA', { ...tamil, words: { close: tamil.words.close } }, 'MACHINE_DRAFTS')).toBeUndefined();
    expect(widgetLabelSet('TA', tamil, 'ENGLISH')).toMatchObject({ status: 'REVIEWED', labels: { acceptAll: 'அனைத்தையும் ஏற்கவும்' } });
  });
});

describe("the service's built-in words as a principal reads them", () => {
  /** The service's Tamil for three keys (the real files are checked in built-in-words.unit.test.ts). */
  const builtIn = { words: { acceptAll: 'SERVICE-acceptAll', rejectAll: 'SERVICE-rejectAll', close: 'SERVICE-close', 'portal.intro': 'SERVICE {tenant}' } };

  it("stand where the tenant has no reviewed word, under BUILT_IN; under its drafts with MACHINE_DRAFTS; never under ENGLISH", () => {
    const fresh = sayer('TA', undefined, undefined, 'BUILT_IN', englishWords, builtIn);
    expect(fresh('acceptAll')).toEqual({ text: 'SERVICE-acceptAll', language: 'TA' });
    expect(fresh('portal.intro', { tenant: 'Acme' })).toEqual({ text: 'SERVICE Acme', language: 'TA' });
    // A key the service has no word for (not so in the real files) reads in English.
    expect(fresh('portal.pageTitle')).toEqual({ text: englishWords['portal.pageTitle'], language: 'EN' });
    const withTenant = sayer('TA', tamil, undefined, 'BUILT_IN', englishWords, builtIn);
    // The tenant's reviewed word over the service's; its draft and its NEEDS_TRANSLATION stand-in never under BUILT_IN.
    expect(withTenant('acceptAll').text).toBe('அனைத்தையும் ஏற்கவும்');
    expect(withTenant('rejectAll').text).toBe('SERVICE-rejectAll');
    expect(withTenant('close').text).toBe('SERVICE-close');
    expect(sayer('TA', tamil, undefined, 'MACHINE_DRAFTS', englishWords, builtIn)('rejectAll').text).toBe('[TA machine draft] Reject all');
    expect(sayer('TA', tamil, undefined, 'MACHINE_DRAFTS', englishWords, builtIn)('close').text).toBe('SERVICE-close');
    expect(sayer('TA', tamil, undefined, 'ENGLISH', englishWords, builtIn)('close')).toEqual({ text: 'Close', language: 'EN' });
  });

  it("stand only where the tenant's English for the key is the catalogue's, which they translate", () => {
    // The tenant rewrote rejectAll in English: the service's word no longer says what it says.
    expect(sayer('TA', undefined, english, 'BUILT_IN', englishWords, builtIn)('rejectAll')).toEqual({ text: 'Say no to all', language: 'EN' });
    expect(sayer('TA', undefined, english, 'BUILT_IN', englishWords, builtIn)('acceptAll').text).toBe('SERVICE-acceptAll');
  });

  it("serve the notice banner the tenant's own shown words over the service's, by the setting", () => {
    const head = { ...emptyHead('t'), noticeBanner: { EN: { acceptAll: 'Accept all', rejectAll: 'Say no to all' }, TA: { acceptAll: 'அனைத்தையும் ஏற்கவும்' } } };
    expect(noticeBannerServed(head, 'TA', builtIn)).toEqual({ acceptAll: 'அனைத்தையும் ஏற்கவும்', close: 'SERVICE-close' });
    expect(noticeBannerServed(undefined, 'TA', builtIn)).toEqual({ acceptAll: 'SERVICE-acceptAll', rejectAll: 'SERVICE-rejectAll', close: 'SERVICE-close' });
    expect(noticeBannerServed({ ...head, unreviewed: 'ENGLISH' }, 'TA', builtIn)).toEqual({ acceptAll: 'அனைத்தையும் ஏற்கவும்' });
  });

  it("put the service's words in the cookie banner's label set of a language it offers, status BUILT_IN without the tenant's", () => {
    const builtIns = { offered: ['en', 'ta'], builtInOf: () => builtIn };
    const sets = withWidgetLabelSets({}, ['EN', 'TA', 'HI'], () => undefined, 'BUILT_IN', builtIns);
    expect(Object.keys(sets)).toEqual(['en', 'ta']);
    expect(sets.ta).toEqual({ labels: { acceptAll: 'SERVICE-acceptAll', rejectAll: 'SERVICE-rejectAll', close: 'SERVICE-close' }, status: 'BUILT_IN', updatedAt: null });
    expect(withWidgetLabelSets({}, ['TA'], (language) => (language === 'TA' ? tamil : undefined), 'BUILT_IN', builtIns).ta).toMatchObject({ status: 'REVIEWED', labels: { acceptAll: 'அனைத்தையும் ஏற்கவும்', rejectAll: 'SERVICE-rejectAll' } });
    expect(withWidgetLabelSets({ ta: sets.ta! }, ['TA'], () => undefined, 'ENGLISH', builtIns)).toEqual({});
  });
});

describe('machine drafts of the words', () => {
  const sample = { acceptAll: 'Accept all', 'portal.intro': englishWords['portal.intro'], 'portal.sentText': englishWords['portal.sentText'] };

  it('keeps {slots} through the translator, and keeps English (NEEDS_TRANSLATION) where a draft loses one or the language is not supported', async () => {
    const drafted = await draftWords(localTranslator, sample, 'TA');
    expect(drafted.acceptAll).toEqual({ text: '[TA machine draft] Accept all', status: 'DRAFT' });
    expect(drafted['portal.intro']).toEqual({ text: `[TA machine draft] ${englishWords['portal.intro']}`, status: 'DRAFT' });
    // A translator that translates what it was asked not to, and escapes quotes as HTML.
    const careless: Translator = {
      name: 'careless',
      supports: () => true,
      translate: async (texts) => texts.map((text) => text.replace(/<span translate="no">\{tenant\}<\/span>/, 'the organisation').replace(/"/g, '&quot;')),
    };
    const lossy = await draftWords(careless, sample, 'HI');
    expect(lossy['portal.intro']).toEqual({ text: englishWords['portal.intro'], status: 'NEEDS_TRANSLATION' });
    expect(lossy['portal.sentText']).toMatchObject({ status: 'DRAFT' });
    expect(lossy['portal.sentText']!.text).toContain('{email}');
    expect((await draftWords(localTranslator, sample, 'AS'))['acceptAll']).toEqual({ text: 'Accept all', status: 'NEEDS_TRANSLATION' });
  });
});

describe("a person's words", () => {
  it('must name catalogue keys and keep exactly the {slots} of their English', () => {
    expect(wordsBody.safeParse({ labels: { 'portal.intro': '{tenant} ने सहमति दर्ज की।' } }).success).toBe(true);
    const refused = (labels: Record<string, string>) => wordsBody.safeParse({ labels }).error?.issues.map((issue) => issue.path.join('.'));
    expect(refused({ 'portal.intro': 'सहमति दर्ज की।' })).toEqual(['labels.portal.intro']);
    expect(refused({ 'portal.intro': '{tenant} {email}' })).toEqual(['labels.portal.intro']);
    expect(refused({ acceptAll: 'x\u0007' })).toEqual(['labels.acceptAll']);
    expect(refused({ buttonColour: 'blue' })).toContain('labels');
    expect(wordsBody.safeParse({ labels: { 'mail.withdrawal.linkText': englishWords['mail.withdrawal.linkText'] } }).success).toBe(true);
  });
});

describe('a mail to a principal', () => {
  it('has an HTML part in her language and direction, English stand-ins marked, everything escaped and links made links', () => {
    const mail = composeMail('a@x.in', 'UR', 'موضوع', [
      { text: 'پیراگراف <b>', language: 'UR' },
      { text: 'Open https://x.example/p?a=1&b=2\nthen confirm', language: 'EN' },
      [{ text: 'عنوان', language: 'UR' }, { text: 'English line', language: 'EN' }],
    ]);
    expect(mail.text).toBe('پیراگراف <b>\n\nOpen https://x.example/p?a=1&b=2\nthen confirm\n\nعنوان\nEnglish line');
    expect(mail.html).toContain('<html lang="ur" dir="rtl">');
    expect(mail.html).toContain('<p>پیراگراف &lt;b&gt;</p>');
    expect(mail.html).toContain('<p lang="en" dir="ltr">Open <a href="https://x.example/p?a=1&amp;b=2">https://x.example/p?a=1&amp;b=2</a><br>then confirm</p>');
    expect(mail.html).toContain('<p>عنوان<br><span lang="en" dir="ltr">English line</span></p>');
  });
});
