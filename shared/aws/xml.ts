import { AwsError } from './errors';
import { errorCodeOf } from './request';
import type { HttpResponse } from './transport';

/**
 * Just enough XML for the answers the functions read from the REST-XML and query services (S3's
 * listing and errors, SES's errors): the text of flat elements, entities decoded. Their documents
 * carry no CDATA or attributes we need.
 */
const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
export const decodeXmlText = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) =>
    name.startsWith('#x') || name.startsWith('#X') ? String.fromCodePoint(parseInt(name.slice(2), 16)) : name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : (entities[name] ?? whole),
  );

/** The decoded text of every `<tag>…</tag>` in `xml`, in order. */
export const xmlTexts = (xml: string, tag: string): string[] => [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((match) => decodeXmlText(match[1]!));

export const xmlText = (xml: string, tag: string): string | undefined => xmlTexts(xml, tag)[0];

/** `<Error><Code>NoSuchKey</Code><Message>…</Message></Error>` (SES wraps it in ErrorResponse); a bodiless answer is named by its status. */
export const xmlErrorOf = (response: HttpResponse): AwsError => {
  const body = response.body.toString('utf8');
  const code = xmlText(body, 'Code');
  const byStatus: Record<number, string> = { 304: 'NotModified', 404: 'NotFound', 412: 'PreconditionFailed' };
  const name = code ? errorCodeOf(code) : (byStatus[response.status] ?? (response.status >= 500 ? 'InternalServerError' : 'UnknownError'));
  return new AwsError(name, xmlText(body, 'Message') ?? `${name} (HTTP ${response.status})`, response.status);
};
