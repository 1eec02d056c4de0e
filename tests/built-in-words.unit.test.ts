import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scheduledLanguageCodes, type LanguageCode } from '../shared/i18n/languages';
import { builtInLanguages, glossaryConcepts, readBuiltIn, type BuiltInLanguage, type GlossaryConcept } from '../shared/words/built-in-words';
import { englishWords, wordKeys, type WordKey } from '../shared/words/catalogue';
import { placeholdersOf } from '../shared/words/fill';

/**
 * The service's built-in words, checked per language: every key, every {slot}, the language's
 * script, one glossary for the terms that carry law, and a length layouts can hold.
 */

/** Unicode blocks of each script (letters and marks must fall in them). */
const scripts: Record<string, [number, number][]> = {
  Devanagari: [[0x0900, 0x097f], [0xa8e0, 0xa8ff]],
  'Bengali-Assamese': [[0x0980, 0x09ff]],
  'Meitei Mayek': [[0xabc0, 0xabff], [0xaae0, 0xaaff]],
  Gurmukhi: [[0x0a00, 0x0a7f]],
  Gujarati: [[0x0a80, 0x0aff]],
  Odia: [[0x0b00, 0x0b7f]],
  Tamil: [[0x0b80, 0x0bff]],
  Telugu: [[0x0c00, 0x0c7f]],
  Kannada: [[0x0c80, 0x0cff]],
  Malayalam: [[0x0d00, 0x0d7f]],
  'Perso-Arabic': [[0x0600, 0x06ff], [0x0750, 0x077f], [0x08a0, 0x08ff], [0xfb50, 0xfdff], [0xfe70, 0xfeff]],
  'Ol Chiki': [[0x1c50, 0x1c7f]],
};

/** The script each language is written in here (Manipuri: Meitei Mayek, its official script since 2021). */
const scriptOf: Record<Exclude<LanguageCode, 'EN'>, keyof typeof scripts> = {
  AS: 'Bengali-Assamese',
  BN: 'Bengali-Assamese',
  BRX: 'Devanagari',
  DOI: 'Devanagari',
  GU: 'Gujarati',
  HI: 'Devanagari',
  KN: 'Kannada',
  KS: 'Perso-Arabic',
  KOK: 'Devanagari',
  MAI: 'Devanagari',
  ML: 'Malayalam',
  MNI: 'Meitei Mayek',
  MR: 'Devanagari',
  NE: 'Devanagari',
  OR: 'Odia',
  PA: 'Gurmukhi',
  SA: 'Devanagari',
  SAT: 'Ol Chiki',
  SD: 'Perso-Arabic',
  TA: 'Tamil',
  TE: 'Telugu',
  UR: 'Perso-Arabic',
};

/**
 * The only Latin a translation may keep: names a principal meets in Latin letters whatever her
 * language (a file format, the example address of an email field, the name of a browser signal).
 */
const latinTokens = ['Global Privacy Control', 'name@example.com', 'JSON'];

/** Where the English uses a term that carries law, the translation uses the glossary's term (in any of its forms). */
const triggers: Record<GlossaryConcept, RegExp> = {
  consent: /\bconsent/i,
  withdraw: /\bwithdr[ae]w/i,
  notice: /\bnotice\b/i,
  grievance: /\bgrievance/i,
  dataProtectionBoard: /\bData Protection Board\b/i,
};

/**
 * Layouts hold a translation of at most 2.2 times the English's characters, plus 12. Counted in
 * code points, which overstate Indic text (a vowel sign or virama is a code point of its own, not
 * a letter's width); the ratio covers the 1.3-1.8 times Indic translations of English run to, and
 * the 12 covers short labels, where one English word can need a phrase ("Close", "Required").
 */
const maxLength = (english: string) => Math.floor(2.2 * [...english].length) + 12;

const withoutSlots = (text: string) => text.replace(/\{[A-Za-z][A-Za-z0-9]*\}/g, ' ');
const withoutLatinTokens = (text: string) => latinTokens.reduce((rest, token) => rest.split(token).join(' '), text);
const inScript = (character: string, ranges: [number, number][]) => ranges.some(([from, to]) => character.codePointAt(0)! >= from && character.codePointAt(0)! <= to);

const files = new Map<LanguageCode, BuiltInLanguage>();
const read = async (language: LanguageCode) => {
  if (!files.has(language)) files.set(language, (await readBuiltIn(language))!);
  return files.get(language)!;
};

