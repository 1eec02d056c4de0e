import { directionOf, isLanguageCode, isoOf } from '../i18n/languages';
import { headerText } from './headers';
import { formatTime } from '../time/format';
import type { Mail } from './outbox';

/** Text and the language it is in (English where the principal's language had no word for it). */
export interface MailText {
  text: string;
  language: string;
}

/** A paragraph: one text, or lines in their own languages (a heading the tenant has not translated over its own translated text). */
export type MailParagraph = MailText | readonly MailText[];

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const attributes = (code: string): string => (isLanguageCode(code) ? ` lang="${isoOf(code)}" dir="${directionOf(code)}"` : '');

/** Text as HTML: escaped, lines kept, links made links. */
const html = (text: string): string => escape(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`).replace(/\n/g, '<br>');

const linesOf = (paragraph: MailParagraph): readonly MailText[] => ('text' in paragraph ? [paragraph] : paragraph);

/** One paragraph's HTML: a text in another language than the mail's is marked with its own. */
const paragraphHtml = (paragraph: MailParagraph, language: string): string[] => {
  const lines = linesOf(paragraph);
  if (lines.length === 1) return lines[0]!.text.split(/\n{2,}/).map((text) => `<p${lines[0]!.language === language ? '' : attributes(lines[0]!.language)}>${html(text)}</p>`);
  return [`<p>${lines.map((line) => (line.language === language ? html(line.text) : `<span${attributes(line.language)}>${html(line.text)}</span>`)).join('<br>')}</p>`];
};

/**
 * A mail to a principal in her language: the plain text, and an HTML part whose root carries the
 * language and direction (an Urdu mail reads right to left), with whatever is in another language
 * (English standing in for a word the tenant has not reviewed) marked with its own.
 */
export const composeMail = (to: string, language: string, words: string, paragraphs: readonly MailParagraph[]): Mail => {
  // The subject as its header will carry it (headers.ts), in the HTML's title too.
  const subject = headerText(words);
  return {
    to,
    subject,
    text: paragraphs.map((paragraph) => linesOf(paragraph).map((line) => line.text).join('\n')).join('\n\n'),
    html: `<!doctype html>\n<html${attributes(language)}><head><meta charset="utf-8"><title>${escape(subject)}</title></head><body>\n${paragraphs.flatMap((paragraph) => paragraphHtml(paragraph, language)).join('\n')}\n</body></html>`,
  };
};

/**
 * A time as a principal reads it in `language`: the one formatter (shared/time/format.ts), in the
 * tenant's time zone (India's by default), with UTC beside, as every mail and page writes it.
 */
export const readableTime = (iso: string, language: string, timeZone?: string | null): string =>
  formatTime(iso, { timeZone, locale: isLanguageCode(language) ? `${isoOf(language)}-IN` : 'en-IN', utc: true });
