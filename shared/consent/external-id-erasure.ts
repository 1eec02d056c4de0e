import { sha256Hex } from '../crypto/hash';
import { canonicalJson, evidenceOf } from './proof';
import type { ConsentEvidence, ConsentRecord } from './record';

/**
 * Erasing a record's clear external id without losing its evidence (retention, s.8(7)). The id is
 * inside the hashed evidence, so once it is gone the proof hash cannot be recomputed from what is
 * left. At erasure the sweep logs, per record, a binding: the record's proof hash, the SHA-256 of
 * the id, and the SHA-256 (RFC 8785) of the evidence with `externalId` replaced by `{ sha256 }`.
 * The binding is a leaf of the Merkle log, so the evidence shown without the id is proven to be the
 * evidence the proof hash covered; whoever holds the clear id puts it back in place of `{ sha256 }`
 * and recomputes the proof hash with any RFC 8785 implementation, no service code needed (and the
 * id never travels to the service again to be logged).
 *
 * Not a secret: anyone holding the evidence without the id and a candidate id can test it (as the
 * proof hash always allowed). What goes is the id itself, and its lookup.
 */

/** Evidence whose clear external id was erased: the id as its SHA-256. */
export type EvidenceWithoutExternalId = Omit<ConsentEvidence, 'externalId'> & { externalId: { sha256: string } };

/** What `retention.erased` logs for each record whose external id it erased. */
export interface ExternalIdBinding {
  recordId: string;
  proofHash: string;
  externalIdSha256: string;
  /** SHA-256 of the RFC 8785 form of the evidence without the id. */
  evidenceSha256: string;
}

export const withoutExternalId = (evidence: ConsentEvidence, externalIdSha256: string): EvidenceWithoutExternalId => ({ ...evidence, externalId: { sha256: externalIdSha256 } });

/**
 * The binding of a record's evidence (its id still clear) to its proof hash. Refuses evidence that
 * does not hash to that proof or has no id: logging a binding for altered evidence would launder it.
 */
export const externalIdBinding = (evidence: ConsentEvidence, proofHash: string): ExternalIdBinding => {
  if (evidence.externalId === null) throw new Error(`record ${evidence.recordId} has no external id to erase`);
  if (sha256Hex(canonicalJson(evidence)) !== proofHash) throw new Error(`record ${evidence.recordId}: the evidence does not hash to its proof hash; its external id is not erased`);
  const externalIdSha256 = sha256Hex(evidence.externalId);
  return { recordId: evidence.recordId, proofHash, externalIdSha256, evidenceSha256: sha256Hex(canonicalJson(withoutExternalId(evidence, externalIdSha256))) };
};

/** Whether evidence shown without its id is the evidence a (logged) binding covers, under that proof hash. */
export const bindingHolds = (evidence: EvidenceWithoutExternalId, proofHash: string, binding: ExternalIdBinding): boolean =>
  binding.recordId === evidence.recordId &&
  binding.proofHash === proofHash &&
  binding.externalIdSha256 === evidence.externalId.sha256 &&
  binding.evidenceSha256 === sha256Hex(canonicalJson(evidence));

/**
 * A record's evidence as it can be shown, and whether it stands for the record's proof hash: by
 * recomputing the hash or, once its id was erased, by the binding retention logged for it.
 * `recomputedHash` is always what the shown payload hashes to.
 */
export const checkedEvidence = (record: ConsentRecord, binding: ExternalIdBinding | undefined) => {
  if (record.externalIdSha256 === undefined) {
    const payload = evidenceOf(record);
    const recomputedHash = sha256Hex(canonicalJson(payload));
    return { payload, canonical: canonicalJson(payload), recomputedHash, matches: recomputedHash === record.proofHash };
  }
  const payload = withoutExternalId(evidenceOf(record), record.externalIdSha256);
  const canonical = canonicalJson(payload);
  return { payload, canonical, recomputedHash: sha256Hex(canonical), matches: binding !== undefined && bindingHolds(payload, record.proofHash, binding) };
};
