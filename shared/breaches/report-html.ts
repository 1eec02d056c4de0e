import { createHash } from 'node:crypto';
import type { FilingStage } from './schemas';

/**
 * A Board filing as a printable page: self-contained (no script, no external asset, one inline
 * style allowed by its hash), every value escaped, served with a policy that refuses anything
 * else. Values are shown as stored; the page adds headings and labels only.
 */

/** A filing as GET …/board-report answers it (shared/breaches/filings.ts). */
export interface PrintableFiling {
  stage: FilingStage;
  filed: boolean;
  filedAt: string | null;
  late: boolean | null;
  documentId: string | null;
  missing: Record<string, string>;
  document: Record<string, unknown>;
}

const style = [
  'body{font:15px/1.5 "Noto Sans","Noto Sans Devanagari",system-ui,sans-serif;color:#111;margin:2rem auto;max-width:48rem;padding:0 1rem}',
  'h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem;border-bottom:1px solid #999}',
  'dl{display:grid;grid-template-columns:14rem 1fr;gap:.25rem 1rem;margin:0}dt{font-weight:600}dd{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}',
  '.status{padding:.5rem .75rem;border:2px solid #111;display:inline-block;margin:.5rem 0}.draft{border-style:dashed}',
  'ul{margin:.25rem 0 0 1.25rem;padding:0}@media print{body{margin:0}.status{border-width:1px}}',
].join('');

const styleHash = createHash('sha256').update(style).digest('base64');

/** The page's headers: HTML, never cached or framed, and a policy that allows its one style and nothing else. */
export const reportHtmlHeaders = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${styleHash}'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** Any JSON value as escaped markup: text as is, lists and objects as nested lists. */
const valueHtml = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '<em>not given</em>';
  if (Array.isArray(value)) return value.length === 0 ? '<em>none</em>' : `<ul>${value.map((item) => `<li>${valueHtml(item)}</li>`).join('')}</ul>`;
  if (typeof value === 'object') return rows(value as Record<string, unknown>);
  return escapeHtml(String(value));
};

const labelOf = (name: string) => escapeHtml(name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (first) => first.toUpperCase()));

const rows = (record: Record<string, unknown>) => `<dl>${Object.entries(record).map(([name, value]) => `<dt>${labelOf(name)}</dt><dd>${valueHtml(value)}</dd>`).join('')}</dl>`;

const itemHeadings: Record<string, string> = {
  i: '(i) Description of the breach: nature, extent, timing, location and likely impact',
  ii: '(ii) Facts, circumstances and reasons',
  iii: '(iii) Measures implemented or proposed to mitigate the risk',
  iv: '(iv) Findings regarding the person who caused the breach',
  v: '(v) Remedial measures taken to prevent recurrence',
  vi: '(vi) Report on the intimations given to the affected Data Principals',
};

const section = (heading: string, value: unknown) => `<h2>${escapeHtml(heading)}</h2>${typeof value === 'object' && value !== null && !Array.isArray(value) ? rows(value as Record<string, unknown>) : `<p>${valueHtml(value)}</p>`}`;

export const reportHtml = (filing: PrintableFiling): string => {
  const { document } = filing;
  const title = filing.stage === 'INTIMATION' ? 'Intimation of a personal data breach to the Data Protection Board' : 'Detailed report of a personal data breach to the Data Protection Board';
  const status = filing.filed
    ? `<p class="status">Filed ${escapeHtml(String(filing.filedAt))}${filing.late ? ' (late)' : ''}. Evidence log document ${escapeHtml(String(filing.documentId))}.</p>`
    : `<p class="status draft">Draft, not filed.${Object.keys(filing.missing).length > 0 ? ` Missing: </p><ul>${Object.values(filing.missing).map((why) => `<li>${escapeHtml(why)}</li>`).join('')}</ul>` : '</p>'}`;
  const { items, description, stage: _stage, ...header } = document as { items?: Record<string, unknown>; description?: unknown; stage?: unknown };
  const body = items ? Object.entries(items).map(([key, value]) => section(itemHeadings[key] ?? key, value)).join('') : section('Description of the breach', description);
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${escapeHtml(title)}</title><style>${style}</style></head><body><main>`,
    `<h1>${escapeHtml(title)}</h1>${status}`,
    section('Breach and fiduciary', header),
    body,
    '<p>Digital Personal Data Protection Act, 2023, section 8(6); Digital Personal Data Protection Rules, 2025, rule 7.</p>',
    '</main></body></html>',
  ].join('');
};
