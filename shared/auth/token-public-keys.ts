import { kmsPublicKey } from '../evidence/kms-signer';
import { jwks, type PublicJwk } from '../evidence/signer';
import { tokenKeyName } from './jwt';

/**
 * The public halves of the access-token keys (AWS KMS, ECC_NIST_P256), as the JWKS that every
 * verifying function is given at deploy (TOKEN_PUBLIC_KEYS, shared/auth/jwt.ts): read by the
 * stack's custom resource (functions/token-public-keys), named by the same kid the auth function
 * signs with (kmsSigner), in the order given: the signing key, then a rotation's previous ones.
 */
export const tokenPublicKeys = async (keyArns: readonly string[]): Promise<{ keys: PublicJwk[] }> => {
  if (keyArns.length === 0) throw new Error('at least one access-token key is needed');
  return jwks(await Promise.all(keyArns.map((arn) => kmsPublicKey(arn, tokenKeyName))));
};
