import { kmsPublicKey } from '../evidence/kms-signer';
import { logKeyName } from '../evidence/log-public-keys';
import { jwks, type PublicJwk } from '../evidence/signer';
import { tokenKeyName } from './jwt';

/** Which keys a deploy-time reading is of: each is named as its signer names it, so the kids match. */
export const publicKeyNames = { token: tokenKeyName, log: logKeyName } as const;

/**
 * The public halves of the access-token keys (AWS KMS, ECC_NIST_P256), as the JWKS that every
 * verifying function is given at deploy (TOKEN_PUBLIC_KEYS, shared/auth/jwt.ts): read by the
 * stack's custom resource (functions/token-public-keys), named by the same kid the auth function
 * signs with (kmsSigner), in the order given: the signing key, then a rotation's previous ones.
 * The same reader reads the checkpoint key's public half (named as the checkpoint signer names it)
 * for the log's verification (LOG_PUBLIC_KEYS, shared/evidence/log-public-keys.ts).
 */
export const tokenPublicKeys = async (keyArns: readonly string[], name: string = tokenKeyName): Promise<{ keys: PublicJwk[] }> => {
  if (keyArns.length === 0) throw new Error('at least one key is needed');
  return jwks(await Promise.all(keyArns.map((arn) => kmsPublicKey(arn, name))));
};
