import type { AttributionLevel, AttributionMethod } from './attribution-levels';
import type { ErasableRecordField } from './erasure-binding';
import type { DerivedStatus } from './keys';
import type { ConsentState, PrincipalStatus, VerificationMethod } from './states';

export type RecordChannel = 'DASHBOARD' | 'SDK';

/**
 * What the proof hash covers. Written once, never changed.
 *
 * Proof format 4 (every record since erased values are salted): format 3's evidence plus `salt`,
 * 16 random bytes (base64url) drawn for the record alone. Shown with the evidence, it lets anyone
 * holding the values recompute the proof hash; erased with them by retention, it keys the hashes
 * that stand for them (evidence-erasure.ts), so neither those nor the proof hash can be searched
 * for a low-entropy value (an IP address, a common user agent, a sequential external id).
 * Proof format 3 (records since attribution was recorded, before format 4): format 2's evidence plus who
 * the record says the principal is and how that is known (`attribution`, `attributionMethod`,
 * `attributedBy`: attribution.ts, and for a signed hash `identifierSignedAt`, present only on
 * records made since signatures carry a time, so older records hash as they always did). Format 2 (records since the evidence log): the evidence alone;
 * the log, not a link to a predecessor, orders and commits to records. Format 1 (records written
 * while consents were a hash chain) also covered `chainSeq` and `prevProofHash`. Every format
 * keeps verifying by its own fields, and the log's first leaves are the old chain, in chain order.
 */
export interface ConsentEvidence {
  tenantId: string;
  recordId: string;
  noticeId: string;
  noticeVersionNumber: number;
  /** SHA-256 of the notice text exactly as shown in `languageShown` (see notice-text.ts). */
  noticeTextHash: string;
  languageShown: string;
  positionShown: string;
  dataPrincipalHash: string;
  /** null when none was given, or once retention erased it (erasedSha256). */
  externalId: string | null;
  consentGiven: Record<string, boolean>;
  createdAt: string;
  /** null only once retention erased it (erasedSha256). */
  ipAddress: string | null;
  /** null when none was sent, or once retention erased it (erasedSha256). */
  userAgent: string | null;
  /** Formats 3 and 4 only: VERIFIED, CLAIMED or IP. */
  attribution?: AttributionLevel;
  /** Formats 3 and 4 only. */
  attributionMethod?: AttributionMethod;
  /** Formats 3 and 4 only: `key:<keyId>` or `user:<userId>`. */
  attributedBy?: string;
  /**
   * Formats 3 and 4, a child's or guarded person's decision only (s.9): who decided, whom the parent or
   * guardian is, and what the decision relies on besides. Adults' records have none, so their
   * evidence is unchanged.
   */
  child?: ChildEvidence;
  /**
   * Formats 3 and 4, SIGNED_HASH records since signatures carry a time: when the tenant's server signed
   * the identifier hash (Unix seconds), within 15 minutes of createdAt (attribution.ts).
   */
  identifierSignedAt?: number;
  /** Format 4 only: 16 random bytes, base64url; null once retention erased it (erasedSha256). */
  salt?: string | null;
  /** Format 1 only. */
  chainSeq?: number;
  /** Format 1 only. */
  prevProofHash?: string;
}

/** The part of a child's record its proof hash covers (evidence, written once). */
export interface ChildEvidence {
  principalStatus: Exclude<PrincipalStatus, 'ADULT'>;
  /** SHA-256 of the guardian's email (trimmed, lower-cased): whom the request went to. */
  guardianHash: string;
  /** The child's 18th birthday, as the tenant gave it, or null. */
  majorityAt: string | null;
  /** Purposes granted under the Fourth Schedule, each with its condition and source (children/fourth-schedule.ts). */
  exemptions: { purposeId: string; exemption: string; condition: string; source: string }[];
  /** TENANT_ATTESTED: the tenant's signed statement about the guardian, as verified when the decision was recorded. */
  guardianAttestation: { guardianIdentifierHash: string; issuedAt: number; keyId: string } | null;
}

/** The parent's or guardian's decision on a child's record (state, not evidence: its evidence is the logged document). */
export interface GuardianDecision {
  method: VerificationMethod;
  decidedAt: string;
  /** What is in force: the child's grants, less what the guardian switched off. */
  consentGiven: Record<string, boolean>;
  /** The logged document holding the decision (children/approval.ts). */
  documentId: string;
}

