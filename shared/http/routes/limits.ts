import type { RouteLimit } from '../route';

/** The SDK endpoints' counters: per key (the stricter of the spec's two per-key limits) and per (key, IP). */
export const sdkLimits = [
  { limit: 'sdkPerKey', per: 'key', code: 'SDK_RATE_LIMIT' },
  { limit: 'sdkPerKeyIp', per: 'keyIp', code: 'SDK_RATE_LIMIT' },
] as const satisfies readonly RouteLimit[];
