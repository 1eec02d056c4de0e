import * as z from 'zod/mini';
import { described } from '../described';
import { documentFormat } from '../documents/schemas';
import { identifierSchema, principalHashSchema } from '../consent/schemas';
import { checkpointSchema, jwksView } from '../evidence/schemas';

/**
 * The pack format (a later format gets a new number) and what it is. 2: signed as a whole
 * (`signature`); format 1 packs were not, and the verifier refuses them (anyone holding one could
 * rewrite it).
 */
export const packVersion = 2;
export const packKind = 'consent-service/evidence-pack';

/** A pack holds at most this many records: with proofs, receipts and the page around them it stays a few MB (a Lambda response is at most 6 MB). */
export const maxPackRecords = 500;

const hex32 = /* @__PURE__ */ (() => z.string().check(z.regex(/^[0-9a-f]{64}$/)))();

/**
 * Exactly one of the two, handed on as the union of the two shapes. A strict object of both
 * (unknown keys refused) with a check, not a zod union: a union answers a request with both, or
 * neither, with one message on the whole body, where this names the field to fix. (Not
 * `.pipe(z.union(...))` either: zod 4 lets a strict object's unknown key through a pipe.)
 */
export const evidencePackBody = /* @__PURE__ */ (() => z.pipe(z.strictObject({
    dataPrincipalIdentifier: described(z.optional(identifierSchema), "The principal's identifier (an email is lower-cased), hashed as records hash it; not kept"),
    principalHash: described(z.optional(principalHashSchema), 'Or the SHA-256 hex of the identifier, as status/:hash takes it'),
  }).check(z.superRefine((body, context) => {
    const given = [body.dataPrincipalIdentifier, body.principalHash].filter((value) => value !== undefined).length;
    if (given === 0) context.addIssue({ code: 'custom', path: ['dataPrincipalIdentifier'], message: 'required: dataPrincipalIdentifier or principalHash' });
    if (given === 2) context.addIssue({ code: 'custom', path: ['principalHash'], message: 'give dataPrincipalIdentifier or principalHash, not both' });
  })), z.transform((body): { dataPrincipalIdentifier: string } | { principalHash: string } =>
    body.principalHash !== undefined ? { principalHash: body.principalHash } : { dataPrincipalIdentifier: body.dataPrincipalIdentifier! })))();

export const evidencePackQuery = /* @__PURE__ */ (() => z.strictObject({
  format: described(documentFormat, 'json: { data: { pack } }; html: the pack as a document with the JSON embedded (the verifier reads it)'),
}))();

const entryLog = /* @__PURE__ */ (() => described(z.object({
    status: described(z.enum(['INTEGRATED', 'PENDING']), "PENDING: no signed checkpoint covered the entry yet when the pack was made (seconds after it was written, and the request waits a few seconds for one); it has no inclusion proof and rests on the pack's signature"),
    leafIndex: z.nullable(z.number().check(z.int())),
    inclusionProof: described(z.array(hex32), 'RFC 9162 §2.1.3, to log.checkpoint'),
  }), "The entry's place in the tenant's log"))();

