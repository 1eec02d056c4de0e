import { nowIso } from '../clock';
import { ConflictError } from '../errors';
import { scheduledLanguageCodes, type LanguageCode } from '../i18n/languages';
import { requireTenant } from '../tenants/store';
import { translatorFor } from '../translation/select';
import { englishWords, wordKeys, type Unreviewed, type WordKey } from './catalogue';
import { draftWords } from './drafting';
import { englishOf } from './resolve';
import { changeWords, readState, type WordsState } from './state';
import { languageView } from './views';
import { summaryOf, type LanguageWords, type StoredWord } from './words';

/** The tenant's English, every key: what each draft translates. */
const englishSource = async (state: WordsState): Promise<Partial<Record<WordKey, string>>> => {
  const english = (await state.read(['EN'])).get('EN');
  return Object.fromEntries(wordKeys.map((key) => [key, englishOf(english, key, englishWords)]));
};

const isReviewed = (item: LanguageWords | undefined) => !!item && summaryOf(item).status === 'REVIEWED';

/** Machine-drafts every word of one language, through the same translator as notices; a language a person reviewed only with replaceReviewed. */
export const draftLanguage = async (tenantId: string, language: LanguageCode, replaceReviewed: boolean) => {
  const tenant = await requireTenant(tenantId);
  const translator = translatorFor();
  const words = await draftWords(translator, await englishSource(await readState(tenant)), language);
  await changeWords(tenant, async (state) => {
    if (isReviewed((await state.read([language])).get(language)) && !replaceReviewed) {
      throw new ConflictError(`The ${language} words were reviewed by a person; send replaceReviewed true to draft over them`);
    }
    return { put: [{ language, words, updatedAt: nowIso() }], reproject: [language], sizeField: 'language' };
  });
  return { translator: translator.name, ...(await languageView(tenant, language)) };
};

/**
 * Drafts every scheduled language in one write. A language a person reviewed keeps every word it
 * has; only keys it has no word for yet (added to the catalogue since) are drafted into it.
 */
export const draftAllLanguages = async (tenantId: string) => {
  const tenant = await requireTenant(tenantId);
  const translator = translatorFor();
  const before = await readState(tenant);
  const english = await englishSource(before);
  const current = await before.read(scheduledLanguageCodes);
  const drafted = new Map(
    await Promise.all(
      scheduledLanguageCodes.map(async (language) => {
        const item = current.get(language);
        const wanted = isReviewed(item) ? Object.fromEntries(Object.entries(english).filter(([key]) => !item!.words[key as WordKey])) : english;
        return [language, Object.keys(wanted).length > 0 ? await draftWords(translator, wanted, language) : {}] as const;
      }),
    ),
  );
  // One transaction holds at most 4 MB: the languages are written in as few changes as fit (one, unless the tenant's English is very long).
  const keptReviewed: LanguageCode[] = [];
  const put: LanguageWords[] = [];
  for (const group of groupsOf(scheduledLanguageCodes, (language) => estimatedBytes(current.get(language), drafted.get(language)))) {
    // Set by the last run of the change (a moved head runs it again on fresh state).
    let outcome: { kept: LanguageCode[]; written: LanguageWords[] } = { kept: [], written: [] };
    await changeWords(tenant, async (state) => {
      const items = await state.read(group);
      const kept = group.filter((language) => isReviewed(items.get(language)));
      const written = group.flatMap((language): LanguageWords[] => {
        const words = drafted.get(language) ?? {};
        const item = items.get(language);
        if (!kept.includes(language)) return [{ language, words, updatedAt: nowIso() }];
        const missing = Object.entries(words).filter(([key]) => !item!.words[key as WordKey]);
        return missing.length > 0 ? [{ ...item!, words: { ...item!.words, ...Object.fromEntries(missing) }, updatedAt: nowIso() }] : [];
      });
      outcome = { kept, written };
      return { put: written, reproject: written.map((item) => item.language), sizeField: 'language' };
    });
    keptReviewed.push(...outcome.kept);
    put.push(...outcome.written);
  }
  return {
    translator: translator.name,
    languages: put.filter((item) => !keptReviewed.includes(item.language)).map((item) => ({ language: item.language, status: summaryOf(item).status })),
    keptReviewed,
  };
};

/** What a language's item will take once drafted: its current words and the drafts, at most. */
const estimatedBytes = (current: LanguageWords | undefined, drafted: Partial<Record<WordKey, StoredWord>> | undefined) =>
  Buffer.byteLength(JSON.stringify({ ...current?.words, ...drafted }));

/** A DynamoDB transaction takes at most 4 MB; the language items of one change stay under this, the head and the cookie document beside them. */
const transactionBudget = 3_000_000;

/** Consecutive groups whose sizes add up to at most the budget (a language on its own when it is larger). */
const groupsOf = <T>(values: readonly T[], size: (value: T) => number): T[][] => {
  const groups: T[][] = [];
  let total = Infinity;
  for (const value of values) {
    const bytes = size(value);
    if (total + bytes > transactionBudget) {
      groups.push([]);
      total = 0;
    }
    groups.at(-1)!.push(value);
    total += bytes;
  }
  return groups;
};

/** A person's words: each saved one is REVIEWED; the language's other words stay as they were. */
export const saveWords = async (tenantId: string, language: LanguageCode, texts: Partial<Record<WordKey, string>>) => {
  const tenant = await requireTenant(tenantId);
  const reviewed = Object.fromEntries(Object.entries(texts).map(([key, text]) => [key, { text, status: 'REVIEWED' } satisfies StoredWord]));
  await changeWords(tenant, async (state) => {
    const item = (await state.read([language])).get(language);
    return { put: [{ language, words: { ...item?.words, ...reviewed }, updatedAt: nowIso() }], reproject: [language] };
  });
  return languageView(tenant, language);
};

/** The tenant's choice for unreviewed words; every language's shown words follow it at once. */
export const setUnreviewed = async (tenantId: string, unreviewed: Unreviewed) => {
  const tenant = await requireTenant(tenantId);
  const head = await changeWords(tenant, async (state) =>
    state.head.unreviewed === unreviewed ? undefined : { put: [], reproject: Object.keys(state.head.languages) as LanguageCode[], unreviewed },
  );
  return { unreviewed: head.unreviewed, updatedAt: head.updatedAt };
};
