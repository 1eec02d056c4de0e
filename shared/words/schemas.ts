import * as z from 'zod';
import { languageCodes, scheduledLanguageCodes } from '../i18n/languages';
import { slugSchema } from '../tenants/tenant';
import { englishWords, surfaces, unreviewedChoices, wordKeys, type WordKey } from './catalogue';
import { wordStatuses } from './statuses';
import { placeholdersOf } from './fill';

const codes = <T extends string>(list: readonly T[]) =>
  z
    .string()
    .trim()
    .toUpperCase()
    .pipe(z.enum(list as [T, ...T[]], { error: `one of ${list.join(', ')} (either case)` }));

/** English or a scheduled language, either case, as its upper-case code. */
export const wordsLanguage = codes(languageCodes);
/** A language words can be machine-drafted into: every one but English. */
export const draftableLanguage = codes(scheduledLanguageCodes);

const slotsText = (slots: string[]) => (slots.length === 0 ? 'no {…} slots' : `exactly the slots ${slots.map((slot) => `{${slot}}`).join(', ')}`);

/**
 * A person's word: printable text (new lines allowed: mails have paragraphs) that keeps exactly the
 * `{slots}` of its English default, neither losing one (a mail would lose its link) nor adding one
 * (it would be printed as written).
 */
const wordText = (key: WordKey) => {
  const slots = placeholdersOf(englishWords[key]);
  return z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .regex(/^(?:[^\p{Cc}]|\n)*$/u, 'must not contain control characters other than new lines')
    .refine((text) => placeholdersOf(text).join() === slots.join(), `must keep ${slotsText(slots)}`);
};

export const wordsBody = z.strictObject({
  labels: z
    .strictObject(Object.fromEntries(wordKeys.map((key) => [key, wordText(key).optional()])) as Record<WordKey, z.ZodOptional<ReturnType<typeof wordText>>>)
    .refine((labels) => Object.keys(labels).length > 0, 'name at least one label')
    .describe('Words by key (GET /words/languages/en lists every key with its English and its {slots}); each saved word becomes REVIEWED'),
});

export const wordsLanguageParams = z.strictObject({ language: wordsLanguage });

export const draftWordsBody = z.strictObject({
  language: draftableLanguage,
  replaceReviewed: z.boolean().optional().describe('Draft over words a person reviewed; without it such a language is a 409 CONFLICT'),
});

export const wordsSettingsBody = z.strictObject({
  unreviewed: z.enum(unreviewedChoices).describe('ENGLISH: English (marked lang="en") until a person reviews a word; MACHINE_DRAFTS: machine drafts shown until then'),
});

const status = z.enum(wordStatuses);
const counts = z.object({ DRAFT: z.number().int(), NEEDS_TRANSLATION: z.number().int(), REVIEWED: z.number().int() });
const surfaceId = z.enum(surfaces.map((surface) => surface.id) as [string, ...string[]]);

export const wordsSettingsView = z.object({ unreviewed: z.enum(unreviewedChoices), updatedAt: z.iso.datetime().nullable() });

export const wordsOverviewView = z.object({
  unreviewed: z.enum(unreviewedChoices),
  updatedAt: z.iso.datetime().nullable(),
  total: z.number().int().describe('Keys in the catalogue'),
  surfaces: z.array(z.object({ id: surfaceId, name: z.string(), count: z.number().int() })),
  languages: z.array(
    z.object({
      language: z.string(),
      status: status.describe('REVIEWED once a person saved a word of it; DRAFT while any word is a machine draft; NEEDS_TRANSLATION; DEFAULT without words'),
      counts,
      updatedAt: z.iso.datetime().nullable(),
      shown: z.boolean().describe('Principals are shown some word of this language (English always)'),
      machineTranslatable: z.boolean(),
    }),
  ),
});

export const languageWordsView = z.object({
  language: z.string(),
  status,
  counts,
  updatedAt: z.iso.datetime().nullable(),
  unreviewed: z.enum(unreviewedChoices),
  words: z.array(
    z.object({
      key: z.string(),
      surface: surfaceId,
      default: z.string().describe("The catalogue's English"),
      english: z.string().describe("The tenant's English (its own word, else the default): what stands in, and what drafts translate"),
      placeholders: z.array(z.string()).describe('The {slots} every word of this key must keep'),
      text: z.string().nullable().describe("This language's word, null without one"),
      status: status.describe('DEFAULT: no word (English stands in); DRAFT; NEEDS_TRANSLATION (English stands in); REVIEWED'),
      shown: z.boolean().describe('Principals read this word in this language (else English, marked lang="en")'),
    }),
  ),
});

export const draftedWordsView = languageWordsView.extend({ translator: z.string() });

export const draftAllWordsResult = z.object({
  translator: z.string(),
  languages: z.array(z.object({ language: z.string(), status })),
  keptReviewed: z.array(z.string()).describe('Languages a person reviewed: their words are kept; only keys they had no word for were drafted'),
});

export const publicWordsParams = z.strictObject({ tenantSlug: slugSchema });
export const publicWordsQuery = z.strictObject({ language: z.string().max(10).optional().describe('A language code, either case; anything else is English') });

export const publicWordsView = z.object({
  tenant: z.object({ name: z.string(), slug: z.string() }),
  language: z.string(),
  languages: z.array(z.string()).describe('Languages the tenant shows words in (English always): what the public page offers'),
  words: z.record(z.string(), z.string()).describe("Every page key's word, in language where it shows one, else in the tenant's English"),
  english: z.array(z.string()).describe('Keys whose word is English (the page marks them lang="en")'),
});
