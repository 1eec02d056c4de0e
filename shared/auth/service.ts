import { limitConfig, secretConfig } from '../config';
import { decoyPasswordHash, verifyPassword } from '../crypto/password';
import { sha256Hex } from '../crypto/hash';
import { UnauthorizedError } from '../errors';
import { consumeRateLimit } from '../rate-limit/limiter';
import { normaliseEmail } from '../users/keys';
import { getTenant } from '../tenants/store';
import { defaultTimeZone } from '../time/format';
import { findLogin, getUser } from '../users/store';
import { signAccessToken } from './access-token-signer';
import type { AccessClaims } from './jwt';
import { endSession, issueRefreshToken, rotateRefreshToken } from './refresh-tokens';

const invalidCredentials = () => new UnauthorizedError('Invalid email or password');

const tokensFor = async (user: AccessClaims, refreshToken: string) => {
  const [token, tenant] = await Promise.all([signAccessToken({ tenantId: user.tenantId, userId: user.userId, role: user.role }), getTenant(user.tenantId)]);
  return { token, refreshToken, expiresIn: secretConfig.accessTokenTtlSeconds, tenant: { name: tenant?.name ?? '', timeZone: tenant?.timeZone ?? defaultTimeZone } };
};

/**
 * Unknown email and wrong password answer alike and cost the same scrypt verification,
 * so neither the body nor the timing tells whether an account exists.
 * Every attempt is counted against the account before the password is checked (so parallel
 * guesses cannot overtake the count) and taken back when it succeeds: the count is failures.
 * Unknown emails are counted the same way, under a hash that names no account.
 */
export const login = async (email: string, password: string) => {
  const attempt = await consumeRateLimit(limitConfig.limits.loginFailuresPerAccount, sha256Hex(normaliseEmail(email)), 'RATE_LIMIT');
  const identity = await findLogin(email);
  const user = identity ? await getUser(identity.tenantId, identity.userId) : undefined;
  const passwordOk = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash()));
  if (!user || !passwordOk) throw invalidCredentials();
  await attempt.release();
  return tokensFor(user, await issueRefreshToken(user.tenantId, user.userId));
};

export const refresh = async (refreshToken: string) => {
  const { session, nextToken } = await rotateRefreshToken(refreshToken);
  const user = await getUser(session.tenantId, session.userId);
  if (!user) throw new UnauthorizedError('The account of this session no longer exists');
  return tokensFor(user, nextToken);
};

export const logout = async (refreshToken: string) => {
  await endSession(refreshToken);
  return { signedOut: true as const };
};
