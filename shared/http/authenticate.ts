import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { authenticateApiKey, type AuthenticatedKey } from '../api-keys/service';
import { verifyAccessToken, type AccessClaims } from '../auth/jwt';
import { checkKeyUse } from '../auth/origin';
import { limitConfig } from '../config';
import { ForbiddenError, TokenInvalidError, UnauthorizedError } from '../errors';
import { consumeRateLimit } from '../rate-limit/limiter';
import { currentRoleChecked, rolesFor, type Role } from '../roles';
import { getUser } from '../users/store';
import type { RequestMeta } from './operation';
import { routeKeyOf, type LimitSubject, type RouteDefinition, type RouteLimit } from './route';

const bearerToken = (header: string | undefined): string => {
  if (!header) throw new UnauthorizedError('Authorization header is missing');
  // The scheme name is case-insensitive (RFC 9110 §11.1).
  const match = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i.exec(header.trim());
  if (!match?.[1]) throw new UnauthorizedError('Authorization header must be "Bearer <token>"');
  return match[1];
};

const apiKeyOf = (route: RouteDefinition & { auth: { kind: 'apiKey' } }, event: APIGatewayProxyEventV2): string | undefined => {
  switch (route.auth.in) {
    case 'header':
      return event.headers?.['x-api-key'];
    case 'query':
      return event.queryStringParameters?.apiKey;
    case 'body': {
      const body = event.body as unknown;
      const value = typeof body === 'object' && body !== null ? (body as { apiKey?: unknown }).apiKey : undefined;
      return typeof value === 'string' ? value : undefined;
    }
  }
};

export type Caller = AccessClaims | AuthenticatedKey | undefined;

const subjectOf = (per: LimitSubject, caller: Caller, meta: RequestMeta, event: APIGatewayProxyEventV2): string => {
  const keyId = caller && 'keyId' in caller ? caller.keyId : 'none';
  switch (per) {
    case 'ip':
      return meta.ip;
    case 'key':
      return keyId;
    case 'keyIp':
      return `${keyId}#${meta.ip}`;
    case 'tenant':
      return caller?.tenantId ?? 'none';
    case 'user':
      return caller && 'userId' in caller ? `${caller.tenantId}#${caller.userId}` : 'none';
    case 'tenantIp': {
      const body = event.body as unknown as { tenantId?: unknown } | null;
      return `${caller?.tenantId ?? String(body?.tenantId ?? 'none')}#${meta.ip}`;
    }
  }
};

const refusedRole = (allowed: readonly Role[]) => new ForbiddenError(`This action needs one of the roles ${allowed.join(', ')}`);

/**
 * The caller as the team stands now (shared/roles.ts currentRoleChecked says for which routes):
 * a user removed since its token was issued is 401 TOKEN_INVALID, a role lowered since is 403.
 */
const currentMember = async (claims: AccessClaims, allowed: readonly Role[]): Promise<AccessClaims> => {
  const user = await getUser(claims.tenantId, claims.userId, { consistent: true });
  if (!user) throw new TokenInvalidError('The account of this access token is no longer on the team');
  if (!allowed.includes(user.role)) throw refusedRole(allowed);
  return { ...claims, role: user.role };
};

/**
 * Every bearer request counts against its user's share first, then its tenant's limit (the
 * spec's 100 a minute): a request the user's share refuses never uses up the tenant's, so one
 * user cannot lock the rest of the team out.
 */
const bearerLimits: readonly RouteLimit[] = [
  { limit: 'bearerPerUser', per: 'user', code: 'RATE_LIMIT' },
  { limit: 'bearerPerTenant', per: 'tenant', code: 'RATE_LIMIT' },
];

/**
 * Authenticates the caller the way the route says, authorises its role, and for a bearer caller
 * counts the request against the user's and the tenant's quota (every request, as the spec's
 * "100 a minute"). The route's own limits are counted once the request is well-formed
 * (countRouteLimits). Returns who is calling.
 */
export const authenticate = async (
  route: RouteDefinition,
  event: APIGatewayProxyEventV2,
  meta: RequestMeta,
): Promise<Caller> => {
  let caller: Caller;
  const auth = route.auth;
  if (auth.kind === 'bearer') {
    const claims = await verifyAccessToken(bearerToken(event.headers?.authorization));
    const allowed = rolesFor(auth.access);
    if (!allowed.includes(claims.role)) throw refusedRole(allowed);
    caller = currentRoleChecked(auth.access) ? await currentMember(claims, allowed) : claims;
  } else if (auth.kind === 'apiKey') {
    // An edge-cached answer is already late by up to its max-age: the key is read now, so a revocation adds no instance's memory to that bound.
    caller = await authenticateApiKey(apiKeyOf({ ...route, auth }, event), { fresh: route.edgeCache !== undefined, check: (key) => checkKeyUse(key, auth, meta) });
  }
  if (auth.kind === 'bearer') await consume(bearerLimits, caller, meta, event);
  return caller;
};

const consume = async (limits: readonly RouteLimit[], caller: Caller, meta: RequestMeta, event: APIGatewayProxyEventV2) => {
  for (const { limit, per, code } of limits) {
    await consumeRateLimit(limitConfig.limits[limit], subjectOf(per, caller, meta, event), code);
  }
};

/**
 * A route's own limits (a public form's 5 an hour, the SDK's per key), counted only for a request
 * that passed validation: a malformed body never spends what a person's real request needs (five
 * malformed posts once locked an address out of the rights form for an hour). Malformed requests
 * count against a bound of their own instead (countMalformed).
 */
export const countRouteLimits = (route: RouteDefinition, caller: Caller, meta: RequestMeta, event: APIGatewayProxyEventV2): Promise<void> =>
  consume(route.limits ?? [], caller, meta, event);

/**
 * A malformed request (unparsable JSON, or a body, query or path validation refuses) to a route
 * with limits of its own counts against RATE_LIMIT_MALFORMED_PER_IP_PER_HOUR per (route, IP),
 * answered with the route's own limit code once past it: malformed traffic stays bounded, apart
 * from what well-formed requests may spend.
 */
export const countMalformed = async (route: RouteDefinition, meta: RequestMeta): Promise<void> => {
  const first = route.limits?.[0];
  if (first) await consumeRateLimit(limitConfig.limits.malformedPerIp, `${routeKeyOf(route)}#${meta.ip}`, first.code);
};
