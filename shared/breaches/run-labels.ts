import type { LanguageCode } from '../i18n/languages';
import { readBuiltIns } from '../words/built-in-words';
import { breachMailWords } from '../words/mail-words';
import { builtInWord, englishOf } from '../words/resolve';
import { readHeadAndLanguages } from '../words/store';
import { shownWord, unreviewedOf } from '../words/words';
import { globalOf, intimationLabelKeys } from './mail-labels';
import type { IntimationText } from './schemas';

/**
 * The run's words, as they are logged with it and every principal of it is told them: in English
 * the tenant's English in full, in each of the intimation's languages the words shown in it (the
 * tenant's reviewed words, its machine drafts when it shows them, else the service's built-in
 * words unless it chose English), and over both the intimation's own `labels`. A label a language
 * still lacks is written in English (the mail marks it so).
 */
export const withTenantLabels = async (tenantId: string, text: IntimationText): Promise<IntimationText> => {
  const languages = Object.keys(text.translations ?? {}) as LanguageCode[];
  const [{ head, languages: items }, builtIns] = await Promise.all([readHeadAndLanguages(tenantId, ['EN', ...languages]), readBuiltIns(languages)]);
  const unreviewed = unreviewedOf(head);
  const english = Object.fromEntries(intimationLabelKeys.map((key) => [key, englishOf(items.get('EN'), globalOf(key), breachMailWords)]));
  const shownIn = (language: LanguageCode) =>
    Object.fromEntries(intimationLabelKeys.flatMap((key) => {
      const word = shownWord(items.get(language)?.words[globalOf(key)], unreviewed, builtInWord(builtIns.get(language), items.get('EN'), globalOf(key), breachMailWords));
      return word === undefined ? [] : [[key, word]];
    }));
  return {
    ...text,
    labels: { ...english, ...text.labels },
    ...(text.translations
      ? { translations: Object.fromEntries(Object.entries(text.translations).map(([language, texts]) => [language, { ...texts, labels: { ...shownIn(language as LanguageCode), ...texts?.labels } }])) }
      : {}),
  };
};
