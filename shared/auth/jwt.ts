import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, errors, jwtVerify, type JWK, type JWTVerifyGetKey } from 'jose';
import { clock } from '../clock';
import { secretConfig } from '../config';
import { TokenInvalidError } from '../errors';
import { signCompactJws } from '../evidence/jws';
import { kmsPublicKey, kmsSigner, localSigner, type Signer } from '../evidence/signer';
import { roles, type Role } from '../roles';

/** The claims a dashboard access token carries. */
export interface AccessClaims {
  tenantId: string;
  userId: string;
  role: Role;
}

/**
 * Dashboard access tokens are JWTs (RFC 9068's `at+jwt`) signed with an asymmetric key that only
 * the auth function can use: an AWS KMS key (ES256) in AWS, a key file (Ed25519, EdDSA) locally.
 * Every function verifies them with the public keys of secretConfig.tokenVerifyKeys, found by `kid`,
 * through jose. Rotation adds a key to that list before it signs and removes the old one once its
 * tokens have expired (docs/deploying.md).
 */
const tokenType = 'at+jwt';
const keyName = 'access-token';
const algorithms = ['ES256', 'EdDSA'];
/** Seconds a token's exp, nbf and iat may be off against this machine's clock. */
export const clockToleranceSeconds = 5;

const isKmsKey = (reference: string): boolean => reference.startsWith('arn:');

/** Keys by reference (a KMS key ARN or a key file), read once per warm instance. */
const cached = <T>(kept: Map<string, Promise<T>>, reference: string, load: () => Promise<T>): Promise<T> => {
  let value = kept.get(reference);
  if (!value) {
    value = load();
    kept.set(reference, value);
    value.catch(() => kept.delete(reference));
  }
  return value;
};

const signers = new Map<string, Promise<Signer>>();
const publicKeys = new Map<string, Promise<JWK>>();

const signerOf = (reference: string): Promise<Signer> =>
  cached(signers, reference, () => (isKmsKey(reference) ? kmsSigner(reference, keyName) : localSigner(reference, keyName)));

/** A verifying function reads only public keys: kms:GetPublicKey in AWS, never kms:Sign. */
const publicJwkOf = (reference: string): Promise<JWK> =>
  cached(publicKeys, reference, async () => (isKmsKey(reference) ? await kmsPublicKey(reference, keyName) : await localSigner(reference, keyName)).publicJwk as JWK);

const keySets = new Map<string, Promise<JWTVerifyGetKey>>();
const verificationKeys = (): Promise<JWTVerifyGetKey> => {
  const references = secretConfig.tokenVerifyKeys;
  return cached(keySets, references.join(','), async () => createLocalJWKSet({ keys: await Promise.all(references.map(publicJwkOf)) }));
};

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

/**
 * The claims of a token this service issued and that is valid now; anything else (another key, an
 * algorithm other than ES256 or EdDSA, `none` or HS256 among them, another `typ`, issuer or
 * audience, expired or not yet valid) is 401 TOKEN_INVALID. A failure to read the keys themselves
 * is the service's fault, not the token's, and is thrown as it is.
 */
export const verifyAccessToken = async (token: string): Promise<AccessClaims> => {
  const keys = await verificationKeys();
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, keys, {
      algorithms,
      typ: tokenType,
      issuer: secretConfig.jwtIssuer,
      audience: secretConfig.jwtAudience,
      requiredClaims: ['exp', 'iat', 'sub'],
      clockTolerance: clockToleranceSeconds,
      currentDate: clock.now(),
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new TokenInvalidError('Access token has expired; refresh it');
    if (error instanceof errors.JWKSNoMatchingKey) throw new TokenInvalidError('Access token was signed with an unknown key');
    throw new TokenInvalidError('Access token is invalid');
  }
  const role = payload.role as Role;
  if (typeof payload.tid !== 'string' || typeof payload.sub !== 'string' || !roles.includes(role)) {
    throw new TokenInvalidError('Access token is missing its tenant, user or role');
  }
  return { tenantId: payload.tid, userId: payload.sub, role };
};
