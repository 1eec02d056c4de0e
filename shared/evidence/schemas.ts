import * as z from 'zod/mini';
import { described } from '../described';
import { logProblemKinds } from './log-problem';

/*
 * Each schema is built by an arrow called at once and annotated pure: evaluated as before, but
 * esbuild drops it from a bundle that reads it nowhere. esbuild cannot see by itself that zod/mini's
 * builders, `.check()` and `described()` have no side effects (it honours a function's no-side-effects
 * annotation only within its own file), so without this a group that imports one schema from here
 * carried them all (docs/bundles.md).
 */

const hex32 = /* @__PURE__ */ (() => z.string().check(z.regex(/^[0-9a-f]{64}$/)))();

export const checkpointSchema = /* @__PURE__ */ (() => described(z.object({
    treeSize: described(z.number().check(z.int()), 'Entries (records, withdrawals and logged documents) the signed tree holds'),
    rootHash: described(hex32, 'RFC 9162 Merkle tree hash of those entries, hex'),
    signedAt: z.iso.datetime(),
    keyId: described(z.string(), 'kid of the signing key in GET /consent/log/keys'),
    note: described(z.string(), 'The signed text itself: a C2SP tlog-checkpoint (origin, size, base64 root) in a C2SP signed note'),
  }), 'A signed checkpoint of the tenant\'s log'))();

export const logView = /* @__PURE__ */ (() => described(z.object({
    status: described(z.enum(['INTEGRATED', 'PENDING']), 'PENDING until a signed checkpoint covers the entry (seconds after the write)'),
    leafIndex: described(z.nullable(z.number().check(z.int())), 'Position in the tenant\'s log; null before sequencing'),
    treeSize: z.number().check(z.int()),
    inclusionProof: described(z.array(hex32), 'RFC 9162 §2.1.3 audit path, leaf to root'),
    rootHash: z.nullable(hex32),
    checkpoint: z.nullable(checkpointSchema),
  }), 'Where the record sits in the tenant\'s Merkle log. Leaf data is the 32 raw bytes of proofHash; leaf hash SHA-256(0x00 || data), node hash SHA-256(0x01 || left || right)'))();

export const consistencyQuery = /* @__PURE__ */ (() => z.strictObject({
  from: described(z.coerce.number().check(z.int(), z.gte(1)), 'The smaller tree size'),
  to: described(z.coerce.number().check(z.int(), z.gte(1)), 'The larger tree size, at most the latest signed one'),
}))();

export const consistencyView = /* @__PURE__ */ z.lazy(() => z.object({
  from: z.number().check(z.int()),
  to: z.number().check(z.int()),
  proof: described(z.array(hex32), 'RFC 9162 §2.1.4 consistency proof'),
}));

export const jwksView = /* @__PURE__ */ (() => described(z.object({ keys: z.array(z.looseObject({ kty: z.string(), kid: z.string(), alg: z.string(), use: z.string() })) }), 'JWKS of the keys that sign checkpoints and receipts'))();

export const logVerifyQuery = /* @__PURE__ */ (() => z.object({
    from: described(z._default(z.coerce.number().check(z.int(), z.gte(0)), 0), 'First leaf index to check'),
    to: described(z.optional(z.coerce.number().check(z.int(), z.gte(0))), 'Last leaf index to check (default: the last one the latest checkpoint covers)'),
  }).check(z.refine((query) => query.to === undefined || query.from <= query.to, { message: 'from must not exceed to', path: ['from'] })))();

export const logVerification = /* @__PURE__ */ z.lazy(() => z.object({
  from: z.number().check(z.int()),
  to: z.number().check(z.int()),
  treeSize: described(z.number().check(z.int()), 'Size of the latest signed checkpoint, which the entries are checked against'),
  checked: described(z.number().check(z.int()), 'Entries whose record, withdrawal or logged document was re-read and re-hashed'),
  pendingEntries: described(z.number().check(z.int()), 'Entries sequenced after the latest checkpoint (checked once one covers them)'),
  intact: z.boolean(),
  checkpoint: z.nullable(z.omit(checkpointSchema, { note: true })),
  archive: described(z.object({
      checked: described(z.number().check(z.int()), 'Archived checkpoints that were read and checked: those above `from`, and the largest whatever `from` is'),
      largestTreeSize: described(z.nullable(z.number().check(z.int())), 'The largest archived checkpoint signed by the service: the log may never be smaller, and must extend it'),
    }), 'The write-once archive of signed checkpoints (S3 Object Lock), which the operator cannot roll back'),
  problems: described(z.array(
      z.object({
        position: described(z.nullable(z.number().check(z.int())), 'Leaf position of the entry concerned; null for the log as a whole'),
        kind: described(z.enum(logProblemKinds), 'record, withdrawal, document: the entry at `position` (missing, altered, or a withdrawal erased from its records). checkpoint: the latest checkpoint is not signed by a key of the service or does not match its note. log: the stored entries no longer hash to the signed root. rollback: the log is smaller than, or does not extend by a valid consistency proof, a checkpoint already archived (set back or rewritten). archive: the latest checkpoint has no archived copy or differs from it, or the archive holds an object that is not a note of this log signed by the service. tiles: a stored hash tile differs from the tree recomputed from the entries (proofs read from it would not verify)'),
        id: z.nullable(z.string()),
        reason: z.string(),
      }),
    ), 'Every problem found, by position (at most 100)'),
}));
