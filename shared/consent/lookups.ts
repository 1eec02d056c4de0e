import { currentActors } from '../users/actor';
import { userIdOf } from '../users/actor-words';
import { NotFoundError } from '../errors';
import { lastVersionNumbers } from '../notices/store';
import { logProofsAt } from '../evidence/proofs';
import { issueReceipt } from '../evidence/receipts';
import { boundFields, isErasedMarker } from './erasure-binding';
import { checkedEvidence } from './evidence-erasure';
import { loggedErasures, type LoggedErasures } from './logged-erasures';
import { proofAlgorithm } from './proof';
import { consentInForce, stateOf, type ConsentRecord } from './record';
import { externalIdRecords, getRecord, principalRecords } from './store';
import type { WithdrawalMethod } from './withdrawal-apply';
import { withdrawalEvidenceOf } from './withdrawal-evidence';
import { getWithdrawalItem } from './withdrawal-store';

const statusFields = (record: ConsentRecord) => ({
  consentState: stateOf(record),
  guardianVerification: record.guardianDecision ? { attribution: 'GUARDIAN_VERIFIED' as const, method: record.guardianDecision.method, verifiedAt: record.guardianDecision.decidedAt } : null,
  attribution: record.attribution ?? null,
  isWithdrawn: record.isWithdrawn,
  withdrawnAt: record.withdrawnAt,
  withdrawnPurposes: record.withdrawnPurposes,
  isPartiallyWithdrawn: record.isPartiallyWithdrawn,
  expiredPurposes: record.expiredPurposes ?? [],
  expiredAt: record.expiredAt ?? null,
  expiryReason: record.expiryReason ?? null,
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
  consentGiven: consentInForce(record),
  noticeVersionNumber: record.noticeVersionNumber,
  currentNoticeVersion: versions.get(record.lineageId) ?? record.noticeVersionNumber,
  ...statusFields(record),
});

export const listItemView = (record: ConsentRecord, versions: Map<string, number>) => ({
  ...recordView(record, versions),
  consentGiven: Object.values(consentInForce(record)).some(Boolean),
  languageShown: record.languageShown,
  positionShown: record.positionShown,
  proofHash: record.proofHash,
});

/** Newest first; data[0] is the principal's current state. */
export const statusByHash = async (tenantId: string, hash: string) =>
  (await principalRecords(tenantId, hash)).map((record) => ({
    consentRecordId: record.recordId,
    noticeVersion: record.noticeVersionNumber,
    consentGiven: consentInForce(record),
    proofHash: record.proofHash,
    ...statusFields(record),
  }));

export const recordsByExternalId = async (tenantId: string, externalId: string) => {
  const records = await externalIdRecords(tenantId, externalId);
  const versions = await currentVersions(tenantId, records);
  return records.map((record) => recordView(record, versions));
};

/**
 * A record's evidence and, once retention erased values of it, the logged binding it stands by
 * (evidence-erasure.ts). `erasures`: her logged erasures when the caller read them already (a pack).
 */
const evidenceAndBinding = async (record: ConsentRecord, erasures?: LoggedErasures) => {
  const logged = record.erasedSha256 === undefined ? undefined : (erasures ?? (await loggedErasures(record.tenantId, record.dataPrincipalHash))).records.get(record.recordId);
  const checked = checkedEvidence(record, logged?.binding);
  const view = {
    recordId: record.recordId,
    proofVersion: record.proofVersion,
    algorithm: proofAlgorithm,
    canonicalPayload: checked.canonical,
    payload: checked.payload,
    proofHash: record.proofHash,
    recomputedHash: checked.recomputedHash,
    matches: checked.matches,
    erasure: logged ? { documentId: logged.documentId, at: logged.at, runId: logged.runId, erasedFields: boundFields('record', logged.binding), evidenceSha256: logged.binding.evidenceSha256 } : null,
    receipt: await issueReceipt(record),
  };
  return { view, logged };
};

/**
 * A record's evidence and proof, without its place in the log: the canonical payload anyone can
 * re-hash, and the receipt (not stored: re-issued, and byte for byte the one the record returned,
 * an Ed25519 signature being deterministic, as long as the receipt key is the same).
 */
export const recordEvidence = async (record: ConsentRecord, erasures?: LoggedErasures) => (await evidenceAndBinding(record, erasures)).view;

/** The withdrawal that last changed a record, as its WithdrawalRecord holds it (how it was made, and by whom as far as known). */
const lastWithdrawalOf = async (record: ConsentRecord) => {
  const item = record.lastWithdrawalId ? await getWithdrawalItem(record.tenantId, record.lastWithdrawalId) : undefined;
  if (!item) return null;
  const evidence = withdrawalEvidenceOf(item);
  return {
    withdrawalId: evidence.withdrawalId,
    withdrawnAt: evidence.withdrawnAt,
    method: evidence.method as WithdrawalMethod,
    reason: isErasedMarker(evidence.reason) ? null : evidence.reason,
    // Retention erased the reason she gave: its SHA-256 stays in the evidence (evidence-erasure.ts).
    reasonSha256: isErasedMarker(evidence.reason) ? evidence.reason.sha256 : null,
    isFullWithdrawal: evidence.isFullWithdrawal,
    purposeIds: evidence.purposeIds,
    attribution: evidence.attribution ?? null,
  };
};

export const proofOf = async (tenantId: string, recordId: string) => {
  const record = await getRecord(tenantId, recordId);
  if (!record) throw new NotFoundError('Consent record');
  // The evidence names a team member by id only; the view names them as the team list reads now, and says so.
  const userId = userIdOf(record.attributedBy);
  const [{ view: evidence, logged }, lastWithdrawal, actors] = await Promise.all([evidenceAndBinding(record), lastWithdrawalOf(record), userId ? currentActors(tenantId, [userId]) : undefined]);
  // The erasure that binds erased values is proven against the same checkpoint as the record, so one signed note checks both.
  const { checkpoint, proofs } = await logProofsAt(tenantId, logged ? [recordId, logged.documentId] : [recordId]);
  const log = { ...proofs.get(recordId)!, treeSize: checkpoint?.treeSize ?? 0, rootHash: checkpoint?.rootHash ?? null, checkpoint };
  const erasure = evidence.erasure && logged ? { ...evidence.erasure, document: { documentId: logged.documentId, canonical: logged.canonical, hash: logged.hash }, log: proofs.get(logged.documentId)! } : null;
  const { consentState, guardianVerification } = statusFields(record);
  return { ...evidence, erasure, attributedByActor: (userId && actors?.get(userId)) || null, log, lastWithdrawal, consentState, guardianVerification, guardianRequestId: record.guardianRequestId ?? null };
};
