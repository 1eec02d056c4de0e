import type { AttributionLevel, AttributionMethod } from './attribution-levels';
import type { DerivedStatus } from './keys';

export type RecordChannel = 'DASHBOARD' | 'SDK';

/**
 * What the proof hash covers. Written once, never changed.
 *
 * Proof format 3 (every record since attribution was recorded): format 2's evidence plus who
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
  externalId: string | null;
  consentGiven: Record<string, boolean>;
  createdAt: string;
  ipAddress: string;
  userAgent: string | null;
  /** Format 3 only: VERIFIED, CLAIMED or IP. */
  attribution?: AttributionLevel;
  /** Format 3 only. */
  attributionMethod?: AttributionMethod;
  /** Format 3 only: `key:<keyId>` or `user:<userId>`. */
  attributedBy?: string;
  /**
   * Format 3, SIGNED_HASH records since signatures carry a time: when the tenant's server signed
   * the identifier hash (Unix seconds), within 15 minutes of createdAt (attribution.ts).
   */
  identifierSignedAt?: number;
  /** Format 1 only. */
  chainSeq?: number;
  /** Format 1 only. */
  prevProofHash?: string;
}

export type ProofVersion = 1 | 2 | 3;

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

/** The previous link of a tenant's first record in proof format 1. */
export const genesisHash = '0'.repeat(64);
