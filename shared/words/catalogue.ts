import { guardianMailWords, guardianPageWords } from './children-words';
import { breachMailWords, retentionMailWords, rightsMailWords, withdrawalMailWords } from './mail-words';
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
  { id: 'retention-mails', name: 'Retention notice mails', words: retentionMailWords },
  { id: 'guardian-pages', name: "Parent's or guardian's page", words: guardianPageWords },
  { id: 'guardian-mails', name: "Parent's or guardian's mails", words: guardianMailWords },
] as const;

export type SurfaceId = (typeof surfaces)[number]['id'];

/*
 * The computed values below are built by arrows called at once and annotated pure, so esbuild leaves
 * out of a bundle those it reads nowhere (and with them the surfaces' words): a function that
 * imports pageKeys does not carry every mail's words (docs/bundles.md).
 */
export const englishWords = /* @__PURE__ */ (() => ({
  ...noticeBannerWords,
  ...cookieBannerWords,
  ...withdrawalPageWords,
  ...rightsPageWords,
  ...withdrawalMailWords,
  ...rightsMailWords,
  ...breachMailWords,
  ...retentionMailWords,
  ...guardianPageWords,
  ...guardianMailWords,
}) as const)();

export type WordKey = keyof typeof englishWords;
export type Words = Record<WordKey, string>;

export const wordKeys = /* @__PURE__ */ (() => Object.keys(englishWords) as [WordKey, ...WordKey[]])();

export const isWordKey = (key: string): key is WordKey => Object.hasOwn(englishWords, key);

const surfaceByKey = /* @__PURE__ */ (() => new Map<string, SurfaceId>(surfaces.flatMap((surface) => Object.keys(surface.words).map((key) => [key, surface.id] as const))))();
export const surfaceOf = (key: WordKey): SurfaceId => surfaceByKey.get(key)!;

/** The widget's keys (both banners): what the public cookie configuration's labelSets carry. */
export const widgetKeys = /* @__PURE__ */ (() => [...Object.keys(noticeBannerWords), ...Object.keys(cookieBannerWords)] as (keyof typeof noticeBannerWords | keyof typeof cookieBannerWords)[])();
export const noticeBannerKeys = /* @__PURE__ */ (() => Object.keys(noticeBannerWords) as (keyof typeof noticeBannerWords)[])();
/** The pages' keys: what GET /words/public/:tenantSlug answers with. */
export const pageKeys = /* @__PURE__ */ (() => [...Object.keys(withdrawalPageWords), ...Object.keys(rightsPageWords)] as (keyof typeof withdrawalPageWords | keyof typeof rightsPageWords)[])();

/**
 * The tenant's choice for words none of its people reviewed: the service's built-in words (the
 * default), English until a person of the tenant's reviews them, or its machine drafts (over the
 * built-in words where it has none).
 */
export const unreviewedChoices = ['BUILT_IN', 'ENGLISH', 'MACHINE_DRAFTS'] as const;
export type Unreviewed = (typeof unreviewedChoices)[number];
