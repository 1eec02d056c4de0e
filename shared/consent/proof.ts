import canonicalize from 'canonicalize';
import { sha256Hex } from '../crypto/hash';
import type { ConsentEvidence, ProofVersion } from './record';

/**
 * The proof: SHA-256 (hex) of the RFC 8785 (JSON Canonicalization Scheme) form of the evidence.
 * Anyone holding the evidence can recompute it with any JCS implementation, no service code needed.
 */
export const proofAlgorithm = 'SHA-256 over the RFC 8785 (JCS) canonical JSON of the evidence';

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
  ...(record.proofVersion === 3 ? { attribution: record.attribution, attributionMethod: record.attributionMethod, attributedBy: record.attributedBy } : {}),
  ...(record.proofVersion === 3 && record.child ? { child: record.child } : {}),
  ...(record.proofVersion === 3 && record.identifierSignedAt !== undefined ? { identifierSignedAt: record.identifierSignedAt } : {}),
});

export const canonicalJson = (value: unknown): string => {
  const canonical = canonicalize(value);
  if (canonical === undefined) throw new Error('evidence cannot be canonicalised');
  return canonical;
};

export const canonicalEvidence = (record: ConsentEvidence & { proofVersion?: ProofVersion }): string => canonicalJson(evidenceOf(record));

export const proofHashOf = (record: ConsentEvidence & { proofVersion?: ProofVersion }): string => sha256Hex(canonicalEvidence(record));
