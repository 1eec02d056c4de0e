import { exportRecordsQuery } from '../../consent/schemas';
import { evidencePackBody, evidencePackQuery, evidencePackView } from '../../evidence-pack/schemas';
import type { RouteDefinition } from '../route';

const tags = ['Consent records'];

/**
 * What a DPO hands on: one principal's evidence pack, and the tenant's records in bulk. Both are
 * reads, for DPO and SUPER_ADMIN only (the pack is a POST, so the identifier stays out of URLs
 * and logs, and is therefore write-level, which names the same two roles).
 */
export const evidenceExportRoutes = {
  createEvidencePack: {
    method: 'POST',
    path: '/api/v1/consent/evidence-packs',
    group: 'evidence',
    auth: { kind: 'bearer', access: 'write' },
    summary: "One principal's evidence pack, checkable offline",
    description:
      "Extension. Exactly one of dataPrincipalIdentifier and principalHash (both, or neither: 400 naming the field). The pack (packVersion 2) holds the tenant, the principal hash, when it was made, every record with its canonical proof payload (every field of its proof format) and receipt, the exact notice text each was given against in the language shown, every withdrawal with its evidence, each entry's RFC 9162 inclusion proof to one signed checkpoint (the latest), that checkpoint's note, a consistency proof to the latest checkpoint when the pack was finished (empty when the same), the public keys (JWKS), and `signature`: a compact JWS with detached payload (RFC 7515 Appendix F) by the log's key (its kid in GET /consent/log/keys) over the RFC 8785 form of the rest of the pack, so no entry, date or status can be changed, added or dropped unnoticed. When some entries are not covered by a checkpoint yet, the request waits for one, at most EVIDENCE_PACK_WAIT_SECONDS (5 s by default), signing it itself once the tenant's checkpoint interval allows; entries still not covered are PENDING, without an inclusion proof, and rest on the pack's signature at the time it was made. `node scripts/verify-evidence-pack.mjs pack.json keys.json` (keys.json fetched from GET /consent/log/keys) checks all of it with nothing but Node.js, the signature first: VALID (exit 0) when every entry is in a signed checkpoint, COMPLETE BUT NOT YET CHECKPOINTED (exit 3) when some rest on the signature alone, INVALID (exit 1). ?format=html: the same pack as a document (self-contained, printable, no external asset, no script; headed by the fiduciary, the DPO's contact and the checkpoint it leads to; the pack embedded as JSON, which the verifier also reads); POST /consent/evidence-packs/pdf prints that page (application/pdf). No records for the principal: 404; more than 500 (an IP-attributed principal): 400, use the export.",
    tags,
    request: { body: evidencePackBody, query: evidencePackQuery },
    response: { status: 200, description: 'The pack', data: evidencePackView, media: { 'text/html': 'With ?format=html: the pack as a document, the JSON embedded in <script type="application/json" id="evidence-pack">' } },
    errors: ['NOT_FOUND'],
  },
  exportConsentRecords: {
    method: 'GET',
    path: '/api/v1/consent/records/export',
    group: 'evidence',
    auth: { kind: 'bearer', access: 'audit' },
    summary: "The tenant's consent records in bulk, page by page (JSON lines or CSV)",
    description:
      "Extension. Records created on the UTC days from..to, oldest first, with the records list's fields plus consentByPurpose, noticeTextHash and proofVersion (proofHash included). One page per request, at most `limit` records and about 4 MB, never the whole range in memory; X-Next-Cursor names the next page and is absent on the last (which may be empty). Concatenate the pages: JSON lines are one object per line; CSV (RFC 4180, CRLF) has its header row on the first page only; after OWASP's CSV injection guidance a cell with , ; \" or a line break is quoted, and wherever a spreadsheet may begin a cell (its start, and after a , ; tab or line break inside it, for a reader in a ; locale) a formula trigger (= + - @, tab, CR, also behind blanks or quotes) gets an apostrophe first: `;=1+1` is written `\";'=1+1\"`. The first page's X-Export-Total says how many records the day counters hold for the range (the log counts a record seconds after it is written), for progress. A cursor works only for the tenant, range and format that issued it.",
    tags,
    request: { query: exportRecordsQuery },
    response: {
      status: 200,
      description: 'One page',
      media: { 'application/x-ndjson': 'format=jsonl: one record per line', 'text/csv': 'format=csv: header row (first page only), then one record per line' },
      headers: {
        'X-Next-Cursor': 'The cursor of the next page; absent on the last page',
        'X-Export-Records': 'Records in this page',
        'X-Export-Total': 'First page only: records the day counters hold for the range',
      },
    },
  },
} as const satisfies Record<string, RouteDefinition>;
