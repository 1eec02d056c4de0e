import { createHmac, timingSafeEqual } from 'node:crypto';
import { clock } from '../clock';
import { config } from '../config';
import { TokenInvalidError } from '../errors';
import { roles, type Role } from '../roles';

/** The claims a dashboard access token carries. */
export interface AccessClaims {
  tenantId: string;
  userId: string;
  role: Role;
}

/**
 * Dashboard access tokens are compact JWS (RFC 7515) JWTs (RFC 7519) with one algorithm, HS256,
 * and keys named by kid. That much is a few lines over node:crypto, so the functions do not bundle
 * a JOSE library (about 15 KB of every HTTP bundle) for it. Verification is strict: exactly three
 * base64url parts, the header's alg must be HS256 (never `none` or another family), no `crit`, the
 * signature compared in constant time before the payload is trusted, then issuer, audience, exp
 * (required, in the future), nbf and iat (numbers when present) and sub.
 */
const algorithm = 'HS256';

const encodePart = (value: object): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
const macOf = (secret: string, signingInput: string): Buffer => createHmac('sha256', secret).update(signingInput).digest();

export const signAccessToken = async (claims: AccessClaims): Promise<string> => {
  const [active] = config.jwtSigningKeys;
  if (!active) throw new Error('No JWT signing key configured');
  const issuedAt = Math.floor(clock.now().getTime() / 1000);
  const signingInput = `${encodePart({ alg: algorithm, kid: active.kid, typ: 'JWT' })}.${encodePart({
    tid: claims.tenantId,
    role: claims.role,
    sub: claims.userId,
    iss: config.jwtIssuer,
    aud: config.jwtAudience,
    iat: issuedAt,
    exp: issuedAt + config.accessTokenTtlSeconds,
  })}`;
  return `${signingInput}.${macOf(active.secret, signingInput).toString('base64url')}`;
};

const base64url = /^[A-Za-z0-9_-]+$/;

/** A JSON object from a base64url part; anything else (an array, a string, bad JSON) is undefined. */
const objectOf = (part: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

const optionalNumber = (value: unknown) => value === undefined || (typeof value === 'number' && Number.isFinite(value));

export const verifyAccessToken = async (token: string): Promise<AccessClaims> => {
  const invalid = (message = 'Access token is invalid') => new TokenInvalidError(message);
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => base64url.test(part))) throw invalid();
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  const header = objectOf(encodedHeader);
  if (!header || header.alg !== algorithm || header.crit !== undefined || typeof header.kid !== 'string') throw invalid();
  const key = config.jwtSigningKeys.find((candidate) => candidate.kid === header.kid);
  if (!key) throw invalid('Access token was signed with an unknown key');
  const expected = macOf(key.secret, `${encodedHeader}.${encodedPayload}`);
  const signature = Buffer.from(encodedSignature, 'base64url');
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw invalid();

  const payload = objectOf(encodedPayload);
  if (!payload) throw invalid();
  const now = Math.floor(clock.now().getTime() / 1000);
  const audience = payload.aud;
  const audienceMatches = Array.isArray(audience) ? audience.includes(config.jwtAudience) : audience === config.jwtAudience;
  if (payload.iss !== config.jwtIssuer || !audienceMatches) throw invalid();
  if (typeof payload.exp !== 'number' || !Number.isFinite(payload.exp) || !optionalNumber(payload.nbf) || !optionalNumber(payload.iat)) throw invalid();
  if (payload.exp <= now) throw invalid('Access token has expired; refresh it');
  if (typeof payload.nbf === 'number' && payload.nbf > now) throw invalid();
  const role = payload.role as Role;
  if (typeof payload.tid !== 'string' || typeof payload.sub !== 'string' || !roles.includes(role)) {
    throw invalid('Access token is missing its tenant, user or role');
  }
  return { tenantId: payload.tid, userId: payload.sub, role };
};
