import { sha256Hex } from '../crypto/hash';
import type { ErasedMarker } from './erasure-binding';
import { canonicalJson } from './proof';
import type { WithdrawalAttribution } from './withdrawal-attribution';

/**
 * What a withdrawal's log entry commits to: who withdrew what, from which records, how and when,
 * and for a withdrawal by email at withdraw-public how far its principal is known (attribution).
 * Its hash is the leaf of the withdrawal in the tenant's log, so erasing or rewriting a
 * withdrawal (or the withdrawal fields of the records it covers) is found by log verification.
 * The principal's email, kept on the item only to send the confirmation, is contact data, not
 * part of the decision, and stays out. A withdrawal made since erased values are salted with a
 * reason also holds `salt`, 16 random bytes (base64url) of its own: retention erases it with the
 * reason and keys the reason's hash by it (evidence-erasure.ts), so the reason cannot be found by
 * trying candidates. Older withdrawals, and those without a reason, have none and hash as always.
 */
export interface WithdrawalEvidence {
  tenantId: string;
  withdrawalId: string;
  dataPrincipalHash: string;
  recordIds: string[];
  requestedPurposeIds: string[];
  purposeIds: string[];
  isFullWithdrawal: boolean;
  method: string;
  /** As she gave it, or once retention erased it, its hash (keyed by `salt` when there is one; evidence-erasure.ts). */
  reason: string | null | ErasedMarker;
  actor: string;
  withdrawnAt: string;
  /** Only on withdrawals by email at withdraw-public since they are attributed (withdrawal-attribution.ts). */
  attribution?: WithdrawalAttribution;
  /** Only on withdrawals with a reason made since reasons are salted; once retention erased it, its SHA-256. */
  salt?: string | ErasedMarker;
}

export const withdrawalEvidenceOf = (item: Record<string, unknown>): WithdrawalEvidence => ({
  tenantId: String(item.tenantId),
  withdrawalId: String(item.withdrawalId),
  dataPrincipalHash: String(item.dataPrincipalHash),
  recordIds: (item.recordIds as string[] | undefined) ?? [],
  requestedPurposeIds: (item.requestedPurposeIds as string[] | undefined) ?? [],
  purposeIds: (item.purposeIds as string[] | undefined) ?? [],
  isFullWithdrawal: item.isFullWithdrawal === true,
  method: String(item.method),
  reason: typeof item.reasonSha256 === 'string' ? { sha256: item.reasonSha256 } : ((item.reason as string | null | undefined) ?? null),
  actor: String(item.actor),
  withdrawnAt: String(item.withdrawnAt),
  // Absent on older withdrawals and other methods: their hash is what it always was.
  ...(item.attribution ? { attribution: item.attribution as WithdrawalAttribution } : {}),
  ...(typeof item.saltSha256 === 'string' ? { salt: { sha256: item.saltSha256 } } : typeof item.salt === 'string' ? { salt: item.salt } : {}),
});

/**
 * Exactly what a withdrawal's hash covers: its evidence, marked as a withdrawal so it cannot pass
 * for another kind of entry (once retention erased its reason, the evidence as shown: its hash is
 * then the logged binding's, evidence-erasure.ts).
 */
export const hashedWithdrawal = (item: Record<string, unknown>) => ({ kind: 'withdrawal' as const, ...withdrawalEvidenceOf(item) });

/** The hash of a withdrawal as written (the log's leaf data, entries.ts); once its reason is erased, checkedWithdrawal's. */
export const withdrawalHashOf = (item: Record<string, unknown>): string => sha256Hex(canonicalJson(hashedWithdrawal(item)));
