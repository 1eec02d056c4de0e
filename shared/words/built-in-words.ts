import { readFile } from 'node:fs/promises';
import { scheduledLanguageCodes, type LanguageCode } from '../i18n/languages';
import { describeError, log } from '../log';
import type { WordKey } from './catalogue';

/**
 * The service's own words: the whole catalogue translated into each of the 22 scheduled languages,
 * as data under version control (shared/words/built-in/<code>.json), each language with who
 * translated it and how it was checked. A tenant shows them by default wherever it has no
 * reviewed word of its own (docs/words.md); they are never stored in a tenant's words.
 *
 * A language's file is read only when that language is asked for, and kept for the life of the
 * instance: no bundle carries the 22 languages' words (about 35 KB each). Deployed, the files sit
 * beside the bundle (infra/bundling.ts copies them to `built-in/` next to index.mjs), so the same
 * relative URL finds them from the source module and from the bundle.
 */

/** Who translated a language and how it was checked: what a DPO reads before relying on it. */
export interface BuiltInProvenance {
  translatedBy: string;
  translatedOn: string;
  method: string;
  checks: string[];
  /** A person who reviewed the language, and when: null until one has. */
  reviewedBy: string | null;
  reviewedOn: string | null;
  /** `lower` where the translator's command of the language is limited: review before relying on it. */
  confidence: 'draft' | 'lower';
  note: string;
}

/** A term that carries law, as this language writes it, and the forms it takes in a sentence. */
export interface GlossaryTerm {
  term: string;
  /** Substrings any inflected use contains (a stem where the language inflects the term). */
  forms: string[];
  source: string;
}

export const glossaryConcepts = ['consent', 'withdraw', 'notice', 'grievance', 'dataProtectionBoard'] as const;
export type GlossaryConcept = (typeof glossaryConcepts)[number];

export interface BuiltInLanguage {
  language: LanguageCode;
  name: string;
  script: string;
  provenance: BuiltInProvenance;
  glossary: Record<GlossaryConcept, GlossaryTerm>;
  words: Readonly<Partial<Record<WordKey, string>>>;
}

/** The languages the service has words in: every scheduled language (tests/built-in-words.unit.test.ts checks each file). */
export const builtInLanguages: readonly LanguageCode[] = scheduledLanguageCodes;

export const hasBuiltIn = (language: LanguageCode): boolean => builtInLanguages.includes(language);

const loaded = new Map<LanguageCode, Promise<BuiltInLanguage | undefined>>();

const fileOf = (language: LanguageCode) => new URL(`./built-in/${language.toLowerCase()}.json`, import.meta.url);

/** Only catalogue-shaped words survive into the map a reader looks keys up in (no prototype: keys are data). */
const wordsOf = (parsed: unknown): Partial<Record<WordKey, string>> => {
  const words = Object.create(null) as Partial<Record<WordKey, string>>;
  if (parsed && typeof parsed === 'object') for (const [key, text] of Object.entries(parsed)) if (typeof text === 'string') words[key as WordKey] = text;
  return words;
};

/**
 * A language's built-in words and their provenance; undefined for English and any language the
 * service has none in. A file that cannot be read (a deploy without them: tests/built-in-words-bundle
 * guards against it) is logged as an error and reads as no words: principals then read English,
 * as under the setting ENGLISH, rather than lose the page or the mail. It is tried again next time.
 */
export const readBuiltIn = (language: LanguageCode): Promise<BuiltInLanguage | undefined> => {
  if (!hasBuiltIn(language)) return Promise.resolve(undefined);
  let found = loaded.get(language);
  if (!found) {
    found = readFile(fileOf(language), 'utf8')
      .then((text): BuiltInLanguage => {
        const parsed = JSON.parse(text) as BuiltInLanguage;
        return { ...parsed, words: wordsOf(parsed.words) };
      })
      .catch((error: unknown) => {
        loaded.delete(language);
        log.error('built-in words unreadable; English stands in', { language, ...describeError(error) });
        return undefined;
      });
    loaded.set(language, found);
  }
  return found;
};

/** Several languages' built-in words at once, by language (those the service has). */
export const readBuiltIns = async (languages: readonly LanguageCode[]): Promise<Map<LanguageCode, BuiltInLanguage>> => {
  const read = await Promise.all([...new Set(languages)].map(async (language) => [language, await readBuiltIn(language)] as const));
  return new Map(read.filter((entry): entry is readonly [LanguageCode, BuiltInLanguage] => entry[1] !== undefined));
};
