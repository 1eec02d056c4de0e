import { randomUUID } from 'node:crypto';
import { clock } from '../clock';
import { secretConfig } from '../config';
import { signCompactJws } from '../evidence/jws';
import { kmsSigner } from '../evidence/kms-signer';
import { localSigner, type Signer } from '../evidence/signer';
import { cached, isKmsKey, tokenKeyName, tokenType, type AccessClaims } from './jwt';

/**
 * Signing access tokens, which only the auth function does (its role alone may use the KMS key):
 * apart from the verifying side (./jwt.ts), so that only auth's bundle carries the KMS client.
 */
const signers = new Map<string, Promise<Signer>>();

const signerOf = (reference: string): Promise<Signer> =>
  cached(signers, reference, () => (isKmsKey(reference) ? kmsSigner(reference, tokenKeyName) : localSigner(reference, tokenKeyName)));

export const signAccessToken = async (claims: AccessClaims): Promise<string> => {
  const issuedAt = Math.floor(clock.now().getTime() / 1000);
  return signCompactJws(
    tokenType,
    {
      iss: secretConfig.jwtIssuer,
      sub: claims.userId,
      aud: secretConfig.jwtAudience,
      tid: claims.tenantId,
      role: claims.role,
      iat: issuedAt,
      exp: issuedAt + secretConfig.accessTokenTtlSeconds,
      jti: randomUUID(),
    },
    await signerOf(secretConfig.tokenSigningKey),
  );
};
