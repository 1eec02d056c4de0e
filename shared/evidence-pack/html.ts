import { createHash } from 'node:crypto';
import { isLanguageCode, isoOf, languages } from '../i18n/languages';
import type { EvidencePack, PackNotice, PackRecord, PackWithdrawal } from './pack';

/**
 * The evidence pack as one printable, self-contained page for a person: the principal's decisions
 * in plain words, the notices as they were shown, the evidence, the signed log, and the pack itself
 * as JSON for machines (scripts/verify-evidence-pack.mjs reads the page as well as the JSON). No
 * external asset and no script runs: the page's policy allows its one stylesheet, by hash, and
 * nothing else. Every value from the pack is escaped; the embedded JSON escapes `<`, `>` and `&`.
 * The page is read by a DPO or a regulator, not by the principal: its words are English.
 */
const style = `
body{font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff;margin:0}
main{max-width:60rem;margin:0 auto;padding:1.5rem}
h1{font-size:1.75rem}h2{font-size:1.35rem;border-bottom:2px solid #444;margin-top:2.5rem}h3{font-size:1.1rem;margin-bottom:.25rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #777;padding:.3rem .5rem;text-align:start;vertical-align:top}
th{background:#eee}code,pre{font-family:ui-monospace,monospace;font-size:.85rem;overflow-wrap:anywhere;white-space:pre-wrap}
pre{background:#f4f4f4;padding:.5rem;border:1px solid #ccc}
.agreed{color:#0b5d1e;font-weight:600}.declined{color:#8a1c1c;font-weight:600}.pending{color:#7a4b00;font-weight:600}
article{border-inline-start:4px solid #555;padding-inline-start:1rem;margin:1.5rem 0}
@media print{main{max-width:none;padding:0}article,table,pre{break-inside:avoid}h2{break-after:avoid}}
`;

const styleHash = createHash('sha256').update(style).digest('base64');

/** The page's policy: its stylesheet and nothing else. Sent as a header and repeated in a meta tag for a saved copy. */
export const packPagePolicy = `default-src 'none'; style-src 'sha256-${styleHash}'; base-uri 'none'; form-action 'none'`;
/** The page's response headers; it downloads under a name of its principal (the dashboard saves it by that name). */
export const packPageHeaders = (pack: EvidencePack) => ({
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': `${packPagePolicy}; frame-ancestors 'none'`,
  'Content-Disposition': `attachment; filename="evidence-pack-${pack.principalHash.slice(0, 12)}.html"`,
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex',
});

const escape = (value: unknown): string =>
  String(value).replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** The pack as JSON inside a script element: nothing in it can close the element or open a comment. */
const embedded = (pack: EvidencePack) =>
  JSON.stringify(pack).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

const when = (iso: unknown) => (typeof iso === 'string' ? `${escape(iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ''))} UTC` : '—');
const rightToLeft = new Set(['UR', 'KS', 'SD']);
const languageName = (code: string) => languages.find((language) => language.code === code)?.name ?? code;
/** lang and dir of text shown in a notice language. */
const textAttributes = (code: string) => (isLanguageCode(code) ? ` lang="${isoOf(code)}"${rightToLeft.has(code) ? ' dir="rtl"' : ''}` : '');
const shown = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'string' ? escape(value) : `<code>${escape(JSON.stringify(value))}</code>`);
const row = (label: string, value: string) => `<tr><th scope="row">${escape(label)}</th><td>${value}</td></tr>`;

const methods: Record<string, string> = {
  DASHBOARD: "by the tenant's staff, in the dashboard",
  WEB_PORTAL: 'by the person, on the withdrawal page',
  PUBLIC_API: "through the tenant's public withdrawal call",
  WIDGET: 'by the person, in the consent widget',
};

const logWords = (log: PackRecord['log']) =>
  log.status === 'INTEGRATED'
    ? `In the signed log at position ${escape(log.leafIndex)}.`
    : `<span class="pending">Not yet covered by a signed checkpoint</span>${log.leafIndex === null ? '' : ` (position ${escape(log.leafIndex)})`}: its hash can be checked, and the pack's signature vouches that the service held it when the pack was made; its place in the log cannot be proven until a later pack.`;

const noticeOf = (pack: EvidencePack, payload: Record<string, unknown>): PackNotice | undefined =>
  pack.notices.find((notice) => notice.noticeId === payload.noticeId && notice.versionNumber === payload.noticeVersionNumber && notice.language === payload.languageShown);

/** The purposes a withdrawal took from one record: the requested ones it had, or all of them. */
const withdrawnFrom = (withdrawal: PackWithdrawal, purposeIds: string[]) => {
  const requested = (withdrawal.evidence.requestedPurposeIds as string[] | undefined) ?? [];
  return requested.length === 0 ? purposeIds : requested.filter((id) => purposeIds.includes(id));
};

