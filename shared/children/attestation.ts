import { principalHash } from '../consent/principal';
import { signatureWindowSeconds, verifyTimedSignature } from '../consent/timed-signature';
import { ValidationError } from '../errors';

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
 * `<guardianIdentifierHash>.<issuedAt>` keyed with one of its live secret keys as issued, checked
 * as every such signature is (consent/timed-signature.ts: within 15 minutes of the service's
 * clock, either way). The hash must be the guardian email's, so the attestation cannot be moved to
 * another address. Returns the key that signed; a 400 on guardianAttestation otherwise.
 */
export const verifyGuardianAttestation = (attestation: GuardianAttestation, guardianEmail: string, verifiers: ReadonlyMap<string, string>, now: Date): { keyId: string } => {
  if (attestation.guardianIdentifierHash !== principalHash(guardianEmail)) refuse('guardianIdentifierHash is not the hash of guardianEmail (SHA-256 of the trimmed, lower-cased address)');
  const checked = verifyTimedSignature(attestation.guardianIdentifierHash, attestation.issuedAt, attestation.signature, verifiers, now);
  if (checked.valid) return { keyId: checked.keyId };
  return refuse(
    checked.reason === 'OUT_OF_WINDOW'
      ? `expired or not yet valid: issued at ${attestation.issuedAt} (issuedAt), more than ${signatureWindowSeconds / 60} minutes from the service's clock (${checked.nowSeconds}); sign again when the child's decision is sent`
      : 'does not verify with a live secret key of this organisation (lower-case hex HMAC-SHA256 of `<guardianIdentifierHash>.<issuedAt>`, keyed with the secret key as issued)',
  );
};
