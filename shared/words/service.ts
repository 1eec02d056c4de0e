import { nowIso } from '../clock';
import { ConflictError } from '../errors';
import { scheduledLanguageCodes, type LanguageCode } from '../i18n/languages';
import { requireTenant } from '../tenants/store';
import { translatorFor } from '../translation/select';
import { wordKeys, type Unreviewed, type WordKey } from './catalogue';
import { draftWords } from './drafting';
import { englishOf } from './resolve';
import { changeWords, readState, type WordsState } from './state';
import { languageView } from './views';
import { summaryOf, type LanguageWords, type StoredWord } from './words';

/** The tenant's English, every key: what each draft translates. */
const englishSource = async (state: WordsState): Promise<Partial<Record<WordKey, string>>> => {
  const english = (await state.read(['EN'])).get('EN');
  return Object.fromEntries(wordKeys.map((key) => [key, englishOf(english, key)]));
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
    return { put: [{ language, words, updatedAt: nowIso() }], reproject: [language] };
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
  let keptReviewed: LanguageCode[] = [];
  let put: LanguageWords[] = [];
  await changeWords(tenant, async (state) => {
    const items = await state.read(scheduledLanguageCodes);
    keptReviewed = scheduledLanguageCodes.filter((language) => isReviewed(items.get(language)));
    put = scheduledLanguageCodes.flatMap((language) => {
      const words = drafted.get(language) ?? {};
      const item = items.get(language);
      if (!keptReviewed.includes(language)) return [{ language, words, updatedAt: nowIso() }];
      const missing = Object.entries(words).filter(([key]) => !item!.words[key as WordKey]);
      return missing.length > 0 ? [{ ...item!, words: { ...item!.words, ...Object.fromEntries(missing) }, updatedAt: nowIso() }] : [];
    });
    return { put, reproject: put.map((item) => item.language) };
  });
  return {
    translator: translator.name,
    languages: put.filter((item) => !keptReviewed.includes(item.language)).map((item) => ({ language: item.language, status: summaryOf(item).status })),
    keptReviewed,
  };
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