/** The kid in the pack signature's protected header, as the page names the key (the verifier checks the signature). */
const signatureKey = (pack: EvidencePack): string => {
  try {
    return String((JSON.parse(Buffer.from(pack.signature.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid?: unknown }).kid);
  } catch {
    return 'unreadable';
  }
};

const decision = (pack: EvidencePack, record: PackRecord) => {
  const payload = record.payload;
  const notice = noticeOf(pack, payload);
  const given = (payload.consentGiven ?? {}) as Record<string, boolean>;
  const names = new Map(notice?.text.purposes.map((purpose) => [purpose.id, purpose]) ?? []);
  const lang = textAttributes(String(payload.languageShown));
  const nameOf = (id: string) => (names.has(id) ? `<span${lang}>${escape(names.get(id)!.name)}</span>` : `purpose <code>${escape(id)}</code>`);
  const choices = Object.keys(given).map(
    (id) => `<li><span class="${given[id] ? 'agreed' : 'declined'}">${given[id] ? 'Agreed' : 'Did not agree'}</span> to ${nameOf(id)}${names.get(id)?.required ? ' (required by the notice)' : ''}</li>`,
  );
  const withdrawals = pack.withdrawals
    .filter((withdrawal) => ((withdrawal.evidence.recordIds as string[] | undefined) ?? []).includes(record.recordId))
    .map((withdrawal) => {
      const taken = withdrawnFrom(withdrawal, Object.keys(given));
      const reason = withdrawal.evidence.reason ? `, giving the reason “${escape(withdrawal.evidence.reason)}”` : '';
      return `<li>On ${when(withdrawal.evidence.withdrawnAt)}, withdrew ${taken.length === Object.keys(given).length ? 'consent for every purpose' : taken.map(nameOf).join(', ')} ${escape(methods[String(withdrawal.evidence.method)] ?? `(method ${String(withdrawal.evidence.method)})`)}${reason}.</li>`;
    });
  return `<article aria-labelledby="decision-${escape(record.recordId)}">
<h3 id="decision-${escape(record.recordId)}">Consent recorded ${when(payload.createdAt)}</h3>
<p>Given against the notice “<span${lang}>${escape(notice?.text.title ?? payload.noticeId)}</span>”, version ${escape(payload.noticeVersionNumber)}, shown in ${escape(languageName(String(payload.languageShown)))}${payload.attribution === undefined ? '' : `; attribution recorded: ${shown(payload.attribution)}`}. Record <code>${escape(record.recordId)}</code>.</p>
<ul>${choices.join('')}</ul>
${withdrawals.length ? `<p>Afterwards:</p><ul>${withdrawals.join('')}</ul>` : '<p>No withdrawal of this consent is recorded.</p>'}
<p>${logWords(record.log)}</p>
</article>`;
};

const noticeSection = (notice: PackNotice) => {
  const attributes = textAttributes(notice.language);
  const id = `notice-${escape(notice.noticeId)}-${escape(notice.versionNumber)}-${escape(notice.language)}`;
  const purposes = notice.text.purposes.map(
    (purpose) => `<tr><td${attributes}>${escape(purpose.name)}</td><td${attributes}>${escape(purpose.description)}</td><td>${escape(purpose.dataCategories.join(', '))}</td><td>${escape(purpose.legalBasis)}</td><td>${purpose.required ? 'Required' : 'Optional'}</td></tr>`,
  );
  return `<article aria-labelledby="${id}">
<h3 id="${id}"><span${attributes}>${escape(notice.text.title)}</span>: version ${escape(notice.versionNumber)}, in ${escape(languageName(notice.language))}</h3>
<p>Published ${when(notice.publishedAt)}${notice.changeNote ? `; change note: ${escape(notice.changeNote)}` : ''}. Notice <code>${escape(notice.noticeId)}</code>.</p>
<p${attributes}>${escape(notice.text.introText)}</p>
<table><caption>Purposes as they stood</caption><thead><tr><th scope="col">Purpose</th><th scope="col">Description</th><th scope="col">Data</th><th scope="col">Legal basis</th><th scope="col">Required</th></tr></thead><tbody>${purposes.join('')}</tbody></table>
<p><strong>Rights:</strong> <span${attributes}>${escape(notice.text.rightsText)}</span></p>
<p><strong>Complaints:</strong> <span${attributes}>${escape(notice.text.complaintText)}</span></p>
<p><strong>Contact:</strong> ${escape(notice.text.contactEmail)}${notice.text.contactUrl ? `, ${escape(notice.text.contactUrl)}` : ''}</p>
</article>`;
};

const evidenceTable = (record: PackRecord) => `<table><caption>Record <code>${escape(record.recordId)}</code> (proof format ${escape(record.proofVersion)})</caption><tbody>
${Object.entries(record.payload).map(([name, value]) => row(name, shown(value))).join('')}
${row('proof hash', `<code>${escape(record.proofHash)}</code>`)}${row('log', logWords(record.log))}${row('receipt', `<code>${escape(record.receipt)}</code>`)}
</tbody></table>`;

const withdrawalTable = (withdrawal: PackWithdrawal) => `<table><caption>Withdrawal <code>${escape(withdrawal.withdrawalId)}</code></caption><tbody>
${Object.entries(withdrawal.evidence).map(([name, value]) => row(name, shown(value))).join('')}
${row('hash', `<code>${escape(withdrawal.hash)}</code>`)}${row('log', logWords(withdrawal.log))}
</tbody></table>`;

const checkpointRows = (checkpoint: EvidencePack['log']['checkpoint']) =>
  checkpoint
    ? `${row('tree size', escape(checkpoint.treeSize))}${row('root hash', `<code>${escape(checkpoint.rootHash)}</code>`)}${row('signed', when(checkpoint.signedAt))}${row('key', `<code>${escape(checkpoint.keyId)}</code>`)}${row('signed note', `<pre>${escape(checkpoint.note)}</pre>`)}`
    : row('checkpoint', 'None yet: nothing of this tenant is signed');

const logSection = (pack: EvidencePack) => `<table><caption>The checkpoint every inclusion proof leads to (log <code>${escape(pack.log.origin)}</code>)</caption><tbody>${checkpointRows(pack.log.checkpoint)}</tbody></table>
<table><caption>The latest checkpoint when the pack was made</caption><tbody>${checkpointRows(pack.log.latestCheckpoint)}${row('consistency proof', pack.log.consistencyProof.length ? `<pre>${escape(pack.log.consistencyProof.join('\n'))}</pre>` : 'None needed: the same checkpoint')}</tbody></table>
<table><caption>Public keys</caption><thead><tr><th scope="col">Key id</th><th scope="col">Algorithm</th><th scope="col">Curve</th></tr></thead><tbody>${pack.keys.keys.map((key) => `<tr><td><code>${escape(key.kid)}</code></td><td>${escape(key.alg)}</td><td>${escape(key.crv ?? '—')}</td></tr>`).join('')}</tbody></table>`;

export const renderPackPage = (pack: EvidencePack): string => {
  const principal = pack.principalHash;
  const pending = [...pack.records, ...pack.withdrawals].filter((entry) => entry.log.status === 'PENDING').length;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escape(packPagePolicy)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Consent evidence: principal ${escape(principal.slice(0, 12))}… at ${escape(pack.tenant.name)}</title>
<style>${style}</style>
</head>
<body>
<main>
<h1>Consent evidence pack</h1>
<table><tbody>
${row('Data fiduciary (tenant)', `${escape(pack.tenant.name)} (<code>${escape(pack.tenant.slug)}</code>, <code>${escape(pack.tenant.tenantId)}</code>)`)}
${row('Data principal (SHA-256 of the identifier)', `<code>${escape(principal)}</code>`)}
${row('Made', when(pack.generatedAt))}
${row('Signed', `by the evidence log's key <code>${escape(signatureKey(pack))}</code>, over the whole pack (JWS with detached payload, RFC 7515 Appendix F, over its RFC 8785 form)`)}
${row('Contents', `${pack.records.length} consent record(s), ${pack.withdrawals.length} withdrawal(s), ${pack.notices.length} notice text(s)${pending ? `; ${pending} entr${pending === 1 ? 'y' : 'ies'} not yet in a signed checkpoint` : ''}`)}
${row('Pack format', `version ${escape(pack.packVersion)}`)}
</tbody></table>
<h2>How to check it</h2>
<p>Save this page (or the JSON pack) and run <code>node scripts/verify-evidence-pack.mjs pack.html keys.json</code> from the service's source, with nothing but Node.js, where <code>keys.json</code> is the service's public keys fetched from it (<code>GET /api/v1/consent/log/keys</code>): without it the verifier can only use the keys below, which show the pack agrees with itself, not that the service made it. It checks the pack's signature first, then recomputes every hash (${escape(pack.proofAlgorithm)}), checks each notice text against the hash in its records, that no withdrawal predates its record and no entry postdates the pack, each entry's place in the tenant's signed Merkle log (RFC 9162), the checkpoint's signature and each receipt. It answers VALID (exit 0) when every entry is in a signed checkpoint, COMPLETE BUT NOT YET CHECKPOINTED (exit 3) when some rest on the pack's signature alone (make the pack again a minute later), INVALID (exit 1) otherwise. A pack shows what it holds is genuine; the tenant's log verification shows nothing is missing.</p>
<h2>What the person decided</h2>
${pack.records.map((record) => decision(pack, record)).join('\n')}
<h2>The notices as they were shown</h2>
${pack.notices.map(noticeSection).join('\n')}
<h2>The evidence</h2>
<h3>Consent records</h3>
${pack.records.map(evidenceTable).join('\n')}
<h3>Withdrawals</h3>
${pack.withdrawals.length ? pack.withdrawals.map(withdrawalTable).join('\n') : '<p>None.</p>'}
<h2>The signed log</h2>
${logSection(pack)}
<script type="application/json" id="evidence-pack">${embedded(pack)}</script>
</main>
</body>
</html>
`;
};
