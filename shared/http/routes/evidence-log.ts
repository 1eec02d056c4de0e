import { checkpointSchema, consistencyQuery, consistencyView } from '../../evidence/schemas';
import type { RouteDefinition } from '../route';

const tags = ['Consent records'];

/**
 * The tenant's evidence log as a verifier sees it: the signed checkpoint, consistency proofs and
 * the public keys. Their own function group, with the evidence packs and exports, which sign packs
 * with the log signing key (KMS), so the record path's functions carry no KMS client. The log's
 * verification, the one route that reads the checkpoint archive (S3), is a group of its own
 * (evidence-verify.ts).
 */
export const evidenceLogRoutes = {
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
