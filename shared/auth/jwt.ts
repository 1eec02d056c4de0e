import { SignJWT, jwtVerify, errors as joseErrors, type JWTHeaderParameters } from 'jose';
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

const algorithm = 'HS256';
const encoder = new TextEncoder();

export const signAccessToken = async (claims: AccessClaims): Promise<string> => {
  const [active] = config.jwtSigningKeys;
  if (!active) throw new Error('No JWT signing key configured');
  const issuedAt = Math.floor(clock.now().getTime() / 1000);
  return new SignJWT({ tid: claims.tenantId, role: claims.role })
    .setProtectedHeader({ alg: algorithm, kid: active.kid, typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(config.jwtIssuer)
    .setAudience(config.jwtAudience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + config.accessTokenTtlSeconds)
    .sign(encoder.encode(active.secret));
};

const keyFor = (header: JWTHeaderParameters): Uint8Array => {
  const match = config.jwtSigningKeys.find((key) => key.kid === header.kid);
  if (!match) throw new TokenInvalidError('Access token was signed with an unknown key');
  return encoder.encode(match.secret);
};

export const verifyAccessToken = async (token: string): Promise<AccessClaims> => {
  try {
    const { payload } = await jwtVerify(token, keyFor, {
      algorithms: [algorithm],
      issuer: config.jwtIssuer,
      audience: config.jwtAudience,
      requiredClaims: ['exp', 'sub'],
      currentDate: clock.now(),
    });
    const role = payload.role as Role;
    if (typeof payload.tid !== 'string' || typeof payload.sub !== 'string' || !roles.includes(role)) {
      throw new TokenInvalidError('Access token is missing its tenant, user or role');
    }
    return { tenantId: payload.tid, userId: payload.sub, role };
  } catch (error) {
    if (error instanceof TokenInvalidError) throw error;
    if (error instanceof joseErrors.JOSEError) {
      throw new TokenInvalidError(
        error instanceof joseErrors.JWTExpired ? 'Access token has expired; refresh it' : 'Access token is invalid',
        error,
      );
    }
    throw error;
  }
};
