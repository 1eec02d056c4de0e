import { logVerification, logVerifyQuery } from '../../evidence/schemas';
import type { RouteDefinition } from '../route';

/**
 * The log's verification: the one route that reads the write-once checkpoint archive (S3), a
 * function group of its own, so that no other HTTP function carries the S3 client (about 150 KB of
 * the bundle with its XML protocol and checksums: docs/bundles.md). It reads the checkpoint key's
 * public half and nothing that signs.
 */
export const evidenceVerifyRoutes = {
  verifyProofChain: {
    method: 'GET',
    path: '/api/v1/consent/proof-chain/verify',
    group: 'evidence-verify',
    auth: { kind: 'bearer', access: 'audit' },
    summary: "Verify the tenant's evidence log against its latest signed checkpoint",
    description:
      "Extension. Checks the latest checkpoint's signature and that the write-once archive (S3 Object Lock) holds it byte for byte; takes the largest archived checkpoint as the floor: the stored log may not be smaller, its head may not sit below it, and the tree recomputed from every stored entry must extend the largest archived checkpoint, whatever `from` is, and every one above `from` by a valid RFC 9162 consistency proof, so a log rolled back or rewritten in the table is reported even when the table agrees with itself, and no `from` steers the check past it (kind rollback); any archived object that is not a note of this log signed by the service is reported (kind archive); the stored hash tiles must equal the recomputed tree (kind tiles). For the entries at leaf positions from..to it re-reads each record, withdrawal and logged document: it must exist, hash to its proof hash and to the hash the log committed to, and every logged withdrawal must still show on its records. A rewritten record (even with a recomputed hash), an erased withdrawal or a forged tail is reported with its position. Costs one read per checked entry, one S3 list per 1,000 archived checkpoints from the latest (or from `from`, if smaller) and one S3 read per archived checkpoint above `from`, plus the largest; page with from and to. A `from` beyond the log's size (entries sequenced, latest checkpoint or largest archived one, whichever is largest): 400 VALIDATION_ERROR on from.",
    tags: ['Consent records'],
    request: { query: logVerifyQuery },
    response: { status: 200, description: 'The verification', data: logVerification },
  },
} as const satisfies Record<string, RouteDefinition>;
