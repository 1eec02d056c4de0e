import * as z from 'zod';
import { identifierSchema, principalHashSchema } from '../consent/schemas';
import { checkpointSchema, jwksView } from '../evidence/schemas';

/** The pack format (a later format gets a new number) and what it is. */
export const packVersion = 1;
export const packKind = 'consent-service/evidence-pack';

/** A pack holds at most this many records: with proofs, receipts and the page around them it stays a few MB (a Lambda response is at most 6 MB). */
export const maxPackRecords = 500;

const hex32 = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * Exactly one of the two, handed on as the union of the two shapes. A strict object of both
 * (unknown keys refused) with a check, not a zod union: a union answers a request with both, or
 * neither, with one message on the whole body, where this names the field to fix. (Not
 * `.pipe(z.union(...))` either: zod 4 lets a strict object's unknown key through a pipe.)
 */
export const evidencePackBody = z
  .strictObject({
    dataPrincipalIdentifier: identifierSchema.optional().describe("The principal's identifier (an email is lower-cased), hashed as records hash it; not kept"),
    principalHash: principalHashSchema.optional().describe('Or the SHA-256 hex of the identifier, as status/:hash takes it'),
  })
  .superRefine((body, context) => {
    const given = [body.dataPrincipalIdentifier, body.principalHash].filter((value) => value !== undefined).length;
    if (given === 0) context.addIssue({ code: 'custom', path: ['dataPrincipalIdentifier'], message: 'required: dataPrincipalIdentifier or principalHash' });
    if (given === 2) context.addIssue({ code: 'custom', path: ['principalHash'], message: 'give dataPrincipalIdentifier or principalHash, not both' });
  })
  .transform((body): { dataPrincipalIdentifier: string } | { principalHash: string } =>
    body.principalHash !== undefined ? { principalHash: body.principalHash } : { dataPrincipalIdentifier: body.dataPrincipalIdentifier! },
  );

export const evidencePackQuery = z.strictObject({
  format: z.enum(['json', 'html']).default('json').describe('json: { data: { pack } }; html: the same pack as a printable, self-contained page (text/html) with the JSON embedded'),
});

const entryLog = z
  .object({
    status: z.enum(['INTEGRATED', 'PENDING']).describe('PENDING: no signed checkpoint covers the entry yet (seconds after it was written); it has no inclusion proof'),
    leafIndex: z.number().int().nullable(),
    inclusionProof: z.array(hex32).describe('RFC 9162 §2.1.3, to log.checkpoint'),
  })
  .describe("The entry's place in the tenant's log");

export const evidencePackView = z.object({
  pack: z
    .object({
      packVersion: z.literal(packVersion).describe('The pack format; a later format gets a new number'),
      kind: z.literal(packKind),
      generatedAt: z.iso.datetime(),
      tenant: z.object({ tenantId: z.string(), name: z.string(), slug: z.string() }),
      principalHash: hex32,
      proofAlgorithm: z.string(),
      records: z
        .array(
          z.object({
            recordId: z.uuid(),
            proofVersion: z.number().int(),
            payload: z.record(z.string(), z.unknown()).describe('The canonical evidence as GET …/records/:id/proof gives it (every field of its proof format); its RFC 8785 form hashes to proofHash'),
            proofHash: hex32,
            receipt: z.string().describe('The receipt (compact JWS), issued again: receipts are not stored, and an Ed25519 signature is deterministic'),
            log: entryLog,
          }),
        )
        .describe(`The principal's consent records, oldest first (at most ${maxPackRecords})`),
      notices: z
        .array(
          z.object({
            noticeId: z.uuid(),
            versionNumber: z.number().int(),
            language: z.string(),
            publishedAt: z.string(),
            changeNote: z.string().nullable(),
            text: z.record(z.string(), z.unknown()).describe("The exact text shown (title, texts, contact, purposes as they stood) in that language; its RFC 8785 form hashes to the records' noticeTextHash"),
          }),
        )
        .describe('Each notice version in each language a record was given against, once'),
      withdrawals: z.array(
        z.object({
          withdrawalId: z.uuid(),
          evidence: z.record(z.string(), z.unknown()).describe('What the log committed to; its RFC 8785 form hashes to hash'),
          hash: hex32,
          log: entryLog,
        }),
      ),
      log: z.object({
        origin: z.string(),
        checkpoint: checkpointSchema.nullable().describe('The signed checkpoint every inclusion proof leads to: the latest when the pack was made'),
        latestCheckpoint: checkpointSchema.nullable().describe('The latest signed checkpoint when the pack was finished (usually the same one)'),
        consistencyProof: z.array(hex32).describe('RFC 9162 §2.1.4, from checkpoint to latestCheckpoint; empty when they are the same'),
      }),
      keys: jwksView,
    })
    .describe('An evidence pack: check it offline with scripts/verify-evidence-pack.mjs'),
});
