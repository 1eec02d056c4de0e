import type { DerivedStatus } from './keys';

export type RecordChannel = 'DASHBOARD' | 'SDK';

/**
 * What the proof hash covers. Written once, never changed.
 *
 * Proof format 2 (every record since the evidence log): the evidence alone; the log, not a link
 * to a predecessor, orders and commits to records. Format 1 (records written while consents
 * were a hash chain) also covered `chainSeq` and `prevProofHash`; those records keep verifying
 * with them, and the log's first leaves are that chain, in chain order.
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
  /** Format 1 only. */
  chainSeq?: number;
  /** Format 1 only. */
  prevProofHash?: string;
}

export type ProofVersion = 1 | 2;

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
}

export const derivedStatus = (record: Pick<ConsentRecord, 'isWithdrawn' | 'withdrawnPurposes'>): DerivedStatus =>
  record.isWithdrawn ? 'withdrawn' : record.withdrawnPurposes.length > 0 ? 'partial' : 'active';

/** The previous link of a tenant's first record in proof format 1. */
export const genesisHash = '0'.repeat(64);
