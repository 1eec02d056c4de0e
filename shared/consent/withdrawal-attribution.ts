import type { ApiKeyKind } from '../api-keys/schemas';
import type { WithdrawalAttribution } from './attribution-levels';
import { ipAttribution } from './principal';

export type { WithdrawalAttribution };

const maxOriginLength = 300;

/** An origin as the browser states it: Origin as sent ("null" included), else the origin of the Referer. */
const originOf = (headers: { origin?: string; referer?: string }): string | null => {
  if (headers.origin !== undefined) return headers.origin.slice(0, maxOriginLength);
  if (headers.referer === undefined) return null;
  try {
    return new URL(headers.referer).origin.slice(0, maxOriginLength);
  } catch {
    return null;
  }
};

/**
 * Who a withdrawal by email (withdraw-public) says withdrew, and how much that is worth: part of
 * the withdrawal's evidence (its hash, so its log entry and evidence packs), its record, the
 * consent.withdrawn events and the dashboard. Under the spec's default (publicWithdrawal
 * IMMEDIATE) anyone holding the page's publishable key can withdraw any email's consent, so such a
 * withdrawal is an unverified claim of the email, not the principal's own act: it says so
 * (CLAIMED, PUBLIC_EMAIL_CLAIM) with where the request came from: its Origin (else its Referer's
 * origin) and the SHA-256 of its IP address hashed as an IP-attributed record's principal is
 * (`ip:<address>`), so the two can be matched without keeping the address. A call with a secret
 * key is the tenant's server vouching for the person (VERIFIED, SECRET_KEY), as on sdk-record.
 */
export const emailClaimAttribution = (
  caller: { keyId: string; kind: ApiKeyKind },
  request: { ip: string; origin?: string; referer?: string },
): WithdrawalAttribution => ({
  level: caller.kind === 'secret' ? 'VERIFIED' : 'CLAIMED',
  method: caller.kind === 'secret' ? 'SECRET_KEY' : 'PUBLIC_EMAIL_CLAIM',
  attributedBy: `key:${caller.keyId}`,
  origin: originOf(request),
  ipHash: ipAttribution(request.ip),
});
