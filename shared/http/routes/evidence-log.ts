import { checkpointSchema, consistencyQuery, consistencyView, logVerification, logVerifyQuery } from '../../evidence/schemas';
import type { RouteDefinition } from '../route';

const tags = ['Consent records'];

/**
 * The tenant's evidence log as a verifier sees it: verification, the signed checkpoint, consistency
 * proofs and the public keys. Their own function group, with the evidence packs and exports: only
 * these reach the checkpoint archive (S3) and the log signing key (KMS), so the record path's
 * functions carry neither client.
 */
export const evidenceLogRoutes = {
  verifyProofChain: {
    method: 'GET',
    path: '/api/v1/consent/proof-chain/verify',
    group: 'evidence',
    auth: { kind: 'bearer', access: 'audit' },
    summary: "Verify the tenant's evidence log against its latest signed checkpoint",
    description:
      "Extension. Checks the latest checkpoint's signature and that the write-once archive (S3 Object Lock) holds it byte for byte; takes the largest archived checkpoint as the floor: the stored log may not be smaller, its head may not sit below it, and the tree recomputed from every stored entry must extend the largest archived checkpoint, whatever `from` is, and every one above `from` by a valid RFC 9162 consistency proof, so a log rolled back or rewritten in the table is reported even when the table agrees with itself, and no `from` steers the check past it (kind rollback); any archived object that is not a note of this log signed by the service is reported (kind archive); the stored hash tiles must equal the recomputed tree (kind tiles). For the entries at leaf positions from..to it re-reads each record, withdrawal and logged document: it must exist, hash to its proof hash and to the hash the log committed to, and every logged withdrawal must still show on its records. A rewritten record (even with a recomputed hash), an erased withdrawal or a forged tail is reported with its position. Costs one read per checked entry, one S3 list per 1,000 archived checkpoints from the latest (or from `from`, if smaller) and one S3 read per archived checkpoint above `from`, plus the largest; page with from and to. A `from` beyond the log's size (entries sequenced, latest checkpoint or largest archived one, whichever is largest): 400 VALIDATION_ERROR on from.",
    tags,
    request: { query: logVerifyQuery },
    response: { status: 200, description: 'The verification', data: logVerification },
  },
  logCheckpoint: {
    method: 'GET',
    path: '/api/v1/consent/log/checkpoint',
    group: 'evidence',
    auth: { kind: 'bearer', access: 'read' },
    summary: "The latest signed checkpoint of the tenant's log",
    description: 'Extension. Signed at most every 10 seconds while the log grows, and archived under S3 Object Lock (compliance mode) before it is served; each one is also sent as the log.checkpoint webhook event. 404 until the first consent is logged.',
    tags,
    response: { status: 200, description: 'The checkpoint', data: checkpointSchema },
    errors: ['NOT_FOUND'],
  },
  logConsistency: {
    method: 'GET',
    path: '/api/v1/consent/log/consistency',
    group: 'evidence',
    auth: { kind: 'bearer', access: 'read' },
    summary: 'A consistency proof between two sizes of the log',
    description: 'Extension. Proves the tree of size `to` extends the tree of size `from` (RFC 9162 §2.1.4): nothing logged was changed or removed. `to` must not exceed the latest signed checkpoint.',
    tags,
    request: { query: consistencyQuery },
    response: { status: 200, description: 'The proof', data: consistencyView },
  },
  logKeys: {
    method: 'GET',
    path: '/api/v1/consent/log/keys',
    group: 'evidence',
    auth: { kind: 'none' },
    summary: 'The public keys that sign log checkpoints and consent receipts',
    description:
      'Extension. A JWKS (served bare, as JWKS clients expect): the checkpoint key (AWS KMS) and the receipt key, each with its kid. Anyone can verify a receipt, a checkpoint note and an inclusion proof with these and nothing else from the service (scripts/verify-receipt.mjs).',
    tags,
    response: { status: 200, description: 'JWKS (served bare, without the data envelope)' },
  },
} as const satisfies Record<string, RouteDefinition>;
