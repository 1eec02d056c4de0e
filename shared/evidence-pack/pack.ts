import { clock } from '../clock';
import { evidenceConfig } from '../config';
import { recordEvidence } from '../consent/lookups';
import { principalHash as hashOfIdentifier } from '../consent/principal';
import { proofAlgorithm } from '../consent/proof';
import type { ConsentRecord } from '../consent/record';
import { noticeTextShown } from '../consent/notice-text';
import { principalRecords } from '../consent/store';
import { checkedWithdrawal } from '../consent/evidence-erasure';
import { loggedErasures } from '../consent/logged-erasures';
import { principalWithdrawalItems } from '../consent/withdrawal-store';
import { NotFoundError, ValidationError } from '../errors';
import { logOrigin } from '../evidence/checkpoint';
import { awaitCheckpoint } from '../evidence/checkpoint-wait';
import { checkpointView, extensionOf, logProofsAt, type EntryProof } from '../evidence/proofs';
import { verificationKeys } from '../evidence/signers';
import { documentsOf } from '../evidence/documents';
import type { NoticeSnapshot } from '../notices/notice';
import { getVersion } from '../notices/store';
import { requireTenant } from '../tenants/store';
import { maxPackRecords, packKind, packVersion } from './schemas';
import { signPack } from './signature';

/**
 * The evidence pack: everything a regulator needs to check, without trusting the service, what
 * one data principal agreed to and withdrew. Built only from the domains' own functions (the
 * record's evidence as the proof endpoint builds it, the principal lookup, the notice store's
 * version snapshots, the withdrawal evidence, the log's proofs), so whatever those carry (a new
 * proof format's fields) flows into the pack; never from raw items, so nothing secret can leak.
 *
 * Every inclusion proof is against ONE checkpoint, the latest signed one when the pack is built,
 * after waiting (at most EVIDENCE_PACK_WAIT_SECONDS) for one that covers entries written moments
 * ago; `latestCheckpoint` is read again at the end with a consistency proof from the first (both
 * the same, and the proof empty, unless a checkpoint was signed meanwhile). Entries a checkpoint
 * does not cover yet are PENDING, with no inclusion proof. The pack records when it was made
 * (`generatedAt`, by the clock, once everything is read) and is signed as a whole by the log's key
 * (signature.ts): a PENDING entry rests on that signature, at that time, until a later pack proves
 * its place in the log. The verifier says, per entry, which covers it.
 */
type Checkpoint = ReturnType<typeof checkpointView>;

export interface PackRecord {
  recordId: string;
  proofVersion: number;
  /** The canonical evidence as the proof endpoint gives it: its RFC 8785 form hashes to proofHash (or, values of it erased, to the binding an erasure of the pack logged). */
  payload: Record<string, unknown>;
  proofHash: string;
  /** The receipt (compact JWS) over record id, proof hash, tenant, notice and version. */
  receipt: string;
  log: EntryProof;
}

/** The exact text a principal was shown: the notice version's snapshot in one language (shared/consent/notice-text.ts). */
export interface PackNotice {
  noticeId: string;
  versionNumber: number;
  language: string;
  publishedAt: string;
  changeNote: string | null;
  /** Its RFC 8785 form hashes to the records' noticeTextHash. */
  text: ReturnType<typeof noticeTextShown>;
}

export interface PackWithdrawal {
  withdrawalId: string;
  /** Exactly what the log committed to: its RFC 8785 form hashes to `hash` (or, its reason erased, to the binding an erasure of the pack logged). */
  evidence: Record<string, unknown>;
  hash: string;
  log: EntryProof;
}

/** A parent's or guardian's decision on a child's record, exactly as the log committed to it (children/decisions.ts). */
export interface PackGuardianDecision {
  documentId: string;
  /** The RFC 8785 text whose SHA-256 is `hash`, the leaf data of the tenant's log. */
  canonical: string;
  hash: string;
  log: EntryProof;
}

export interface UnsignedPack {
  packVersion: typeof packVersion;
  kind: typeof packKind;
  generatedAt: string;
  tenant: { tenantId: string; name: string; slug: string };
  principalHash: string;
  proofAlgorithm: string;
  records: PackRecord[];
  notices: PackNotice[];
  withdrawals: PackWithdrawal[];
  /** The guardians' decisions (approval, refusal, expiry) on the principal's records, when she was a child or is guarded. */
  guardianDecisions: PackGuardianDecision[];
  /** What the service erased of her once her consent lapsed for every purpose (retention.erased), exactly as logged. */
  erasures?: PackGuardianDecision[];
  log: {
    origin: string;
    /** The checkpoint every inclusion proof leads to; null while nothing of the tenant's is signed. */
    checkpoint: Checkpoint | null;
    latestCheckpoint: Checkpoint | null;
    /** RFC 9162 §2.1.4 proof that latestCheckpoint's tree extends checkpoint's (empty when they are the same). */
    consistencyProof: string[];
  };
  /** The public keys (JWKS) of the checkpoint, receipt and pack signatures, as GET /consent/log/keys serves them. */
  keys: Awaited<ReturnType<typeof verificationKeys>>;
}

export interface EvidencePack extends UnsignedPack {
  /** Compact JWS, detached payload (RFC 7515 Appendix F), by the log's key over the RFC 8785 form of the rest of the pack (signature.ts). */
  signature: string;
}

export type PackRequest = { dataPrincipalIdentifier: string } | { principalHash: string };

const noticeKey = (noticeId: string, versionNumber: number, language: string) => `${noticeId}#${versionNumber}#${language}`;

