import type { LanguageCode } from '../i18n/languages';
import { breachMailWords } from '../words/mail-words';
import { englishOf } from '../words/resolve';
import { readHeadAndLanguages } from '../words/store';
import { shownWord } from '../words/words';
import type { IntimationText } from './schemas';

/**
 * The words of a breach intimation mail around the tenant's own: the principal words catalogue's
 * breach-mail keys (shared/words/mail-words.ts), named here without their `mail.breach.` prefix,
 * as an intimation's `labels` overrides name them.
 */
const prefix = 'mail.breach.';
type GlobalKey = keyof typeof breachMailWords;
export type IntimationLabelKey = GlobalKey extends `${typeof prefix}${infer Key}` ? Key : never;
export type IntimationLabels = Record<IntimationLabelKey, string>;

export const intimationLabelKeys = Object.keys(breachMailWords).map((key) => key.slice(prefix.length)) as [IntimationLabelKey, ...IntimationLabelKey[]];
const globalOf = (key: IntimationLabelKey) => `${prefix}${key}` as GlobalKey;

/** The catalogue's English of a label. */
export const defaultIntimationLabel = (key: IntimationLabelKey): string => breachMailWords[globalOf(key)];

/**
 * The run's words, as they are logged with it and every principal of it is told them: in English
 * the tenant's English in full, in each of the intimation's languages the tenant's words shown in
 * it (reviewed, or machine drafts when it shows them), and over both the intimation's own `labels`.
 * A label a language still lacks is written in English (the mail marks it so).
 */
export const withTenantLabels = async (tenantId: string, text: IntimationText): Promise<IntimationText> => {
  const languages = Object.keys(text.translations ?? {}) as LanguageCode[];
  const { head, languages: items } = await readHeadAndLanguages(tenantId, ['EN', ...languages]);
  const unreviewed = head?.unreviewed ?? 'ENGLISH';
  const english = Object.fromEntries(intimationLabelKeys.map((key) => [key, englishOf(items.get('EN'), globalOf(key))]));
  const shownIn = (language: LanguageCode) =>
    Object.fromEntries(intimationLabelKeys.flatMap((key) => {
      const word = shownWord(items.get(language)?.words[globalOf(key)], unreviewed);
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
