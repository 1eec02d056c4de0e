import { breachMailWords, rightsMailWords, withdrawalMailWords } from './mail-words';
import { rightsPageWords, withdrawalPageWords } from './page-words';
import { cookieBannerWords, noticeBannerWords } from './widget-words';

/**
 * The one catalogue of every word a data principal reads, besides the tenant's own texts (its
 * notices, its answers): grouped by where it is read, each with its English default. A tenant has
 * one label set per language over these keys (shared/words/store.ts); English stands in, marked
 * as English, wherever a language has no word a person reviewed (or, by the tenant's choice, a
 * machine draft).
 */
export const surfaces = [
  { id: 'notice-banner', name: 'Notice banner (widget)', words: noticeBannerWords },
  { id: 'cookie-banner', name: 'Cookie banner (widget)', words: cookieBannerWords },
  { id: 'withdrawal-pages', name: 'Withdrawal pages', words: withdrawalPageWords },
  { id: 'rights-pages', name: 'Rights pages', words: rightsPageWords },
  { id: 'withdrawal-mails', name: 'Withdrawal mails', words: withdrawalMailWords },
  { id: 'rights-mails', name: 'Rights request mails', words: rightsMailWords },
  { id: 'breach-mails', name: 'Breach intimation mails', words: breachMailWords },
] as const;

export type SurfaceId = (typeof surfaces)[number]['id'];

export const englishWords = {
  ...noticeBannerWords,
  ...cookieBannerWords,
  ...withdrawalPageWords,
  ...rightsPageWords,
  ...withdrawalMailWords,
  ...rightsMailWords,
  ...breachMailWords,
} as const;

export type WordKey = keyof typeof englishWords;
export type Words = Record<WordKey, string>;

export const wordKeys = Object.keys(englishWords) as [WordKey, ...WordKey[]];

export const isWordKey = (key: string): key is WordKey => Object.hasOwn(englishWords, key);

const surfaceByKey = new Map<string, SurfaceId>(surfaces.flatMap((surface) => Object.keys(surface.words).map((key) => [key, surface.id] as const)));
export const surfaceOf = (key: WordKey): SurfaceId => surfaceByKey.get(key)!;

/** The widget's keys (both banners): what the public cookie configuration's labelSets carry. */
export const widgetKeys = [...Object.keys(noticeBannerWords), ...Object.keys(cookieBannerWords)] as WordKey[];
export const noticeBannerKeys = Object.keys(noticeBannerWords) as (keyof typeof noticeBannerWords)[];
/** The pages' keys: what GET /words/public/:tenantSlug answers with. */
export const pageKeys = [...Object.keys(withdrawalPageWords), ...Object.keys(rightsPageWords)] as WordKey[];

/** The tenant's choice for words nobody reviewed yet: English until a person reviews them, or the machine drafts. */
export const unreviewedChoices = ['ENGLISH', 'MACHINE_DRAFTS'] as const;
export type Unreviewed = (typeof unreviewedChoices)[number];
