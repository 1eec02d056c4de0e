import { formatTime } from '../time/format';

/**
 * A document a DPO attaches to a filing or hands a principal: the Board intimation and the
 * detailed breach report, the evidence pack, the access summary. Each is built as this model by
 * its own domain (what it says), and written as HTML by render.ts (how it reads), the one
 * renderer: the HTML answer, the PDF (the same HTML printed by Chromium) and the dashboard's
 * previews (the same HTML) all come from it.
 *
 * The model has no room for raw data: a value is text a person wrote or the service words, a
 * time, a name standing for an id, or a code (a hash, a reference) shown as such. Labels are
 * written by the document's builder, never derived from a field name.
 */

/** A piece of text in a line. */
export type Inline =
  | string
  /** An instant: written in the document's time zone, with UTC beside, to the minute. */
  | { time: string | null | undefined }
  /** A name, with the id it stands for available on hover (title) and in the JSON form. */
  | { name: string; id: string }
  /** A hash, a reference, a key id: monospace, breakable anywhere. */
  | { code: string }
  /** Text in a language other than the document's (a notice as shown), marked so. */
  | { text: string; lang: string; dir?: 'rtl' | 'ltr' }
  /** Emphasised text (a status). */
  | { strong: string };

export type Line = readonly Inline[];

export type Block =
  | { kind: 'pairs'; rows: readonly (readonly [label: string, value: Line | Block])[] }
  | { kind: 'paragraph'; text: Line }
  | { kind: 'list'; items: readonly Line[]; ordered?: boolean }
  | { kind: 'table'; caption: string; columns: readonly string[]; rows: readonly (readonly Line[])[] }
  | { kind: 'note'; tone: 'info' | 'warning'; text: Line }
  | { kind: 'pre'; text: string };

export interface Section {
  heading: string;
  /** Small print under the heading: where the section's words come from (a rule's item). */
  source?: string;
  blocks: readonly Block[];
  sections?: readonly Section[];
}

export interface DocumentModel {
  title: string;
  /** The document's own status, in words ("Filed on …", "Draft: not filed"). */
  status: { text: Line; tone: 'final' | 'draft' | 'warning' };
  /** Who the document is from and how to reach them, and where it is kept: the top of every page one. */
  fiduciary: string;
  dpoContact: string | null;
  /** The evidence log's reference of this document (a logged document id, a checkpoint), or why there is none yet. */
  reference: Line;
  /** Further rows of the head (the breach, the principal, when made). */
  head: readonly (readonly [label: string, value: Line])[];
  sections: readonly Section[];
  /** Closing lines: the law the document answers to, how to check it. */
  footer: readonly Line[];
  /** The zone the document's times are written in (the tenant's). */
  timeZone: string;
  /** The machine-readable form embedded in the page (the evidence pack's JSON, which its verifier reads). */
  embedded?: { id: string; json: string };
}

export const text = (value: string | null | undefined, absent: string): Line => [value && value.trim() ? value : absent];

/** A list of names as one line ("A, B and C"), or the words for none. */
export const namesLine = (items: readonly Inline[], none: string): Line => {
  if (items.length === 0) return [none];
  return items.flatMap((item, index) => (index === 0 ? [item] : [index === items.length - 1 ? ' and ' : ', ', item]));
};

export const timeLine = (iso: string | null | undefined, absent = 'Not known'): Line => (iso ? [{ time: iso }] : [absent]);

/** How an instant reads in a document: the tenant's zone to the minute, UTC beside. */
export const documentTime = (iso: string, timeZone: string): string => formatTime(iso, { timeZone, utc: true });
