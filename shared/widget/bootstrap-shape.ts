import { nativeNamesOf } from '../i18n/languages';
import { retentionText, type RetentionLike } from '../retention/retention-words';

/**
 * What the widget reads, in one answer per tenant and language (GET /widget/bootstrap): the
 * published notice, the cookie banner's configuration and the words of that language. A pure
 * function of the public documents, so the server and the dashboard's banner preview (which
 * answers the widget itself) make it the same way. Nothing here is about a visitor.
 */

/** The public notice as GET /consent/public-notice serves it (its `labels` are what `words` is made from). */
export interface NoticeDocument {
  translations?: Record<string, unknown>;
  availableLanguages?: string[];
  labels?: Record<string, Record<string, string>>;
  [field: string]: unknown;
}

/** The public cookie configuration as GET /cmp/config/:tenantId serves it (the fields the widget reads). */
export interface CmpDocumentView {
  categories: Record<string, { enabled: boolean; toggleable: boolean }>;
  defaultDeny: boolean;
  childDirected: boolean;
  bannerTheme: Record<string, unknown>;
  languages: string[];
  reconsentDays: number;
  trackers: { domain: string; cookieName?: string; category: string }[];
  labelSets: Record<string, { labels: Record<string, string | undefined> }>;
  showPoweredBy: boolean;
  brandName: string | null;
  logoUrl: string | null;
  revision: number;
}

/**
 * The words of `language` for both banners, as the widget read them from the notice's `labels`
 * and the configuration's `labelSets` (the notice's first): `words[language]` holds what the
 * language shows, `words.EN` the English of every other key, which the widget marks lang="en".
 * English alone when the language is EN.
 */
const wordsOf = (notice: NoticeDocument | undefined, cmp: CmpDocumentView | undefined, language: string) => {
  const own = (code: string, key: string): string | undefined => notice?.labels?.[code]?.[key] ?? cmp?.labelSets[code.toLowerCase()]?.labels[key];
  const keys = [...new Set([...Object.keys(notice?.labels?.EN ?? {}), ...Object.keys(cmp?.labelSets.en?.labels ?? {})])];
  const shown: Record<string, string> = {};
  const english: Record<string, string> = {};
  for (const key of keys) {
    const word = language === 'EN' ? undefined : own(language, key);
    if (word !== undefined) shown[key] = word;
    else english[key] = own('EN', key)!;
  }
  return language === 'EN' ? { EN: english } : { [language]: shown, EN: english };
};

/** The key under which a purpose's retention in words rides with the banner's words (so English standing in is marked as such). */
export const retentionWordKey = (purposeId: string) => `purpose.${purposeId}.retention`;

/** Each purpose's retention said in `language` (or whole in English where it lacks a word: retention-words.ts), among the words. */
const withRetentionWords = (words: Record<string, Record<string, string>>, notice: NoticeDocument | undefined, language: string) => {
  const purposes = Array.isArray(notice?.purposes) ? (notice.purposes as { id: string; retention?: RetentionLike | null }[]) : [];
  for (const purpose of purposes) {
    const said = purpose.retention ? retentionText(purpose.retention, notice?.labels ?? {}, language) : undefined;
    if (said) words[said.language] = { ...words[said.language], [retentionWordKey(purpose.id)]: said.text };
  }
  return words;
};

export const widgetBootstrapOf = (input: { notice?: NoticeDocument | undefined; cmp?: CmpDocumentView | undefined }, language: string) => {
  const { notice, cmp } = input;
  const translation = notice?.translations?.[language];
  return {
    // The published snapshot in the shape the widget has always read, with the translation of this language only.
    // Its languages named in themselves for the switcher, as GET /consent/public-notice names them (the widget carries no table of names).
    notice: notice
      ? { ...Object.fromEntries(Object.entries(notice).filter(([field]) => field !== 'labels')), translations: translation ? { [language]: translation } : {}, languageNames: nativeNamesOf(notice.availableLanguages ?? ['EN']) }
      : null,
    cmp: cmp
      ? {
          categories: cmp.categories,
          defaultDeny: cmp.defaultDeny,
          childDirected: cmp.childDirected,
          bannerTheme: cmp.bannerTheme,
          // The languages the banner offers: those with words (English always has them).
          languages: cmp.languages.filter((code) => cmp.labelSets[code.toLowerCase()]),
          languageNames: nativeNamesOf(['en', ...cmp.languages]),
          reconsentDays: cmp.reconsentDays,
          trackers: cmp.trackers.map(({ domain, cookieName, category }) => ({ domain, ...(cookieName ? { cookieName } : {}), category })),
          showPoweredBy: cmp.showPoweredBy,
          brandName: cmp.brandName,
          logoUrl: cmp.logoUrl,
          revision: cmp.revision,
        }
      : null,
    words: withRetentionWords(wordsOf(notice, cmp, language), notice, language),
  };
};

export type WidgetBootstrap = ReturnType<typeof widgetBootstrapOf> & { version: string };
