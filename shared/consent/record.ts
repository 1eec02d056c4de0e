import type { DerivedStatus } from './keys';

export type RecordChannel = 'DASHBOARD' | 'SDK';

/** What the proof hash covers. Written once, never changed. */
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
  chainSeq: number;
  prevProofHash: string;
}

export interface ConsentRecord extends ConsentEvidence {
  proofHash: string;
  noticeTitle: string;
  /** The notice lineage, whose latest version number tells whether this consent is stale. */
  lineageId: string;
  channel: RecordChannel;
  /** The widget's own summary (ACCEPTED, REJECTED, PARTIAL) on SDK records. */
  decision: string | null;
  /** Required purposes the principal declined: recorded as decided, flagged for the tenant. */
  requiredPurposesDeclined: string[];
  prevRecordId: string | null;
  /** The only fields that ever change, by conditional updates on withdrawal. */
  withdrawnPurposes: string[];
  withdrawnAt: string | null;
  isWithdrawn: boolean;
  isPartiallyWithdrawn: boolean;
  /** Bumped by each withdrawal; withdrawals are conditional on the version read. */
  withdrawalVersion: number;
}

export const derivedStatus = (record: Pick<ConsentRecord, 'isWithdrawn' | 'withdrawnPurposes'>): DerivedStatus =>
  record.isWithdrawn ? 'withdrawn' : record.withdrawnPurposes.length > 0 ? 'partial' : 'active';

/** The previous link of a tenant's first record. */
export const genesisHash = '0'.repeat(64);