export type ProofVersion = 1 | 2 | 3 | 4;

export interface ConsentRecord extends ConsentEvidence {
  proofVersion: ProofVersion;
  proofHash: string;
  noticeTitle: string;
  /** The notice lineage, whose latest version number tells whether this consent is stale. */
  lineageId: string;
  channel: RecordChannel;
  /** The widget's own summary (ACCEPTED, REJECTED, PARTIAL) on SDK records. */
  decision: string | null;
  /** Required purposes the principal declined: recorded as decided, flagged for the tenant. */
  requiredPurposesDeclined: string[];
  /** The only fields that ever change, by conditional updates on withdrawal. */
  withdrawnPurposes: string[];
  withdrawnAt: string | null;
  isWithdrawn: boolean;
  isPartiallyWithdrawn: boolean;
  /** Absent on adults' records and every record made before s.9: those are ACTIVE. */
  consentState?: ConsentState;
  /** The guardian request a child's decision waits on (children/). */
  guardianRequestId?: string;
  guardianDecision?: GuardianDecision;
  /**
   * Retention (state, not evidence): the purposes whose retention period ended for this record, and
   * when and why (retention/sweeper.ts). All of them: consentState EXPIRED.
   */
  expiredPurposes?: string[];
  expiredAt?: string;
  expiryReason?: string;
  /**
   * The values retention erased (state, not evidence), each as its SHA-256 (format 4: keyed by the
   * record's salt, erased with them; evidence-erasure.ts): the field reads null, and the evidence
   * is shown with `<field>: { sha256 }`, bound to the proof hash by the logged retention.erased.
   */
  erasedSha256?: Partial<Record<ErasableRecordField, string>>;
  /** Bumped by each withdrawal; withdrawals are conditional on the version read. */
  withdrawalVersion: number;
  /** The withdrawal that changed the record last (absent until one does). */
  lastWithdrawalId?: string;
  /**
   * SHA-256 (hex) of the withdrawal key sdk-record returned to the browser, the proof of
   * possession sdk-withdraw asks for. Not evidence, and never shown: records made before withdrawal
   * keys, and dashboard records, have none.
   */
  withdrawalKeyHash?: string;
  /**
   * Where the record is stored, not what it says: set on records written before the records'
   * partition was sharded (keys.ts), which stay under the tenant's own partition. Never evidence,
   * never shown; recordKeyOf (store.ts) turns it into the record's key.
   */
  legacyKey?: true;
}

export const derivedStatus = (record: Pick<ConsentRecord, 'isWithdrawn' | 'withdrawnPurposes'>): DerivedStatus =>
  record.isWithdrawn ? 'withdrawn' : record.withdrawnPurposes.length > 0 ? 'partial' : 'active';

/** The record's state; records without one (adults', and every record from before s.9) are ACTIVE. */
export const stateOf = (record: Pick<ConsentRecord, 'consentState'>): ConsentState => record.consentState ?? 'ACTIVE';

/** Whether the record is consent in force: until a parent approves, a child's decision counts as no consent anywhere. */
export const inForce = (record: Pick<ConsentRecord, 'consentState'>): boolean => stateOf(record) === 'ACTIVE';

/**
 * The decisions in force by purpose: the guardian's where one approved (the child's grants less
 * what the guardian switched off), the principal's otherwise, and none at all (every purpose
 * false) while the record is not in force.
 */
export const consentInForce = (record: Pick<ConsentRecord, 'consentState' | 'consentGiven' | 'guardianDecision' | 'expiredPurposes'>): Record<string, boolean> => {
  if (!inForce(record)) return Object.fromEntries(Object.keys(record.consentGiven).map((purposeId) => [purposeId, false]));
  const decided = record.guardianDecision?.consentGiven ?? record.consentGiven;
  // A purpose whose retention period ended is no consent, as a withdrawn one is not.
  const expired = record.expiredPurposes ?? [];
  return expired.length === 0 ? decided : Object.fromEntries(Object.entries(decided).map(([purposeId, given]) => [purposeId, given && !expired.includes(purposeId)]));
};

/** The previous link of a tenant's first record in proof format 1. */
export const genesisHash = '0'.repeat(64);
