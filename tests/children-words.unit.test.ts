import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { languageCodes } from '../shared/i18n/languages';
import { englishWords, isWordKey, type WordKey } from '../shared/words/catalogue';
import { guardianMailWords, guardianPageWords } from '../shared/words/children-words';
import { placeholdersOf } from '../shared/words/fill';

/**
 * The drafts of the children's words in the 22 scheduled languages (shared/words/builtin-children/,
 * for the built-in catalogue of issue 36): one file per language, honest about where they came
 * from, only keys of the catalogue's children's surfaces, each keeping exactly its English slots.
 */
const folder = join(__dirname, '..', 'shared', 'words', 'builtin-children');
const files = readdirSync(folder).filter((name) => name.endsWith('.json'));
const childrenKeys = new Set<string>([...Object.keys(guardianPageWords), ...Object.keys(guardianMailWords), ...Object.keys(englishWords).filter((key) => key.startsWith('age.'))]);

describe('the children\'s words in the 22 scheduled languages', () => {
  it('has one draft per scheduled language, and says it is a machine draft nobody reviewed', () => {
    expect(files.map((name) => name.replace('.json', '')).sort()).toEqual(languageCodes.filter((code) => code !== 'EN').sort());
    for (const name of files) {
      const draft = JSON.parse(readFileSync(join(folder, name), 'utf8')) as { language: string; provenance: string };
      expect(draft.language).toBe(name.replace('.json', ''));
      expect(draft.provenance).toMatch(/AI assistant.*not reviewed by a native speaker/s);
    }
  });

  it('drafts only the children\'s keys, each with exactly its English placeholders, none empty', () => {
    for (const name of files) {
      const { words } = JSON.parse(readFileSync(join(folder, name), 'utf8')) as { words: Record<string, string> };
      expect(Object.keys(words).length, name).toBeGreaterThanOrEqual(18);
      for (const [key, text] of Object.entries(words)) {
        expect(isWordKey(key) && childrenKeys.has(key), `${name}: ${key}`).toBe(true);
        expect(text.trim().length, `${name}: ${key}`).toBeGreaterThan(0);
        expect(placeholdersOf(text), `${name}: ${key}`).toEqual(placeholdersOf(englishWords[key as WordKey]));
        expect(text, `${name}: ${key} is still English`).not.toBe(englishWords[key as WordKey]);
      }
    }
  });
});