export const evidencePackView = /* @__PURE__ */ z.lazy(() => z.object({
  pack: described(z.object({
      packVersion: described(z.literal(packVersion), 'The pack format; a later format gets a new number'),
      kind: z.literal(packKind),
      generatedAt: described(z.iso.datetime(), 'When the pack was made (the service\'s clock, once everything in it was read): no entry may be dated later; an entry no checkpoint covers yet rests on the signature at this time'),
      tenant: z.object({ tenantId: z.string(), name: z.string(), slug: z.string() }),
      principalHash: hex32,
      proofAlgorithm: z.string(),
      records: described(z.array(
          z.object({
            recordId: z.uuid(),
            proofVersion: z.number().check(z.int()),
            payload: described(z.record(z.string(), z.unknown()), 'The canonical evidence as GET …/records/:id/proof gives it (every field of its proof format); its RFC 8785 form hashes to proofHash, unless retention erased values of it: then each of `externalId`, `userAgent`, `ipAddress` it erased is `{ sha256 }` and an erasure of the pack binds the payload to proofHash (docs/retention.md)'),
            proofHash: hex32,
            receipt: described(z.string(), 'The receipt (compact JWS), issued again: receipts are not stored, and an Ed25519 signature is deterministic'),
            log: entryLog,
          }),
        ), `The principal's consent records, oldest first (at most ${maxPackRecords})`),
      notices: described(z.array(
          z.object({
            noticeId: z.uuid(),
            versionNumber: z.number().check(z.int()),
            language: z.string(),
            publishedAt: z.string(),
            changeNote: z.nullable(z.string()),
            text: described(z.record(z.string(), z.unknown()), "The exact text shown (title, texts, contact, purposes as they stood) in that language; its RFC 8785 form hashes to the records' noticeTextHash"),
          }),
        ), 'Each notice version in each language a record was given against, once'),
      withdrawals: z.array(
        z.object({
          withdrawalId: z.uuid(),
          evidence: described(z.record(z.string(), z.unknown()), 'What the log committed to; its RFC 8785 form hashes to hash, unless retention erased the reason she gave: then `reason` is `{ sha256 }` and an erasure of the pack binds the evidence to hash (docs/retention.md)'),
          hash: hex32,
          log: entryLog,
        }),
      ),
      guardianDecisions: described(z.array(
        z.object({
          documentId: z.uuid(),
          canonical: described(z.string(), 'The logged document as hashed (RFC 8785): a parent\'s or guardian\'s approval (guardian hash, method, hash of the proof, the record\'s proof hash, the consents), refusal or expiry'),
          hash: hex32,
          log: entryLog,
        }),
      ), "The guardians' decisions on the principal's records (s.9: a child's or guarded person's), each a leaf of the log"),
      erasures: described(z.optional(z.array(
        z.object({
          documentId: z.uuid(),
          canonical: described(z.string(), 'The logged document as hashed (RFC 8785): retention.erased, what the service erased of the principal (erased: sealedContact, externalId, userAgent, ipAddress, salt, withdrawalReason, withdrawalSalt, withdrawalEmail), when, which records and withdrawals, why (reason, run), and the bindings of their evidence without the erased values to their hashes (recordBindings: recordId, proofHash, <field>Sha256, evidenceSha256; withdrawalBindings: withdrawalId, hash, reasonSha256, saltSha256 when the withdrawal has a salt, evidenceSha256; each hash keyed by the entry\'s salt where it has one; externalIds in erasures logged before user agents and IP addresses were erased)'),
          hash: hex32,
          log: entryLog,
        }),
      )), "Extension (retention, s.8(7)); only in the pack of a principal whose data was erased: when the principal's personal data was erased once her consent had lapsed for every purpose, each a leaf of the log; the records' evidence and proofs stay"),
      log: z.object({
        origin: z.string(),
        checkpoint: described(z.nullable(checkpointSchema), 'The signed checkpoint every inclusion proof leads to: the latest when the pack was made'),
        latestCheckpoint: described(z.nullable(checkpointSchema), 'The latest signed checkpoint when the pack was finished (usually the same one)'),
        consistencyProof: described(z.array(hex32), 'RFC 9162 §2.1.4, from checkpoint to latestCheckpoint; empty when they are the same'),
      }),
      keys: jwksView,
      signature: described(z.string(), "Compact JWS with detached payload (RFC 7515 Appendix F: `<header>..<signature>`, typ consent-evidence-pack+jws) by the evidence log's key (its kid in keys and in GET /consent/log/keys; ES256 with AWS KMS, EdDSA locally) over the RFC 8785 (JCS) canonical form of the pack without this member"),
    }), 'An evidence pack, signed as a whole: check it offline with scripts/verify-evidence-pack.mjs'),
}));
