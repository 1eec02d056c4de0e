import { createHash } from 'node:crypto';
import { defaultTimeZone, zoneName } from '../time/format';
import { documentTime, type Block, type DocumentModel, type Inline, type Line, type Section } from './document';

/**
 * The one renderer of the service's documents (document.ts): a self-contained page (no script
 * runs, no external asset; one stylesheet allowed by its hash), every value escaped, readable on
 * a phone (tables and label lists stack under 40rem), and printable (A4, nothing split across
 * pages that need not be). `?format=pdf` prints exactly this page (pdf.ts); the dashboard's
 * previews show exactly this page.
 */

const style = `
:root{color-scheme:light}
body{font:15px/1.5 "Noto Sans","Noto Sans Devanagari","Noto Sans Tamil",system-ui,sans-serif;color:#111;background:#fff;margin:0}
main{max-width:52rem;margin:0 auto;padding:1.5rem 1rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 .5rem}
h2{font-size:1.15rem;margin:1.75rem 0 .4rem;padding-bottom:.15rem;border-bottom:1px solid #777}
h3{font-size:1rem;margin:1.25rem 0 .3rem}
p{margin:.4rem 0}
.source{font-size:.85rem;color:#444;margin-top:0}
.head{border:1px solid #555;padding:.5rem .75rem;margin:.75rem 0 1rem}
.status{display:inline-block;border:2px solid #111;padding:.3rem .6rem;margin:.25rem 0 .5rem;font-weight:600}
.status.draft{border-style:dashed}.status.warning{border-color:#8a4b00;color:#5c3200}
dl{display:grid;grid-template-columns:minmax(9rem,15rem) minmax(0,1fr);gap:.3rem 1rem;margin:.4rem 0}
dt{font-weight:600}dd{margin:0;white-space:pre-line;overflow-wrap:anywhere}
dd dl{margin:0}
ul,ol{margin:.3rem 0;padding-inline-start:1.4rem}li{margin:.15rem 0;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
caption{text-align:start;font-weight:600;padding:.3rem 0}
th,td{border:1px solid #777;padding:.3rem .5rem;text-align:start;vertical-align:top;overflow-wrap:anywhere}
thead th{background:#eee}
code{font-family:ui-monospace,"Noto Sans Mono",monospace;font-size:.85em;overflow-wrap:anywhere;word-break:break-all}
pre{font-family:ui-monospace,"Noto Sans Mono",monospace;font-size:.8rem;white-space:pre-wrap;overflow-wrap:anywhere;background:#f4f4f4;border:1px solid #bbb;padding:.5rem}
.note{border-inline-start:4px solid #555;background:#f4f4f4;padding:.4rem .75rem;margin:.5rem 0}
.note.warning{border-color:#8a4b00;background:#fff4e0}
footer{margin-top:2rem;border-top:1px solid #777;font-size:.9rem}
@media (max-width:40rem){
main{padding:1rem .75rem}
dl{grid-template-columns:minmax(0,1fr);gap:0}dd{margin:0 0 .5rem}
table[role=table],table[role=table] tbody,table[role=table] tr,table[role=table] td{display:block}
table[role=table] thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
table[role=table] tr{border:1px solid #777;margin:.5rem 0}
table[role=table] td{border:0;border-top:1px solid #ddd}table[role=table] td:first-child{border-top:0}
table[role=table] td::before{content:attr(data-label);display:block;font-weight:600;font-size:.85rem}
}
@media print{
@page{size:A4;margin:16mm 14mm}
body{font-size:10.5pt}main{max-width:none;padding:0}
h2,h3{break-after:avoid}tr,.note,pre,.head,dl>dd{break-inside:avoid}
/* A table's head is printed once, where it stands: the PDF says exactly what the page says. */
thead{display:table-row-group}
a{color:inherit;text-decoration:none}
}
`;

const styleHash = createHash('sha256').update(style).digest('base64');

/** The page's policy: its stylesheet and nothing else. Sent as a header, and in a meta tag for a saved copy. */
export const documentPolicy = `default-src 'none'; style-src 'sha256-${styleHash}'; img-src 'none'; base-uri 'none'; form-action 'none'`;

/** The HTML answer's headers: never cached, never framed by another site, never indexed; `filename` when it downloads. */
export const documentHeaders = (filename: string, download: boolean): Record<string, string> => ({
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': `${documentPolicy}; frame-ancestors 'none'`,
  'Content-Disposition': `${download ? 'attachment' : 'inline'}; filename="${filename}.html"`,
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex',
});

export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** JSON inside a script element: nothing in it can close the element or open a comment. */
const embeddedJson = (json: string) => json.replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

