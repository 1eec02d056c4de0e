import canonicalize from 'canonicalize';
import { sha256Hex } from '../crypto/hash';
import type { ConsentEvidence } from './record';

/**
 * The proof: SHA-256 (hex) of the RFC 8785 (JSON Canonicalization Scheme) form of the evidence.
 * Anyone holding the evidence can recompute it with any JCS implementation, no service code needed.
 */
export const proofAlgorithm = 'SHA-256 over the RFC 8785 (JCS) canonical JSON of the evidence';

export const evidenceOf = (record: ConsentEvidence): ConsentEvidence => ({
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
  chainSeq: record.chainSeq,
  prevProofHash: record.prevProofHash,
});

export const canonicalEvidence = (record: ConsentEvidence): string => {
  const canonical = canonicalize(evidenceOf(record));
  if (canonical === undefined) throw new Error('evidence cannot be canonicalised');
  return canonical;
};

export const proofHashOf = (record: ConsentEvidence): string => sha256Hex(canonicalEvidence(record));
