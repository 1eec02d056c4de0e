import * as z from 'zod/mini';
import { described } from '../described';
import { languageCodes, scheduledLanguageCodes } from '../i18n/languages';
import { slugSchema } from '../tenants/tenant';
import { englishWords, surfaces, unreviewedChoices, wordKeys, type WordKey } from './catalogue';
import { wordStatuses } from './statuses';
import { placeholdersOf } from './fill';

const codes = <T extends string>(list: readonly T[]) =>
  z.pipe(z.string().check(z.trim(), z.toUpperCase()), z.enum(list as [T, ...T[]], { error: `one of ${list.join(', ')} (either case)` }));

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
  return z.string().check(z.trim(), z.minLength(1), z.maxLength(2000), z.regex(/^(?:[^\p{Cc}]|\n)*$/u, 'must not contain control characters other than new lines'), z.refine((text) => placeholdersOf(text).join() === slots.join(), `must keep ${slotsText(slots)}`));
};

/**
 * Built on the first request that saves words, not at import: 210 keys' checks are the largest
 * single zod cost of the notices function's cold start (bench section 7a), and most of its
 * invocations never save a word.
 */
const labelsBody = () =>
  z.strictObject(Object.fromEntries(wordKeys.map((key) => [key, z.optional(wordText(key))])) as Record<WordKey, z.ZodMiniOptional<ReturnType<typeof wordText>>>).check(z.refine((labels) => Object.keys(labels).length > 0, 'name at least one label'));

export const wordsBody = /* @__PURE__ */ (() => z.strictObject({
  labels: described(z.lazy(labelsBody), "Words by key (GET /words/languages/en lists every key with its English and its {slots}); each saved word becomes REVIEWED, the tenant's own (a built-in word saved as it is too); keys not named keep their status"),
}))();

export const wordsLanguageParams = /* @__PURE__ */ (() => z.strictObject({ language: wordsLanguage }))();

export const draftWordsBody = /* @__PURE__ */ (() => z.strictObject({
  language: draftableLanguage,
  replaceReviewed: described(z.optional(z.boolean()), 'Draft over words a person reviewed; without it such a language is a 409 CONFLICT'),
}))();

export const wordsSettingsBody = /* @__PURE__ */ (() => z.strictObject({
  unreviewed: described(
    z.enum(unreviewedChoices),
    'What principals read where none of the tenant\'s people reviewed a word. BUILT_IN (the default): the service\'s built-in word of the language; ENGLISH: the tenant\'s English (marked lang="en") until a person reviews a word; MACHINE_DRAFTS: the tenant\'s machine draft, else the built-in word',
  ),
}))();

/* The views are z.lazy (built for OpenAPI, never on a cold start); what several share is a function each calls. */
const status = () => z.enum(wordStatuses);
const counts = () => described(z.object({ DRAFT: z.number().check(z.int()), NEEDS_TRANSLATION: z.number().check(z.int()), REVIEWED: z.number().check(z.int()) }), "The tenant's own words by status (the service's built-in words are not counted)");
const provenance = () => z.object({
  translatedBy: z.string(),
  translatedOn: z.string(),
  method: z.string(),
  checks: z.array(z.string()),
  reviewedBy: described(z.nullable(z.string()), 'A person who reviewed the language, null until one has'),
  reviewedOn: z.nullable(z.string()),
  confidence: described(z.enum(['draft', 'lower']), "lower: the translator's command of the language is limited; review before relying on it"),
  note: z.string(),
});
const surfaceId = () => z.enum(surfaces.map((surface) => surface.id) as [string, ...string[]]);

export const wordsSettingsView = /* @__PURE__ */ z.lazy(() => z.object({ unreviewed: z.enum(unreviewedChoices), updatedAt: z.nullable(z.iso.datetime()) }));

