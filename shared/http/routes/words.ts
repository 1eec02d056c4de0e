import {
  draftAllWordsResult,
  draftedWordsView,
  draftWordsBody,
  languageWordsView,
  publicWordsParams,
  publicWordsQuery,
  publicWordsView,
  wordsBody,
  wordsLanguageParams,
  wordsOverviewView,
  wordsSettingsBody,
  wordsSettingsView,
} from '../../words/schemas';
import { prose, type RouteDefinition } from '../route';

const tags = ['Principal words'];
const workflow =
  "Extension (issues 26, 36): every word a principal reads besides the tenant's own texts (the widget's banners, the withdrawal and rights pages, every mail to a principal) comes from one catalogue of keys with English defaults, the service's built-in words in each of the 22 scheduled languages (translated by the service, each language with its provenance), and one label set per language per tenant. A tenant's word is DRAFT (machine-drafted), NEEDS_TRANSLATION (the translator lacks the language, or its draft lost a {slot}) or REVIEWED (saved by a person, the tenant's own); a key without one is BUILT_IN (the service's word stands) or DEFAULT (English). A principal reads the tenant's REVIEWED word; else, under the setting MACHINE_DRAFTS, its DRAFT; else, unless the setting is ENGLISH, the service's built-in word (only where the tenant's English for the key is the catalogue's, which it translates); otherwise the tenant's English, marked lang=\"en\". Every plan has them.";

/** Group notices: the tenant's words, as the dashboard edits them. */
export const wordsRoutes = {
  getWordsOverview: {
    method: 'GET',
    path: '/api/v1/words',
    group: 'notices',
    auth: { kind: 'bearer', access: 'read' },
    summary: 'Words people see: every language with its status, and the setting for unreviewed words',
    description: /* @__PURE__ */ prose(workflow, ` One read of the tenant's words head.`),
    tags,
    response: { status: 200, description: 'The overview', data: wordsOverviewView },
  },
  saveWordsSettings: {
    method: 'PUT',
    path: '/api/v1/words/settings',
    group: 'notices',
    auth: { kind: 'bearer', access: 'write' },
    summary: 'Choose what principals read where nobody reviewed a word yet',
    description:
      'What principals read where none of the tenant\'s people reviewed a word. BUILT_IN (the default, and what a tenant that never chose shows): the service\'s built-in word of the language. ENGLISH: the tenant\'s English, marked lang="en", until a person of the tenant\'s reviews the word (the built-in words are not shown). MACHINE_DRAFTS: the tenant\'s machine draft, else the built-in word. A tenant whose setting was saved before built-in words existed keeps it (ENGLISH was the default then). Applies at once to the widget (public notice and cookie configuration), the pages and the mails.',
    tags,
    request: { body: wordsSettingsBody },
    response: { status: 200, description: 'The setting', data: wordsSettingsView },
    errors: ['CONFLICT'],
  },
  getLanguageWords: {
    method: 'GET',
    path: '/api/v1/words/languages/:language',
    group: 'notices',
    auth: { kind: 'bearer', access: 'read' },
    summary: 'Every word of one language, beside the English',
    description: /* @__PURE__ */ prose(`Each catalogue key with its surface, its English default, the tenant's English, the {slots} it must keep, the tenant's word and status, the service's built-in word, and what principals read (shownFrom). builtIn: who translated the language's built-in words and how they were checked. en lists the tenant's own English words. `, workflow),
    tags,
    request: { params: wordsLanguageParams },
    response: { status: 200, description: "The language's words", data: languageWordsView },
  },
  saveLanguageWords: {
    method: 'PUT',
    path: '/api/v1/words/languages/:language',
    group: 'notices',
    auth: { kind: 'bearer', access: 'write' },
    summary: "Save a person's words for one language",
    description:
      'labels holds any catalogue keys (others are 400 on labels.<key>); each word must keep exactly the {slots} of its English default (400 otherwise: a mail would lose its link, or print a slot as written). Each saved word becomes REVIEWED, the tenant\'s own (a built-in word saved as it is becomes the tenant\'s, reviewed by its person); the language\'s other words stay as they were. Saving en changes the English that stands in everywhere and that every later draft translates; a key whose English the tenant rewrote shows no built-in word (it translates the catalogue\'s English).',
    tags,
    request: { params: wordsLanguageParams, body: wordsBody },
    response: { status: 200, description: "The language's words", data: languageWordsView },
    errors: ['CONFLICT'],
  },
  draftWords: {
    method: 'POST',
    path: '/api/v1/words/draft',
    group: 'notices',
    auth: { kind: 'bearer', access: 'write' },
    summary: 'Machine-draft every word of one language',
    description:
      "From the tenant's English, through the same translator as notice auto-translate ({slots} are sent as do-not-translate; a draft that still loses one stays English, NEEDS_TRANSLATION). Words are DRAFT, or NEEDS_TRANSLATION where the translator lacks the language (12 of the 22). A language a person reviewed is a 409 CONFLICT unless replaceReviewed is true.",
    tags,
    request: { body: draftWordsBody },
    response: { status: 200, description: "The language's words", data: draftedWordsView },
    errors: ['CONFLICT'],
  },
  draftAllWords: {
    method: 'POST',
    path: '/api/v1/words/draft-all',
    group: 'notices',
    auth: { kind: 'bearer', access: 'write' },
    limits: [{ limit: 'draftAllPerTenant', per: 'tenant', code: 'RATE_LIMIT' }],
    summary: 'Machine-draft every word in all 22 scheduled languages',
    description:
      'Languages a person reviewed keep every word they have (listed in keptReviewed); only keys they have no word for are drafted into them. 3 runs per tenant per UTC day, shared with POST /cmp/translations/draft-all: 429 RATE_LIMIT with Retry-After.',
    tags,
    response: { status: 200, description: 'What was drafted', data: draftAllWordsResult },
    errors: ['CONFLICT'],
  },
} as const satisfies Record<string, RouteDefinition>;

/** Group portal: the words the principal's pages read. */
export const publicWordsRoutes = {
  getPublicWords: {
    method: 'GET',
    path: '/api/v1/words/public/:tenantSlug',
    group: 'portal',
    auth: { kind: 'none' },
    summary: "The tenant's words for the principal's pages, in one language",
    description:
      "No authentication: what the withdrawal and rights pages read. Every page key's word in language where the tenant shows one (its REVIEWED word, its DRAFT under MACHINE_DRAFTS, or the service's built-in word unless the setting is ENGLISH), else the tenant's English; english lists the keys that are English, so the page marks them lang=\"en\". languages: the languages the tenant shows words in (every scheduled language under BUILT_IN). An unknown or absent language is English. Unknown slug: 404. The slug's two reads, then one BatchGet of three items; the built-in words from a file per language, read once per instance.",
    tags,
    request: { params: publicWordsParams, query: publicWordsQuery },
    response: { status: 200, description: 'The words', data: publicWordsView },
    errors: ['NOT_FOUND'],
  },
} as const satisfies Record<string, RouteDefinition>;