const inline = (piece: Inline, timeZone: string): string => {
  if (typeof piece === 'string') return escapeHtml(piece);
  if ('time' in piece) return piece.time ? `<time datetime="${escapeHtml(piece.time.replace(/\.\d+(?=Z$)/, ''))}">${escapeHtml(documentTime(piece.time, timeZone))}</time>` : '—';
  if ('name' in piece) return `<span title="${escapeHtml(piece.id)}">${escapeHtml(piece.name)}</span>`;
  if ('code' in piece) return `<code>${escapeHtml(piece.code)}</code>`;
  if ('strong' in piece) return `<strong>${escapeHtml(piece.strong)}</strong>`;
  return `<span lang="${escapeHtml(piece.lang)}"${piece.dir === 'rtl' ? ' dir="rtl"' : ''}>${escapeHtml(piece.text)}</span>`;
};

const line = (pieces: Line, timeZone: string): string => pieces.map((piece) => inline(piece, timeZone)).join('');

const isBlock = (value: Line | Block): value is Block => !Array.isArray(value);

/** A table whose cells stack under their column's name on a narrow screen (the roles keep it a table to assistive technology when stacked). */
const table = (block: Extract<Block, { kind: 'table' }>, timeZone: string): string =>
  `<table role="table"><caption>${escapeHtml(block.caption)}</caption><thead role="rowgroup"><tr role="row">${block.columns.map((column) => `<th scope="col" role="columnheader">${escapeHtml(column)}</th>`).join('')}</tr></thead><tbody role="rowgroup">${block.rows
    .map((cells) => `<tr role="row">${cells.map((cell, index) => `<td role="cell" data-label="${escapeHtml(block.columns[index] ?? '')}">${line(cell, timeZone)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;

const block = (item: Block, timeZone: string): string => {
  switch (item.kind) {
    case 'pairs':
      return `<dl>${item.rows.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${isBlock(value) ? block(value, timeZone) : line(value, timeZone)}</dd>`).join('')}</dl>`;
    case 'paragraph':
      return `<p>${line(item.text, timeZone)}</p>`;
    case 'list': {
      const tag = item.ordered ? 'ol' : 'ul';
      return `<${tag}>${item.items.map((entry) => `<li>${line(entry, timeZone)}</li>`).join('')}</${tag}>`;
    }
    case 'table':
      return table(item, timeZone);
    case 'note':
      return `<p class="note${item.tone === 'warning' ? ' warning' : ''}"${item.tone === 'warning' ? ' role="note"' : ''}>${line(item.text, timeZone)}</p>`;
    case 'pre':
      return `<pre>${escapeHtml(item.text)}</pre>`;
  }
};

const section = (part: Section, level: 2 | 3, timeZone: string): string =>
  [
    `<section><h${level}>${escapeHtml(part.heading)}</h${level}>`,
    part.source ? `<p class="source">${escapeHtml(part.source)}</p>` : '',
    ...part.blocks.map((item) => block(item, timeZone)),
    ...(part.sections ?? []).map((inner) => section(inner, 3, timeZone)),
    '</section>',
  ].join('');

/** The document as one HTML page. */
export const renderDocument = (model: DocumentModel): string => {
  const timeZone = model.timeZone || defaultTimeZone;
  const head: (readonly [string, Line])[] = [
    ['Data Fiduciary', [model.fiduciary]],
    ['Data Protection Officer', [model.dpoContact ?? 'No contact is set: add the DPO’s email in the service']],
    ['Evidence log reference', model.reference],
    ...model.head,
    ['Times', [`${zoneName(timeZone)} (${timeZone}), with UTC in brackets`]],
  ];
  return [
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(documentPolicy)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="robots" content="noindex">',
    `<title>${escapeHtml(model.title)}</title>\n<style>${style}</style>\n</head>\n<body>\n<main>`,
    `<h1>${escapeHtml(model.title)}</h1>`,
    `<p class="status${model.status.tone === 'final' ? '' : ` ${model.status.tone}`}">${line(model.status.text, timeZone)}</p>`,
    `<div class="head">${block({ kind: 'pairs', rows: head }, timeZone)}</div>`,
    ...model.sections.map((part) => section(part, 2, timeZone)),
    model.footer.length > 0 ? `<footer>${model.footer.map((entry) => `<p>${line(entry, timeZone)}</p>`).join('')}</footer>` : '',
    model.embedded ? `<script type="application/json" id="${escapeHtml(model.embedded.id)}">${embeddedJson(model.embedded.json)}</script>` : '',
    '</main>\n</body>\n</html>\n',
  ].join('\n');
};
