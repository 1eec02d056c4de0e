import { currentActors } from '../users/actor';
import { userIdOf } from '../users/actor-words';
import { NotFoundError } from '../errors';
import { lastVersionNumbers } from '../notices/store';
import { logProofOf } from '../evidence/proofs';
import { issueReceipt } from '../evidence/receipts';
import { canonicalEvidence, evidenceOf, proofAlgorithm, proofHashOf } from './proof';
import type { ConsentRecord } from './record';
import { externalIdRecords, getRecord, principalRecords } from './store';

const statusFields = (record: ConsentRecord) => ({
  attribution: record.attribution ?? null,
  isWithdrawn: record.isWithdrawn,
  withdrawnAt: record.withdrawnAt,
  withdrawnPurposes: record.withdrawnPurposes,
  isPartiallyWithdrawn: record.isPartiallyWithdrawn,
  createdAt: record.createdAt,
  noticeId: record.noticeId,
  noticeTitle: record.noticeTitle,
});

/** Latest version number of each lineage the records refer to, in one BatchGet. */
export const currentVersions = (tenantId: string, records: readonly ConsentRecord[]): Promise<Map<string, number>> =>
  lastVersionNumbers(tenantId, records.map((record) => record.lineageId));

const recordView = (record: ConsentRecord, versions: Map<string, number>) => ({
  id: record.recordId,
  dataPrincipalHash: record.dataPrincipalHash,
  externalId: record.externalId,
  consentGiven: record.consentGiven,
  noticeVersionNumber: record.noticeVersionNumber,
  currentNoticeVersion: versions.get(record.lineageId) ?? record.noticeVersionNumber,
  ...statusFields(record),
});

export const listItemView = (record: ConsentRecord, versions: Map<string, number>) => ({
  ...recordView(record, versions),
  consentGiven: Object.values(record.consentGiven).some(Boolean),
  languageShown: record.languageShown,
  positionShown: record.positionShown,
  proofHash: record.proofHash,
});

/** Newest first; data[0] is the principal's current state. */
export const statusByHash = async (tenantId: string, hash: string) =>
  (await principalRecords(tenantId, hash)).map((record) => ({
    consentRecordId: record.recordId,
    noticeVersion: record.noticeVersionNumber,
    consentGiven: record.consentGiven,
    proofHash: record.proofHash,
    ...statusFields(record),
  }));

export const recordsByExternalId = async (tenantId: string, externalId: string) => {
  const records = await externalIdRecords(tenantId, externalId);
  const versions = await currentVersions(tenantId, records);
  return records.map((record) => recordView(record, versions));
};

/**
 * A record's evidence and proof, without its place in the log: the canonical payload anyone can
 * re-hash, and the receipt (not stored: re-issued, and byte for byte the one the record returned,
 * an Ed25519 signature being deterministic, as long as the receipt key is the same).
 */
export const recordEvidence = async (record: ConsentRecord) => {
  const recomputedHash = proofHashOf(record);
  return {
    recordId: record.recordId,
    proofVersion: record.proofVersion,
    algorithm: proofAlgorithm,
    canonicalPayload: canonicalEvidence(record),
    payload: evidenceOf(record),
    proofHash: record.proofHash,
    recomputedHash,
    matches: recomputedHash === record.proofHash,
    receipt: await issueReceipt(record),
  };
};

export const proofOf = async (tenantId: string, recordId: string) => {
  const record = await getRecord(tenantId, recordId);
  if (!record) throw new NotFoundError('Consent record');
  // The evidence names a team member by id only; the view names them as the team list reads now, and says so.
  const userId = userIdOf(record.attributedBy);
  const [evidence, log, actors] = await Promise.all([recordEvidence(record), logProofOf(tenantId, recordId), userId ? currentActors(tenantId, [userId]) : undefined]);
  return { ...evidence, attributedByActor: (userId && actors?.get(userId)) || null, log };
};
