import canonicalize from 'canonicalize';
import { sha256Hex } from '../crypto/hash';
import type { ConsentEvidence, ProofVersion } from './record';

/**
 * The proof: SHA-256 (hex) of the RFC 8785 (JSON Canonicalization Scheme) form of the evidence.
 * Anyone holding the evidence can recompute it with any JCS implementation, no service code needed.
 */
export const proofAlgorithm = 'SHA-256 over the RFC 8785 (JCS) canonical JSON of the evidence';

/** Formats 3 and 4 state the attribution in the evidence. */
const attributed = (proofVersion: ProofVersion | undefined): boolean => proofVersion === 3 || proofVersion === 4;

/** The evidence a proof hash covers, in the record's proof format (record.ts). */
export const evidenceOf = (record: ConsentEvidence & { proofVersion?: ProofVersion }): ConsentEvidence => ({
  tenantId: record.tenantId,
  recordId: record.recordId,
  noticeId: record.noticeId,
  noticeVersionNumber: record.noticeVersionNumber,
  noticeTextHash: record.noticeTextHash,
  languageShown: record.languageShown,
  positionShown: record.positionShown,
  dataPrincipalHash: record.dataPrincipalHash,
  externalId: record.externalId,
  consentGiven: record.consentGiven,
  createdAt: record.createdAt,
  ipAddress: record.ipAddress,
  userAgent: record.userAgent,
  ...(record.proofVersion === 1 ? { chainSeq: record.chainSeq, prevProofHash: record.prevProofHash } : {}),
  ...(attributed(record.proofVersion) ? { attribution: record.attribution, attributionMethod: record.attributionMethod, attributedBy: record.attributedBy } : {}),
  ...(attributed(record.proofVersion) && record.child ? { child: record.child } : {}),
  ...(attributed(record.proofVersion) && record.identifierSignedAt !== undefined ? { identifierSignedAt: record.identifierSignedAt } : {}),
  // Format 4: null once retention erased it (the evidence then shows its marker, evidence-erasure.ts).
  ...(record.proofVersion === 4 ? { salt: record.salt ?? null } : {}),
});

export const canonicalJson = (value: unknown): string => {
  const canonical = canonicalize(value);
  if (canonical === undefined) throw new Error('evidence cannot be canonicalised');
  return canonical;
};

export const canonicalEvidence = (record: ConsentEvidence & { proofVersion?: ProofVersion }): string => canonicalJson(evidenceOf(record));

export const proofHashOf = (record: ConsentEvidence & { proofVersion?: ProofVersion }): string => sha256Hex(canonicalEvidence(record));
