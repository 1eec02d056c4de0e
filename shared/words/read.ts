import type { NamedItem } from '../db/transact';
import { NotFoundError } from '../errors';
import { isLanguageCode, languageCodes, type LanguageCode } from '../i18n/languages';
import { getTenantBySlug } from '../tenants/store';
import { readBuiltIn, readBuiltIns } from './built-in-words';
import { pageKeys, type WordKey } from './catalogue';
import { rightsPageWords, withdrawalPageWords } from './page-words';
import { noticeBannerServed, sayer, showsWords, withWidgetLabelSets, type EnglishDefaults, type Say, type WidgetLabelSet } from './resolve';
import { headUnchanged, readHead, readHeadAndLanguages, readLanguages } from './store';
import { noticeBannerWords } from './widget-words';
import { unreviewedOf, type WordsHead } from './words';

/**
 * Reading the tenant's words where a principal reads them (pages, mails, the public notice):
 * no translator here, so the functions that only read words never bundle one.
 */

/** A language code as recorded (a consent's languageShown, a request's form language), else English. */
export const recordedLanguage = (recorded: string | null | undefined): LanguageCode => {
  const code = (recorded ?? '').toUpperCase();
  return isLanguageCode(code) ? code : 'EN';
};

export interface TenantWords<K extends WordKey> {
  language: LanguageCode;
  /** A word in `language`, or in English (so marked) where that language shows none. */
  say: Say<K>;
  /** A word in the tenant's English: for a value inside a word that turned out English. */
  sayEnglish: Say<K>;
  /** The word's `say` or `sayEnglish`, as the language a surrounding word is in. */
  sayIn: (language: LanguageCode) => Say<K>;
  head: WordsHead | undefined;
}

/**
 * The tenant's words in `language`, over the English `defaults` of the keys the caller reads (a
 * surface's words: shared/words/mail-words.ts, ...): one BatchGet of the head, its English and
 * that language, beside the service's built-in words of the language (read once per instance).
 */
export const wordsFor = async <K extends WordKey>(tenantId: string, language: LanguageCode, defaults: EnglishDefaults<K>): Promise<TenantWords<K>> => {
  const [{ head, languages }, builtIn] = await Promise.all([readHeadAndLanguages(tenantId, ['EN', language]), readBuiltIn(language)]);
  const say = sayer(language, languages.get(language), languages.get('EN'), unreviewedOf(head), defaults, builtIn);
  const sayEnglish = sayer('EN', undefined, languages.get('EN'), 'ENGLISH', defaults);
  return { language, say, sayEnglish, sayIn: (shownIn) => (shownIn === language ? say : sayEnglish), head };
};

/** Languages whose words a principal is shown (English always; the service's built-in languages unless the tenant chose English), in the catalogue's order. */
const languagesShown = (head: WordsHead | undefined): LanguageCode[] => languageCodes.filter((code) => code === 'EN' || showsWords(head, code));

/**
 * The pages' words for GET /words/public/:tenantSlug: every page key in `language`, and which of
 * them are English because the language shows no word of its own for them.
 */
export const publicPageWords = async (tenantSlug: string, requested: string | undefined) => {
  const tenant = await getTenantBySlug(tenantSlug);
  if (!tenant) throw new NotFoundError('Organisation');
  const language = recordedLanguage(requested);
  const { say, head } = await wordsFor(tenant.tenantId, language, { ...withdrawalPageWords, ...rightsPageWords });
  const words: Record<string, string> = {};
  const english: string[] = [];
  for (const key of pageKeys) {
    const said = say(key);
    words[key] = said.text;
    if (said.language !== language) english.push(key);
  }
  return { tenant: { name: tenant.name, slug: tenant.slug }, language, languages: languagesShown(head), words, english };
};

/**
 * The notice banner's words for the public notice: English, and each of the notice's languages
 * that shows any: the tenant's shown words over the service's built-in words (each language's
 * file read once per instance).
 */
export const noticeBannerLabels = async (head: WordsHead | undefined, available: readonly string[]) => {
  const languages = available.filter((code): code is LanguageCode => isLanguageCode(code) && code !== 'EN');
  const builtIns = unreviewedOf(head) === 'ENGLISH' ? new Map() : await readBuiltIns(languages);
  const labels: Record<string, Record<string, string>> = {};
  for (const code of available) {
    if (code === 'EN') labels.EN = { ...noticeBannerWords, ...head?.noticeBanner.EN };
    else if (isLanguageCode(code)) {
      const served = noticeBannerServed(head, code, builtIns.get(code));
      if (Object.keys(served).length > 0) labels[code] = served;
    }
  }
  return labels;
};

/** The public cookie configuration's labelSets as the tenant's words make them now (a tenant's first cookie document starts from these: it offers English only). */
export const widgetLabelSets = async (tenantId: string) => {
  const head = await readHead(tenantId, true);
  const languages: LanguageCode[] = ['EN', ...(Object.keys(head?.languages ?? {}) as LanguageCode[]).filter((code) => code !== 'EN')];
  const items = await readLanguages(tenantId, languages, true);
  return withWidgetLabelSets({}, languages, (language) => items.get(language), unreviewedOf(head));
};

/**
 * The labelSets of a cookie configuration that starts or stops offering `languages` (its
 * configured languages now `offered`): an offered language gains the service's built-in words
 * under the tenant's own, one no longer offered keeps only the tenant's. With the condition that
 * the tenant's words did not change in between, for the same transaction. A tenant whose words
 * predate the words store keeps its carried-over sets as they are until its first change of words.
 */
export const offeredLabelSets = async (
  tenantId: string,
  labelSets: Readonly<Record<string, WidgetLabelSet>>,
  offered: readonly string[],
  languages: readonly LanguageCode[],
): Promise<{ labelSets: Record<string, WidgetLabelSet>; unchanged: NamedItem }> => {
  const head = await readHead(tenantId, true);
  const carried = (language: LanguageCode) => !head && ['DRAFT', 'NEEDS_TRANSLATION', 'REVIEWED'].includes(labelSets[language.toLowerCase()]?.status ?? '');
  const projected = languages.filter((language) => language !== 'EN' && !carried(language));
  const [items, builtIns] = await Promise.all([readLanguages(tenantId, ['EN', ...projected], true), readBuiltIns(projected)]);
  return {
    labelSets: withWidgetLabelSets(labelSets, projected, (language) => items.get(language), unreviewedOf(head), { offered, builtInOf: (language) => builtIns.get(language) }),
    unchanged: headUnchanged(tenantId, head?.revision ?? 0),
  };
};
