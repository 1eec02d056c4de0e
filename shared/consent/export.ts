import { dayMs } from '../clock';
import { openCursor, sealCursor } from '../crypto/cursor';
import { ValidationError } from '../errors';
import { currentVersions, listItemView } from './lookups';
import type { ConsentRecord } from './record';
import { readMerged } from './record-ranges';
import { dailyBuckets } from './store';

/**
 * The bulk export of a tenant's consent records (its own archive, portability): the records
 * list's fields plus the per-purpose decisions and the notice text hash, in creation order, as
 * JSON lines or CSV, one page per request. A page holds at most `limit` records and about 4 MB,
 * so it fits a Lambda response (6 MB, through API Gateway's HTTP API, which cannot stream) and
 * never the whole range in memory; `nextCursor` (the X-Next-Cursor header) reads the next page.
 * The dashboard stitches the pages into one file.
 */
export interface ExportQuery {
  from?: string;
  to?: string;
  format: 'jsonl' | 'csv';
  limit: number;
  cursor?: string;
}

/** Bytes of a page as Lambda returns it (the body inside a JSON response), kept well under its 6 MB. */
const pageBudget = 4_000_000;
/** Records a query reads at once: about 300 KB of items. */
const queryChunk = 500;

const exportRow = (record: ConsentRecord, versions: Map<string, number>) => ({
  ...listItemView(record, versions),
  consentByPurpose: record.consentGiven,
  noticeTextHash: record.noticeTextHash,
  proofVersion: record.proofVersion,
});

type ExportRow = ReturnType<typeof exportRow>;
/** CSV columns, in order: every field of a row. */
export const csvColumns: (keyof ExportRow)[] = [
  'id', 'createdAt', 'dataPrincipalHash', 'externalId', 'noticeId', 'noticeTitle', 'noticeVersionNumber', 'currentNoticeVersion', 'languageShown', 'positionShown',
  'consentGiven', 'consentByPurpose', 'isWithdrawn', 'isPartiallyWithdrawn', 'withdrawnAt', 'withdrawnPurposes', 'proofHash', 'noticeTextHash', 'proofVersion', 'attribution', 'consentState', 'guardianVerification',
  'expiredPurposes', 'expiredAt', 'expiryReason',
];

/**
 * Where a spreadsheet may begin a cell: the cell's start, and after a `,` or `;` (the separator of
 * the reader's locale: de, fr and many others split on `;`, and then a quote in the middle of a
 * cell is a literal, so quoting alone does not keep a `;` inside its cell), a tab or a line break.
 */
const cellStart = /(^|[,;\t\r\n])/;
/**
 * A formula trigger (OWASP CSV injection: = + - @, tab, CR; their full-width forms, which some
 * spreadsheets read alike), also behind blanks or quotes, which some spreadsheets drop first.
 */
const formulaAhead = /(?=[\s"']*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/;
const inertBoundaries = new RegExp(`${cellStart.source}${formulaAhead.source}`, 'g');

/**
 * One CSV cell (RFC 4180) that no spreadsheet runs as a formula, in a `,` or a `;` locale
 * (OWASP's CSV injection guidance): wherever a cell may begin and a formula trigger follows, an
 * apostrophe goes first (a spreadsheet shows a leading one as the mark of text; inside a value it
 * stays visible: `;=1+1` is written `;'=1+1`, the JSON lines export keeps every value as it is); a
 * cell with a comma, semicolon, quote or line break is quoted, its quotes doubled.
 */
export const csvCell = (value: unknown): string => {
  const text =
    value === null || value === undefined ? ''
    : Array.isArray(value) ? value.join(';')
    : typeof value === 'object' ? Object.entries(value).map(([key, inner]) => `${key}=${String(inner)}`).join(';')
    : String(value);
  const inert = text.replace(inertBoundaries, "$1'");
  return /[",;\r\n]/.test(inert) ? `"${inert.replace(/"/g, '""')}"` : inert;
};

export const csvLine = (cells: unknown[]): string => `${cells.map(csvCell).join(',')}\r\n`;

const lineOf = (row: ExportRow, format: ExportQuery['format']) => (format === 'csv' ? csvLine(csvColumns.map((column) => row[column])) : `${JSON.stringify(row)}\n`);

/** What a line costs in the Lambda response: the body is a JSON string there, so quotes and escapes count twice. */
const responseBytes = (line: string) => Buffer.byteLength(JSON.stringify(line)) - 2;

const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** Records created on days [from, to] as the day counters have them (the log counts a record seconds after it is written). */
const countedBetween = async (tenantId: string, from: string | undefined, to: string) =>
  (await dailyBuckets(tenantId, from ?? '0000-01-01', to)).reduce((sum, bucket) => sum + Number(bucket.given ?? 0), 0);

export const exportRecords = async (tenantId: string, query: ExportQuery, now: Date) => {
  const to = query.to ?? now.toISOString().slice(0, 10);
  if (query.from && query.from > to) throw new ValidationError({ from: `must not be after to (${to})` });
  const context = ['consent-export', tenantId, query.from ?? '', to, query.format];
  const after = query.cursor ? (openCursor(context, query.cursor) as { after?: unknown }).after : undefined;
  if (query.cursor && typeof after !== 'string') throw new ValidationError({ cursor: 'not a cursor this export returned' }, 'Invalid cursor');
  const first = query.cursor === undefined;
  const lines: string[] = first && query.format === 'csv' ? [csvLine(csvColumns)] : [];
  let bytes = lines.reduce((sum, line) => sum + responseBytes(line), 0);
  let count = 0;
  let last = after as string | undefined;
  let more = true;
  const from = query.from ? dayStart(query.from) : undefined;
  const until = new Date(dayStart(to).getTime() + dayMs - 1);
  reading: while (count < query.limit) {
    const page = await readMerged(tenantId, { ascending: true, from, to: until, after: last, limit: Math.min(queryChunk, query.limit - count) });
    const versions = await currentVersions(tenantId, page.records);
    for (const record of page.records) {
      const line = lineOf(exportRow(record, versions), query.format);
      if (count > 0 && bytes + responseBytes(line) > pageBudget) break reading;
      lines.push(line);
      bytes += responseBytes(line);
      count += 1;
      last = record.recordId;
    }
    if (!page.more) {
      more = false;
      break;
    }
  }
  return {
    body: lines.join(''),
    count,
    nextCursor: more && last ? sealCursor(context, { after: last }) : null,
    // Only the first page counts the range (one query of its day counters), for a progress bar.
    estimatedTotal: first ? await countedBetween(tenantId, query.from, to) : null,
  };
};
