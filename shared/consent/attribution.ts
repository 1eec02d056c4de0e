import type { ApiKeyKind } from '../api-keys/schemas';
import { ValidationError } from '../errors';
import type { AttributionLevel, AttributionMethod } from './attribution-levels';
import { ipAttribution, principalHash } from './principal';
import type { ConsentSettings } from './settings';
import { signatureWindowSeconds, verifyTimedSignature } from './timed-signature';

/**
 * Who a record says the principal is, and how much that is worth: part of every new record's
 * evidence (proof formats 3 and 4), so it is as tamper-evident as the decision itself.
 * - VERIFIED: the tenant vouched for the identity: its server sent it with a secret key
 *   (SECRET_KEY), or signed the hash the page sent (SIGNED_HASH), or its staff recorded it in the
 *   dashboard (DASHBOARD).
 * - CLAIMED: a page sent an identifierHash nobody signed (UNSIGNED_HASH): anyone holding the
 *   publishable key could have sent it.
 * - IP: no identifier; the client's address stands in (IP_ADDRESS).
 * `attributedBy` names who vouched or, for CLAIMED and IP, which key the call came with: `key:<id>`
 * or `user:<id>`. A SIGNED_HASH record also holds when the tenant's server signed
 * (`identifierSignedAt`, Unix seconds), so the evidence shows the signature was fresh.
 */
export interface Attribution {
  attribution: AttributionLevel;
  attributionMethod: AttributionMethod;
  attributedBy: string;
  identifierSignedAt?: number;
}

/** Who says who the principal is: the tenant's staff (dashboard), or a call with an API key. */
export type PrincipalClaim =
  | { by: 'staff'; userId: string; identifier: string }
  | {
      by: 'apiKey';
      keyId: string;
      keyKind: ApiKeyKind;
      ip: string;
      identifier?: string;
      identifierHash?: string;
      identifierSignature?: string;
      identifierSignedAt?: number;
    };

const refuse = (fields: Record<string, string>): never => {
  throw new ValidationError(fields, 'The principal could not be attributed as required');
};

const requiredNote = 'required: this organisation records only verified identities (requireVerifiedIdentity); sign identifierHash on your server with a secret key';

/**
 * A signature binds the hash to the time the tenant's server signed it (`<identifierHash>.<identifierSignedAt>`)
 * and is accepted only within 15 minutes of the service's clock, either way (timed-signature.ts).
 */
const signedAttribution = (identifierHash: string, signature: string, signedAt: number | undefined, verifiers: ReadonlyMap<string, string>): { dataPrincipalHash: string } & Attribution => {
  if (signedAt === undefined) {
    return refuse({ identifierSignature: 'send identifierSignedAt (integer Unix seconds) with it: a signature covers `<identifierHash>.<identifierSignedAt>`' });
  }
  const checked = verifyTimedSignature(identifierHash, signedAt, signature, verifiers);
  if (!checked.valid) {
    return refuse({
      identifierSignature:
        checked.reason === 'OUT_OF_WINDOW'
          ? `was signed at ${signedAt} (identifierSignedAt), more than ${signatureWindowSeconds / 60} minutes from the service's clock (${checked.nowSeconds}): sign again when the page is served`
          : 'does not verify with a live secret key of this organisation (lower-case hex HMAC-SHA256 of `<identifierHash>.<identifierSignedAt>`, keyed with the secret key as issued)',
    });
  }
  return { dataPrincipalHash: identifierHash, attribution: 'VERIFIED', attributionMethod: 'SIGNED_HASH', attributedBy: `key:${checked.keyId}`, identifierSignedAt: signedAt };
};

const keyAttribution = (claim: Extract<PrincipalClaim, { by: 'apiKey' }>, settings: ConsentSettings, verifiers: ReadonlyMap<string, string>): { dataPrincipalHash: string } & Attribution => {
  const key = `key:${claim.keyId}`;
  if (claim.identifier !== undefined && claim.keyKind === 'publishable') {
    refuse({ identifier: 'a raw identifier is accepted only with a secret key, from the tenant\'s server: a publishable key is public, so it cannot vouch for anyone. From a page, send identifierHash with identifierSignature' });
  }
  if (claim.identifierSignature !== undefined && claim.identifierHash === undefined) refuse({ identifierSignature: 'signs an identifierHash: send the hash it signs' });
  if (claim.identifierSignedAt !== undefined && claim.identifierSignature === undefined) refuse({ identifierSignedAt: 'dates an identifierSignature: send the signature it dates' });
  if (claim.identifierSignature !== undefined) return signedAttribution(claim.identifierHash!, claim.identifierSignature, claim.identifierSignedAt, verifiers);
  if (claim.keyKind === 'secret') {
    // Spec rule: identifierHash is used as is when given, else identifier is hashed.
    const hash = claim.identifierHash ?? (claim.identifier === undefined ? undefined : principalHash(claim.identifier));
    if (!hash) return refuse({ identifier: 'a secret key records for a named principal: send identifier or identifierHash' });
    return { dataPrincipalHash: hash, attribution: 'VERIFIED', attributionMethod: 'SECRET_KEY', attributedBy: key };
  }
  if (claim.identifierHash !== undefined) {
    if (settings.requireVerifiedIdentity) refuse({ identifierSignature: requiredNote });
    return { dataPrincipalHash: claim.identifierHash, attribution: 'CLAIMED', attributionMethod: 'UNSIGNED_HASH', attributedBy: key };
  }
  if (settings.requireVerifiedIdentity) refuse({ identifierHash: requiredNote, identifierSignature: requiredNote });
  return { dataPrincipalHash: ipAttribution(claim.ip), attribution: 'IP', attributionMethod: 'IP_ADDRESS', attributedBy: key };
};

/**
 * The principal hash a record is filed under and its attribution, or a 400 naming the field: a
 * publishable key never sends a raw identifier, a signature must verify, and with
 * requireVerifiedIdentity nothing unverified is recorded. The dashboard's own staff are the
 * tenant: what they record is VERIFIED, by DASHBOARD.
 */
export const attributePrincipal = (claim: PrincipalClaim, settings: ConsentSettings, verifiers: ReadonlyMap<string, string>): { dataPrincipalHash: string } & Attribution =>
  claim.by === 'staff'
    ? { dataPrincipalHash: principalHash(claim.identifier), attribution: 'VERIFIED', attributionMethod: 'DASHBOARD', attributedBy: `user:${claim.userId}` }
    : keyAttribution(claim, settings, verifiers);
