/**
 * A mail's header fields are one line each (RFC 5322 §2.2): a line break in a value would end the
 * field and could start another (`Bcc:`, a second `Subject:`). Words reach headers (a tenant's
 * words and name in a principal's subject, a tenant's name in an invitation's), and words may hold
 * new lines (mails have paragraphs), so every header is made safe where a mail is queued
 * (outbox.ts mailPut, the one way a mail is queued) and again where the drainer hands it to SES: text folds (each run of line breaks and other control characters, the
 * Unicode line and paragraph separators and NEL included, becomes one space), an address with any
 * is refused (folding would make it someone else's).
 */
const breaks = /[\p{Cc}\u2028\u2029]+/gu;

export const headerText = (value: string): string => value.replace(breaks, ' ').replace(/ {2,}/g, ' ').trim();

export const headerAddress = (address: string): string => {
  if (new RegExp(breaks.source, 'u').test(address)) throw new Error('A mail address must not contain line breaks or control characters');
  return address;
};

/** The mail with its header fields made safe (text bodies keep their lines). */
export const withSafeHeaders = <M extends { to: string; subject: string }>(mail: M): M => ({ ...mail, to: headerAddress(mail.to), subject: headerText(mail.subject) });