/** The snapshots the records were given against (each version read once), shown in each record's language. */
const noticesOf = async (tenantId: string, records: ConsentRecord[]): Promise<PackNotice[]> => {
  const versions = new Map<string, Promise<NoticeSnapshot | undefined>>();
  const versionOf = (record: ConsentRecord) => {
    const key = `${record.lineageId}#${record.noticeVersionNumber}`;
    if (!versions.has(key)) versions.set(key, getVersion(tenantId, record.lineageId, record.noticeVersionNumber));
    return versions.get(key)!;
  };
  const notices = new Map<string, PackNotice>();
  for (const record of records) {
    const key = noticeKey(record.noticeId, record.noticeVersionNumber, record.languageShown);
    const snapshot = await versionOf(record);
    // A missing snapshot is left out, never made up: the verifier then reports the record's notice as missing.
    if (notices.has(key) || !snapshot || snapshot.noticeId !== record.noticeId) continue;
    notices.set(key, {
      noticeId: snapshot.noticeId,
      versionNumber: snapshot.versionNumber,
      language: record.languageShown,
      publishedAt: snapshot.publishedAt,
      changeNote: snapshot.changeNote,
      text: noticeTextShown(snapshot, record.languageShown),
    });
  }
  return [...notices.values()];
};

const principalOf = (request: PackRequest) =>
  'principalHash' in request ? { hash: request.principalHash, field: 'principalHash' } : { hash: hashOfIdentifier(request.dataPrincipalIdentifier), field: 'dataPrincipalIdentifier' };

/**
 * Each entry's place in the log against the latest checkpoint; when some are not covered yet,
 * after waiting for a checkpoint that covers them (checkpoint-wait.ts), read again.
 */
const coveredProofs = async (tenantId: string, entryIds: string[]) => {
  const first = await logProofsAt(tenantId, entryIds);
  const pending = entryIds.filter((id) => first.proofs.get(id)!.status === 'PENDING');
  if (pending.length === 0 || evidenceConfig.evidencePackWaitSeconds === 0) return first;
  await awaitCheckpoint(tenantId, pending, evidenceConfig.evidencePackWaitSeconds * 1000);
  return logProofsAt(tenantId, entryIds);
};

export const buildEvidencePack = async (tenantId: string, request: PackRequest): Promise<EvidencePack> => {
  const principal = principalOf(request);
  const newestFirst = await principalRecords(tenantId, principal.hash, maxPackRecords + 1);
  if (newestFirst.length === 0) throw new NotFoundError('Consent records of this principal');
  if (newestFirst.length > maxPackRecords) {
    throw new ValidationError({ [principal.field]: `this principal has more than ${maxPackRecords} consent records, too many for one pack; use GET /consent/records/export` });
  }
  const records = [...newestFirst].reverse();
  const withdrawalItems = await principalWithdrawalItems(tenantId, principal.hash, records.flatMap((record) => (record.lastWithdrawalId ? [record.lastWithdrawalId] : [])));
  const guardianDocuments = (await Promise.all(records.filter((record) => record.guardianRequestId).map((record) => documentsOf(tenantId, record.recordId)))).flat().filter((document) => document.documentType.startsWith('consent.guardian-'));
  const erasures = await loggedErasures(tenantId, principal.hash);
  const erasureDocuments = erasures.documents;
  const [tenant, keys, evidence, notices, logged] = await Promise.all([
    requireTenant(tenantId),
    verificationKeys(),
    Promise.all(records.map((record) => recordEvidence(record, erasures))),
    noticesOf(tenantId, records),
    coveredProofs(tenantId, [...records.map((record) => record.recordId), ...withdrawalItems.map((item) => String(item.withdrawalId)), ...guardianDocuments.map((document) => document.documentId), ...erasureDocuments.map((document) => document.documentId)]),
  ]);
  const latest = await extensionOf(tenantId, logged.checkpoint);
  const pack: UnsignedPack = {
    packVersion,
    kind: packKind,
    // Once everything is read: no entry of the pack can be younger than the pack.
    generatedAt: clock.now().toISOString(),
    tenant: { tenantId, name: tenant.name, slug: tenant.slug },
    principalHash: principal.hash,
    proofAlgorithm,
    records: evidence.map((proof) => ({
      recordId: proof.recordId,
      proofVersion: proof.proofVersion,
      payload: { ...proof.payload },
      proofHash: proof.proofHash,
      receipt: proof.receipt,
      log: logged.proofs.get(proof.recordId)!,
    })),
    notices,
    withdrawals: withdrawalItems.map((item) => {
      // Its reason erased by retention: the evidence as shown, and the hash the logged binding ties it to (the log's leaf).
      const { evidence: shown, hash } = checkedWithdrawal(item, erasures.withdrawals.get(String(item.withdrawalId))?.binding);
      return { withdrawalId: String(item.withdrawalId), evidence: shown, hash, log: logged.proofs.get(String(item.withdrawalId))! };
    }),
    guardianDecisions: guardianDocuments.map((document) => ({ documentId: document.documentId, canonical: document.canonical, hash: document.hash, log: logged.proofs.get(document.documentId)! })),
    // Only in the pack of a principal whose data was erased: every other pack stays as it was.
    ...(erasureDocuments.length > 0 ? { erasures: erasureDocuments.map((document) => ({ documentId: document.documentId, canonical: document.canonical, hash: document.hash, log: logged.proofs.get(document.documentId)! })) } : {}),
    log: {
      origin: logOrigin(tenantId),
      checkpoint: logged.checkpoint && checkpointView(logged.checkpoint),
      latestCheckpoint: latest.checkpoint,
      consistencyProof: latest.proof,
    },
    keys,
  };
  return { ...pack, signature: await signPack(pack) };
};
