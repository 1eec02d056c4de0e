import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWK, type JWTVerifyGetKey } from 'jose';
import { clock } from '../clock';
import { secretConfig } from '../config';
import { TokenInvalidError } from '../errors';
import { localSigner, publishedJwks } from '../evidence/signer';
import { roles, type Role } from '../roles';

/** The claims a dashboard access token carries. */
export interface AccessClaims {
  tenantId: string;
  userId: string;
  role: Role;
}

/**
 * Dashboard access tokens are JWTs (RFC 9068's `at+jwt`) signed with an asymmetric key that only
 * the auth function can use (./access-token-signer.ts): an AWS KMS key (ES256) in AWS, a key file
 * (Ed25519, EdDSA) locally. Every function verifies them here, through jose, with public keys found
 * by `kid`: in AWS those the stack read from KMS at deploy and put in TOKEN_PUBLIC_KEYS (a JWKS;
 * infra/token-keys.ts), so a verifying function neither bundles the KMS client nor calls KMS;
 * locally the public halves of the key files in TOKEN_VERIFY_KEYS. Rotation adds a key to that set
 * before it signs and removes the old one once its tokens have expired (docs/deploying.md).
 */
export const tokenType = 'at+jwt';
/** What a token key's kid starts with (shared/evidence/signer.ts keyIdOf). */
export const tokenKeyName = 'access-token';
const algorithms = ['ES256', 'EdDSA'];
/** Seconds a token's exp, nbf and iat may be off against this machine's clock. */
export const clockToleranceSeconds = 5;

export const isKmsKey = (reference: string): boolean => reference.startsWith('arn:');

/** A value per reference (a key file, a KMS key, a key set), made once per warm instance; a failed one is made again next time. */
export const cached = <T>(kept: Map<string, Promise<T>>, reference: string, load: () => Promise<T>): Promise<T> => {
  let value = kept.get(reference);
  if (!value) {
    value = load();
    kept.set(reference, value);
    value.catch(() => kept.delete(reference));
  }
  return value;
};

/** A key file's public half (the file is made on first use, as the signing side would). */
const publicJwkOfFile = async (file: string): Promise<JWK> => {
  if (isKmsKey(file)) throw new Error(`TOKEN_VERIFY_KEYS names the KMS key ${file}: a verifying function is given KMS keys' public halves at deploy, in TOKEN_PUBLIC_KEYS`);
  return (await localSigner(file, tokenKeyName)).publicJwk as JWK;
};

const keySets = new Map<string, Promise<JWTVerifyGetKey>>();
const verificationKeys = (): Promise<JWTVerifyGetKey> => {
  const published = secretConfig.tokenPublicKeys;
  if (published !== undefined) return cached(keySets, published, async () => createLocalJWKSet(publishedJwks('TOKEN_PUBLIC_KEYS', published, algorithms) as JSONWebKeySet));
  const files = secretConfig.tokenVerifyKeys;
  return cached(keySets, files.join(','), async () => createLocalJWKSet({ keys: await Promise.all(files.map(publicJwkOfFile)) }));
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