export const wordsOverviewView = /* @__PURE__ */ z.lazy(() => z.object({
  unreviewed: z.enum(unreviewedChoices),
  updatedAt: z.nullable(z.iso.datetime()),
  total: described(z.number().check(z.int()), 'Keys in the catalogue'),
  translator: described(
    z.object({ name: z.string(), standIn: described(z.boolean(), 'true in the local stack: its drafts are marked stand-ins ([TA machine draft] …), not translations') }),
    'The translator POST /words/draft uses',
  ),
  surfaces: z.array(z.object({ id: surfaceId(), name: z.string(), count: z.number().check(z.int()) })),
  languages: z.array(
    z.object({
      language: z.string(),
      status: described(status(), "REVIEWED once a person saved a word of it; DRAFT while any word is a machine draft; NEEDS_TRANSLATION; without words of the tenant's, BUILT_IN where the service has words in the language, else DEFAULT"),
      counts: counts(),
      updatedAt: z.nullable(z.iso.datetime()),
      shown: described(z.boolean(), "Principals are shown some word of this language, the tenant's or the service's (English always)"),
      builtIn: described(z.boolean(), 'The service has built-in words in this language (every scheduled language)'),
      machineTranslatable: z.boolean(),
    }),
  ),
}));

const languageWordsShape = () => ({
  language: z.string(),
  status: status(),
  counts: counts(),
  updatedAt: z.nullable(z.iso.datetime()),
  unreviewed: z.enum(unreviewedChoices),
  builtIn: described(z.nullable(z.object({ name: z.string(), script: z.string(), provenance: provenance() })), "The service's built-in words of this language: who translated them and how they were checked (null for English)"),
  words: z.array(
    z.object({
      key: z.string(),
      surface: surfaceId(),
      default: described(z.string(), "The catalogue's English"),
      english: described(z.string(), "The tenant's English (its own word, else the default): what stands in, and what drafts translate"),
      placeholders: described(z.array(z.string()), 'The {slots} every word of this key must keep'),
      text: described(z.nullable(z.string()), "The tenant's own word in this language, null without one"),
      status: described(status(), "DEFAULT: no word (English stands in); BUILT_IN: no word of the tenant's, the service's built-in word stands; DRAFT; NEEDS_TRANSLATION (English stands in); REVIEWED"),
      builtIn: described(z.nullable(z.string()), "The service's built-in word; null for English, and where the tenant rewrote its English for the key (the built-in word translates the catalogue's)"),
      shown: described(z.boolean(), 'Principals read this word in this language (else English, marked lang="en")'),
      shownFrom: described(z.enum(['REVIEWED', 'DRAFT', 'BUILT_IN', 'ENGLISH']), "What principals read: the tenant's reviewed word, its machine draft, the service's built-in word, or English"),
    }),
  ),
});

export const languageWordsView = /* @__PURE__ */ z.lazy(() => z.object(languageWordsShape()));

export const draftedWordsView = /* @__PURE__ */ z.lazy(() => z.object({ ...languageWordsShape(), translator: z.string() }));

export const draftAllWordsResult = /* @__PURE__ */ z.lazy(() => z.object({
  translator: z.string(),
  languages: z.array(z.object({ language: z.string(), status: status() })),
  keptReviewed: described(z.array(z.string()), 'Languages a person reviewed: their words are kept; only keys they had no word for were drafted'),
}));

export const publicWordsParams = /* @__PURE__ */ (() => z.strictObject({ tenantSlug: slugSchema }))();
export const publicWordsQuery = /* @__PURE__ */ (() => z.strictObject({ language: described(z.optional(z.string().check(z.maxLength(10))), 'A language code, either case; anything else is English') }))();

export const publicWordsView = /* @__PURE__ */ z.lazy(() => z.object({
  tenant: z.object({ name: z.string(), slug: z.string() }),
  language: z.string(),
  languages: described(z.array(z.string()), 'Languages the tenant shows words in (English always): what the public page offers'),
  words: described(z.record(z.string(), z.string()), "Every page key's word, in language where it shows one (the tenant's, or the service's built-in word), else in the tenant's English"),
  english: described(z.array(z.string()), 'Keys whose word is English (the page marks them lang="en")'),
}));
