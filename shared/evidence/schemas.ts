import * as z from 'zod';
import { logProblemKinds } from './log-problem';

const hex32 = z.string().regex(/^[0-9a-f]{64}$/);

export const checkpointSchema = z
  .object({
    treeSize: z.number().int().describe('Entries (records, withdrawals and logged documents) the signed tree holds'),
    rootHash: hex32.describe('RFC 9162 Merkle tree hash of those entries, hex'),
    signedAt: z.iso.datetime(),
    keyId: z.string().describe('kid of the signing key in GET /consent/log/keys'),
    note: z.string().describe('The signed text itself: a C2SP tlog-checkpoint (origin, size, base64 root) in a C2SP signed note'),
  })
  .describe('A signed checkpoint of the tenant\'s log');

export const logView = z
  .object({
    status: z.enum(['INTEGRATED', 'PENDING']).describe('PENDING until a signed checkpoint covers the entry (seconds after the write)'),
    leafIndex: z.number().int().nullable().describe('Position in the tenant\'s log; null before sequencing'),
    treeSize: z.number().int(),
    inclusionProof: z.array(hex32).describe('RFC 9162 §2.1.3 audit path, leaf to root'),
    rootHash: hex32.nullable(),
    checkpoint: checkpointSchema.nullable(),
  })
  .describe('Where the record sits in the tenant\'s Merkle log. Leaf data is the 32 raw bytes of proofHash; leaf hash SHA-256(0x00 || data), node hash SHA-256(0x01 || left || right)');

export const consistencyQuery = z.strictObject({
  from: z.coerce.number().int().min(1).describe('The smaller tree size'),
  to: z.coerce.number().int().min(1).describe('The larger tree size, at most the latest signed one'),
});

export const consistencyView = z.object({
  from: z.number().int(),
  to: z.number().int(),
  proof: z.array(hex32).describe('RFC 9162 §2.1.4 consistency proof'),
});

export const jwksView = z
  .object({ keys: z.array(z.looseObject({ kty: z.string(), kid: z.string(), alg: z.string(), use: z.string() })) })
  .describe('JWKS of the keys that sign checkpoints and receipts');

export const logVerifyQuery = z
  .object({
    from: z.coerce.number().int().min(0).default(0).describe('First leaf index to check'),
    to: z.coerce.number().int().min(0).optional().describe('Last leaf index to check (default: the last one the latest checkpoint covers)'),
  })
  .refine((query) => query.to === undefined || query.from <= query.to, { message: 'from must not exceed to', path: ['from'] });

export const logVerification = z.object({
  from: z.number().int(),
  to: z.number().int(),
  treeSize: z.number().int().describe('Size of the latest signed checkpoint, which the entries are checked against'),
  checked: z.number().int().describe('Entries whose record, withdrawal or logged document was re-read and re-hashed'),
  pendingEntries: z.number().int().describe('Entries sequenced after the latest checkpoint (checked once one covers them)'),
  intact: z.boolean(),
  checkpoint: checkpointSchema.omit({ note: true }).nullable(),
  archive: z
    .object({
      checked: z.number().int().describe('Archived checkpoints above `from` that were read and checked'),
      largestTreeSize: z.number().int().nullable().describe('The largest archived checkpoint signed by the service: the log may never be smaller, and must extend it'),
    })
    .describe('The write-once archive of signed checkpoints (S3 Object Lock), which the operator cannot roll back'),
  problems: z
    .array(
      z.object({
        position: z.number().int().nullable().describe('Leaf position of the entry concerned; null for the log as a whole'),
        kind: z
          .enum(logProblemKinds)
          .describe(
            'record, withdrawal, document: the entry at `position` (missing, altered, or a withdrawal erased from its records). checkpoint: the latest checkpoint is not signed by a key of the service or does not match its note. log: the stored entries no longer hash to the signed root. rollback: the log is smaller than, or does not extend by a valid consistency proof, a checkpoint already archived (set back or rewritten). archive: the latest checkpoint has no archived copy or differs from it, or the archive holds an object that is not a note of this log signed by the service. tiles: a stored hash tile differs from the tree recomputed from the entries (proofs read from it would not verify)',
          ),
        id: z.string().nullable(),
        reason: z.string(),
      }),
    )
    .describe('Every problem found, by position (at most 100)'),
});
