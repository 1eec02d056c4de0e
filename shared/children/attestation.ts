import { signingKeyOf } from '../consent/attribution';
import { principalHash } from '../consent/principal';
import { ValidationError } from '../errors';

/** An attestation is good for 15 minutes after it was issued (and up to a minute early, for clocks). */
export const attestationWindowSeconds = 15 * 60;
const skewSeconds = 60;

export interface GuardianAttestation {
  guardianIdentifierHash: string;
  issuedAt: number;
  signature: string;
}

const refuse = (reason: string): never => {
  throw new ValidationError({ guardianAttestation: reason }, 'The guardian attestation does not verify');
};

/**
 * TENANT_ATTESTED (rule 10(1)(a)): the tenant's server, which holds reliable details of identity
 * and age of this adult, vouches that the person behind guardianEmail is the parent or guardian.
 * It proves that by a signature only its server can make: the lower-case hex HMAC-SHA256 of
 * `<guardianIdentifierHash>.<issuedAt>` keyed with one of its live secret keys as issued (the
 * pattern of the identifier signature, with a time so a signature cannot be kept and replayed).
 * The hash must be the guardian email's, so the attestation cannot be moved to another address.
 * Returns the key that signed; a 400 on guardianAttestation otherwise.
 */
export const verifyGuardianAttestation = (
  attestation: GuardianAttestation,
  guardianEmail: string,
  verifiers: ReadonlyMap<string, string>,
  nowSeconds: number,
): { keyId: string } => {
  if (attestation.guardianIdentifierHash !== principalHash(guardianEmail)) refuse('guardianIdentifierHash is not the hash of guardianEmail (SHA-256 of the trimmed, lower-cased address)');
  if (attestation.issuedAt > nowSeconds + skewSeconds) refuse('issuedAt is in the future');
  if (nowSeconds - attestation.issuedAt > attestationWindowSeconds) refuse('expired: an attestation is valid for 15 minutes after issuedAt');
  const keyId = signingKeyOf(`${attestation.guardianIdentifierHash}.${attestation.issuedAt}`, attestation.signature, verifiers);
  if (!keyId) refuse('does not verify with a live secret key of this organisation (lower-case hex HMAC-SHA256 of `<guardianIdentifierHash>.<issuedAt>`, keyed with the secret key as issued)');
  return { keyId: keyId! };
};
