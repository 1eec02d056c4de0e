import { NotFoundError } from '../errors';
import { isLanguageCode, languageCodes, type LanguageCode } from '../i18n/languages';
import { getTenantBySlug } from '../tenants/store';
import { pageKeys, type WordKey } from './catalogue';
import { rightsPageWords, withdrawalPageWords } from './page-words';
import { sayer, showsWords, withWidgetLabelSets, type EnglishDefaults, type Say } from './resolve';
import { readHead, readHeadAndLanguages, readLanguages } from './store';
import { noticeBannerWords } from './widget-words';
import type { WordsHead } from './words';

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
 * surface's words: shared/words/mail-words.ts, ...): one BatchGet of the head, its English and that language.
 */
export const wordsFor = async <K extends WordKey>(tenantId: string, language: LanguageCode, defaults: EnglishDefaults<K>): Promise<TenantWords<K>> => {
  const { head, languages } = await readHeadAndLanguages(tenantId, ['EN', language]);
  const say = sayer(language, languages.get(language), languages.get('EN'), head?.unreviewed ?? 'ENGLISH', defaults);
  const sayEnglish = sayer('EN', undefined, languages.get('EN'), 'ENGLISH', defaults);
  return { language, say, sayEnglish, sayIn: (shownIn) => (shownIn === language ? say : sayEnglish), head };
};

/** Languages whose words a principal is shown (English always), in the catalogue's order. */
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

/** The notice banner's words for the public notice: English, and each of the notice's languages that shows any. */
export const noticeBannerLabels = (head: WordsHead | undefined, available: readonly string[]) =>
  Object.fromEntries(
    available.filter((code) => code === 'EN' || head?.noticeBanner[code as LanguageCode]).map((code) => [code, code === 'EN' ? { ...noticeBannerWords, ...head?.noticeBanner.EN } : head!.noticeBanner[code as LanguageCode]]),
  );

/** The public cookie configuration's labelSets as the tenant's words make them now (a tenant's first cookie document starts from these). */
export const widgetLabelSets = async (tenantId: string) => {
  const head = await readHead(tenantId, true);
  const languages: LanguageCode[] = ['EN', ...(Object.keys(head?.languages ?? {}) as LanguageCode[]).filter((code) => code !== 'EN')];
  const items = await readLanguages(tenantId, languages, true);
  return withWidgetLabelSets({}, languages, (language) => items.get(language), head?.unreviewed ?? 'ENGLISH');
};
