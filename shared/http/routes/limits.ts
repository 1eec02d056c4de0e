import type { RouteLimit } from '../route';

/** The SDK endpoints' counters: per key (the stricter of the spec's two per-key limits) and per (key, IP). */
export const sdkLimits = [
  { limit: 'sdkPerKey', per: 'key', code: 'SDK_RATE_LIMIT' },
  { limit: 'sdkPerKeyIp', per: 'keyIp', code: 'SDK_RATE_LIMIT' },
] as const satisfies readonly RouteLimit[];

/** withdraw-public's: per IP, then the SDK's. Named here, not spread in the route: a route holding a spread is kept in every bundle that imports its module (shared/http/route.ts, prose). */
export const withdrawPublicLimits = [{ limit: 'withdrawPublicPerIp', per: 'ip', code: 'RATE_LIMIT' }, ...sdkLimits] as const satisfies readonly RouteLimit[];
