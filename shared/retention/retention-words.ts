import { fillWords } from '../words/fill';
import type { NoticeBannerWordKey } from '../words/widget-words';
import { parseDuration, type Duration } from './duration';
import type { RetentionStart } from './starts';

/**
 * A purpose's retention as a principal reads it ("Kept for 3 years after your last activity."),
 * made only of the label sets' words (the notice banner's `notice.retention.*`): pure, so the
 * widget's bootstrap, the public notice and the dashboard's notice authoring say it alike.
 */

export interface RetentionLike {
  period: string;
  from: RetentionStart;
  legalHold?: string | undefined;
}

/** A word of a language, or undefined where it has none. */
export type RetentionWord = (key: NoticeBannerWordKey) => string | undefined;

const units = ['years', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds'] as const satisfies readonly (keyof Duration)[];

/**
 * The retention in one language's words, or undefined when that language lacks a word it needs
 * (the caller then says it in English, whole, rather than mix two languages in one sentence).
 */
export const retentionInWords = (retention: RetentionLike, word: RetentionWord): string | undefined => {
  const duration = parseDuration(retention.period);
  if (!duration) return undefined;
  const parts: string[] = [];
  for (const unit of units) {
    const count = duration[unit];
    if (count === 0) continue;
    const template = word(`notice.retention.${unit}.${count === 1 ? 'one' : 'other'}`);
    if (template === undefined) return undefined;
    parts.push(fillWords(template, { count }));
  }
  const and = word('notice.retention.and');
  const sentence = word(`notice.retention.${retention.from}`);
  const hold = retention.legalHold ? word('notice.retention.legalHold') : '';
  if (parts.length === 0 || and === undefined || sentence === undefined || hold === undefined) return undefined;
  const period = parts.reduce((first, next) => fillWords(and, { first, next }));
  return [fillWords(sentence, { period }), ...(retention.legalHold && hold ? [fillWords(hold, { law: retention.legalHold })] : [])].join(' ');
};

/** The retention in `language` where its words have all it needs, else in English: the text and the language it is in. */
export const retentionText = (retention: RetentionLike, words: Readonly<Record<string, Readonly<Record<string, string>> | undefined>>, language: string): { text: string; language: string } | undefined => {
  const own = language === 'EN' ? undefined : retentionInWords(retention, (key) => words[language]?.[key]);
  if (own !== undefined) return { text: own, language };
  const english = retentionInWords(retention, (key) => words.EN?.[key]);
  return english === undefined ? undefined : { text: english, language: 'EN' };
};
