import canonicalize from 'canonicalize';
import { nowIso } from '../clock';
import { attempts, isMovedRevision, pause, prepareDocumentChange } from '../cmp/service';
import { readDocument } from '../cmp/store';
import { writeTransaction, type NamedItem } from '../db/transact';
import { ValidationError } from '../errors';
import { isLanguageCode, languageCodes, type LanguageCode } from '../i18n/languages';
import type { Tenant } from '../tenants/tenant';
import { readBuiltIns, type BuiltInLanguage } from './built-in-words';
import { englishWords, isWordKey, type Unreviewed, type WordKey } from './catalogue';
import { noticeBannerShown, withWidgetLabelSets } from './resolve';
import { headPut, languagePut, readHead, readLanguages, WordsMovedError } from './store';
import { emptyHead, summaryOf, type LanguageWords, type StoredWord, type WordsHead } from './words';

/**
 * A tenant's words as they stand, for reading or changing: the head, and the language items on
 * demand. A tenant whose words predate this store (label sets saved in its cookie configuration)
 * starts from those: they are written with its first change, so no reviewed label is lost.
 */
export interface WordsState {
  head: WordsHead;
  read(languages: readonly LanguageCode[]): Promise<Map<LanguageCode, LanguageWords>>;
}

/** The cookie configuration's label sets as words (only what differs from the built-in English, for English). */
const fromCookieLabelSets = async (tenant: Tenant): Promise<Map<LanguageCode, LanguageWords>> => {
  const found = new Map<LanguageCode, LanguageWords>();
  if (tenant.plan === 'collect-only') return found;
  const document = await readDocument(tenant.tenantId);
  for (const [lower, set] of Object.entries(document?.labelSets ?? {})) {
    const language = lower.toUpperCase();
    // Only a tenant's own words are carried over: not the defaults, nor the service's built-in words projected into a set.
    if (!isLanguageCode(language) || set.status === 'DEFAULT' || set.status === 'BUILT_IN') continue;
    const status = set.status;
    const words: Partial<Record<WordKey, StoredWord>> = {};
    for (const [key, text] of Object.entries(set.labels)) {
      if (!isWordKey(key) || typeof text !== 'string' || (language === 'EN' && text === englishWords[key])) continue;
      words[key] = { text, status };
    }
    if (Object.keys(words).length > 0) found.set(language, { language, words, updatedAt: set.updatedAt ?? nowIso() });
  }
  return found;
};

const summariesOf = (items: Iterable<LanguageWords>) => Object.fromEntries([...items].map((item) => [item.language, summaryOf(item)]));

export const readState = async (tenant: Tenant): Promise<WordsState & { migrated: Map<LanguageCode, LanguageWords> }> => {
  const stored = await readHead(tenant.tenantId, true);
  const migrated = stored ? new Map<LanguageCode, LanguageWords>() : await fromCookieLabelSets(tenant);
  const head = stored ?? { ...emptyHead(tenant.tenantId), languages: summariesOf(migrated.values()) };
  return {
    head,
    migrated,
    read: async (languages) => {
      const items = await readLanguages(tenant.tenantId, languages.filter((language) => !migrated.has(language)), true);
      for (const language of languages) if (migrated.has(language)) items.set(language, migrated.get(language)!);
      return items;
    },
  };
};

/** What one change does: the language items it writes, the languages whose shown words to project again, a new setting. */
export interface WordsChange {
  put: LanguageWords[];
  reproject: LanguageCode[];
  unreviewed?: Unreviewed;
  /** The request field a language too large to store is refused on (labels for a save, language for a draft). */
  sizeField?: string;
}

const same = (a: unknown, b: unknown) => canonicalize(a) === canonicalize(b);

/** A language's words are one item, and DynamoDB's item limit is 400 KB: what would not fit is refused, not cut. */
const maxLanguageBytes = 350_000;
const languageBytes = (item: LanguageWords): number => Buffer.byteLength(JSON.stringify(item));

const checkSize = (item: LanguageWords, field: string) => {
  const bytes = languageBytes(item);
  if (bytes > maxLanguageBytes) throw new ValidationError({ [field]: `the ${item.language} words would take ${bytes} bytes; at most ${maxLanguageBytes}` }, 'Words too large');
};

/**
 * Applies `change` to the tenant's latest words and writes, in one transaction: the head
 * (conditional on the revision read, so concurrent changes re-read and re-apply, none lost), the
 * language items, and, on a plan with cookie consent, the cookie configuration with its labelSets
 * projected again (a new revision only when the widget's shown words changed; the service's
 * built-in words included for the languages the banner offers). The head keeps the notice
 * banner's shown words of the tenant's own for the public notice.
 */
export const changeWords = async (tenant: Tenant, change: (state: WordsState) => Promise<WordsChange | undefined>): Promise<WordsHead> => {
  for (let attempt = 1; ; attempt += 1) {
    const state = await readState(tenant);
    const changed = await change(state);
    if (!changed) return state.head;
    for (const item of changed.put) checkSize(item, changed.sizeField ?? 'labels');
    const written = new Map(changed.put.map((item) => [item.language, item]));
    for (const [language, item] of state.migrated) if (!written.has(language)) written.set(language, item);
    const unreviewed = changed.unreviewed ?? state.head.unreviewed;
    // A new English or a new setting changes which built-in words stand in every language; any other change, only its languages'.
    const everywhere = written.has('EN') || unreviewed !== state.head.unreviewed;
    const reproject = everywhere ? [...languageCodes] : [...new Set<LanguageCode>(['EN', ...changed.reproject, ...state.migrated.keys()])];
    const hasItem = (language: LanguageCode) => language in state.head.languages || state.migrated.has(language);
    const [unchanged, builtIns] = await Promise.all([
      state.read(reproject.filter((language) => !written.has(language) && (language === 'EN' || hasItem(language)))),
      tenant.plan === 'collect-only' ? new Map<LanguageCode, BuiltInLanguage>() : readBuiltIns(reproject),
    ]);
    const wordsOf = (language: LanguageCode) => written.get(language) ?? unchanged.get(language);
    const noticeBanner = { ...state.head.noticeBanner };
    for (const language of reproject) {
      const shown = noticeBannerShown(language, wordsOf(language), unreviewed);
      if (Object.keys(shown).length > 0) noticeBanner[language] = shown;
      else delete noticeBanner[language];
    }
    const next: WordsHead = {
      ...state.head,
      revision: state.head.revision + 1,
      unreviewed,
      languages: { ...state.head.languages, ...summariesOf(written.values()) },
      noticeBanner,
      updatedAt: nowIso(),
    };
    const items: NamedItem[] = [headPut(next, state.head.revision), ...[...written.values()].map((item) => languagePut(tenant.tenantId, item))];
    if (tenant.plan !== 'collect-only') {
      const cookie = await prepareDocumentChange(
        tenant,
        (document) => {
          const labelSets = withWidgetLabelSets(document.labelSets, reproject, wordsOf, unreviewed, { offered: document.languages, builtInOf: (language) => builtIns.get(language) });
          return same(labelSets, document.labelSets) ? document : { ...document, labelSets };
        },
        'labels',
      );
      items.push(...cookie.items);
    }
    try {
      await writeTransaction(items);
      return next;
    } catch (error) {
      if (!(error instanceof WordsMovedError || isMovedRevision(error)) || attempt === attempts) throw error;
      await pause();
    }
  }
};