describe('the built-in words, as files', () => {
  it('has one file for each of the 22 scheduled languages and no other', () => {
    const names = readdirSync(new URL('../shared/words/built-in/', import.meta.url)).filter((name) => name.endsWith('.json') && name !== 'source.json');
    expect(names.sort()).toEqual(scheduledLanguageCodes.map((code) => `${code.toLowerCase()}.json`).sort());
    expect([...builtInLanguages].sort()).toEqual([...scheduledLanguageCodes].sort());
  });

  it('was translated from the English the catalogue has now (change an English word, and every language must follow)', () => {
    const source = JSON.parse(readFileSync(new URL('../shared/words/built-in/source.json', import.meta.url), 'utf8')) as { english: Record<string, string> };
    const changed = wordKeys.filter((key) => source.english[key] !== englishWords[key]);
    expect(changed, 'keys whose English changed since the built-in words were written: update them in every language, then source.json').toEqual([]);
    expect(Object.keys(source.english).sort()).toEqual([...wordKeys].sort());
  });

  it('reads nothing for English, and answers the same file again from memory', async () => {
    expect(await readBuiltIn('EN')).toBeUndefined();
    expect(await readBuiltIn('TA')).toBe(await readBuiltIn('TA'));
    expect(Object.getPrototypeOf((await readBuiltIn('TA'))!.words)).toBeNull();
  });
});

describe.each(scheduledLanguageCodes)('the built-in words in %s', (language) => {
  it('name the language, its script, and an honest provenance', async () => {
    const file = await read(language);
    expect(file.language).toBe(language);
    expect(file.script).toBe(scriptOf[language]);
    const { provenance } = file;
    expect(provenance.translatedBy).toMatch(/AI assistant/);
    expect(provenance.translatedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(provenance.checks.length).toBeGreaterThan(0);
    // A review is a person's, with its date: never claimed without one.
    expect(provenance.reviewedBy === null).toBe(provenance.reviewedOn === null);
    if (provenance.reviewedBy === null) expect(provenance.note).toMatch(/not (yet )?(been )?reviewed by a native speaker/i);
    expect(['draft', 'lower']).toContain(provenance.confidence);
  });

  it('have every catalogue key, and no other', async () => {
    expect(Object.keys((await read(language)).words).sort()).toEqual([...wordKeys].sort());
  });

  it('keep every {slot} of the English, and its lines (a link stays on a line of its own)', async () => {
    const { words } = await read(language);
    for (const key of wordKeys) {
      const text = words[key]!;
      expect(placeholdersOf(text), key).toEqual(placeholdersOf(englishWords[key]));
      expect(text.split('\n').length, key).toBe(englishWords[key].split('\n').length);
      englishWords[key].split('\n').forEach((line, index) => {
        if (/^\{[A-Za-z]+\}$/.test(line)) expect(text.split('\n')[index], key).toBe(line);
      });
      expect(text, key).toBe(text.trim());
      expect(text, key).not.toMatch(/ {2}/);
    }
  });

  it(`are written in the language's script, with Latin only in ${latinTokens.join(', ')}`, async () => {
    const { words } = await read(language);
    const ranges = scripts[scriptOf[language]]!;
    for (const key of wordKeys) {
      const letters = [...withoutLatinTokens(withoutSlots(words[key]!))].filter((character) => /[\p{L}\p{M}]/u.test(character));
      expect(letters.length, `${key} has no letter of its own`).toBeGreaterThan(0);
      const foreign = letters.filter((character) => !inScript(character, ranges));
      expect(foreign.join(''), `${key}: "${words[key]}"`).toBe('');
    }
  });

  it('use the glossary term wherever the English uses a term that carries law', async () => {
    const { words, glossary } = await read(language);
    expect(Object.keys(glossary).sort()).toEqual([...glossaryConcepts].sort());
    for (const concept of glossaryConcepts) {
      const entry = glossary[concept];
      expect(entry.forms.length, concept).toBeGreaterThan(0);
      expect(entry.forms.some((form) => entry.term.includes(form)), `${concept}: the term itself is one of its forms`).toBe(true);
      expect(entry.source.length, concept).toBeGreaterThan(0);
      const missing = wordKeys.filter((key) => triggers[concept].test(withoutSlots(englishWords[key])) && !entry.forms.some((form) => words[key]!.includes(form)));
      expect(missing.map((key) => `${key}: "${words[key]}"`), `${concept} (${entry.term})`).toEqual([]);
    }
  });

  it('grow within 2.2 times the English characters plus 12', async () => {
    const { words } = await read(language);
    const long = wordKeys.filter((key: WordKey) => [...words[key]!].length > maxLength(englishWords[key]));
    expect(long.map((key) => `${key}: ${[...words[key]!].length} > ${maxLength(englishWords[key])}`)).toEqual([]);
  });
});
