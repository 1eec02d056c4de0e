import { intFromEnv } from './env';

/**
 * What a tenant, a user or a visitor may do, and how fast: the rate limits, the monthly volume,
 * the plan's defaults, the public forms' answer times, and how long a warm instance may use what
 * it read.
 */

export interface RateLimitRule {
  /** Stable name, part of the counter key. */
  name: string;
  limit: number;
  windowSeconds: number;
  /** Sliding-window estimate instead of a fixed window (shared/rate-limit/limiter.ts says when). */
  sliding?: boolean;
  /** A per-address rule: a subject's first requests in a window each warm instance admits from memory alone (limiter.ts). */
  fromMemory?: number;
}

const rule = (name: string, envName: string, limit: number, windowSeconds: number, sliding = false): RateLimitRule => ({
  name,
  limit: intFromEnv(envName, limit),
  windowSeconds,
  ...(sliding ? { sliding } : {}),
});

export const limitConfig = {
  /**
   * How long a warm instance may use what it read of an API key (its revocation, kind and allowed
   * domains), a tenant's published-notice pointer and its consent settings (requireVerifiedIdentity,
   * the live secret keys' identity verifiers) before reading them again: at most 10 seconds, the
   * bound docs/configuration.md states; 0 reads them on every request (shared/instance-cache.ts).
   * What a change is then sure of, in which instance: docs/security.md, When a change applies.
   */
  get instanceCacheSeconds(): number {
    return Math.min(10, intFromEnv('INSTANCE_CACHE_SECONDS', 10));
  },
  /** Most hits of a fixed-window rate limit one warm instance reserves at once (shared/rate-limit/limiter.ts). */
  get rateLimitChunk(): number {
    return Math.max(1, intFromEnv('RATE_LIMIT_CHUNK', 10));
  },
  /**
   * A visitor's first requests in a window that each warm instance admits under a per-address limit
   * (SDK per key and address, cookie web-event per tenant and address) from memory alone: the limit
   * then holds to within this many per warm instance (shared/rate-limit/limiter.ts). 0: exact.
   */
  get rateLimitFromMemory(): number {
    return intFromEnv('RATE_LIMIT_FROM_MEMORY', 3);
  },
  /**
   * Monthly consent volume is taken from tokens each warm instance reserves this many at a time
   * (one conditional write per chunk instead of one per consent). The volume is never exceeded;
   * an instance that stops leaves at most this many unused, so the limit can bite that much early
   * per instance that held a chunk (docs/security.md, request limits).
   */
  get monthlyVolumeChunk(): number {
    return intFromEnv('MONTHLY_VOLUME_CHUNK', 20);
  },
  /**
   * withdraw-public answers no sooner than this after it starts, whether or not the email
   * matched anything, so response time does not tell whether an email has consent on record.
   */
  get withdrawPublicMinMs(): number {
    return intFromEnv('WITHDRAW_PUBLIC_MIN_MS', 600);
  },
  /** The same for the public withdrawal page's link request (POST /consent/portal-link). */
  get portalLinkMinMs(): number {
    return intFromEnv('PORTAL_LINK_MIN_MS', 600);
  },
  /** The same for the public rights request form (POST /rights/requests/public). */
  get rightsIntakeMinMs(): number {
    return intFromEnv('RIGHTS_INTAKE_MIN_MS', 600);
  },
  /**
   * The most of its tenant's bearer limit one user may take, in percent (not in the spec, which
   * counts only per tenant): with the default 60, one VIEWER's script stops at 60 of the 100 a
   * minute and the rest of the team keeps 40. At most 100.
   */
  get bearerUserSharePercent(): number {
    return Math.min(100, Math.max(1, intFromEnv('RATE_LIMIT_BEARER_USER_SHARE_PERCENT', 60)));
  },
  get limits() {
    const bearerPerTenant = rule('bearer-tenant', 'RATE_LIMIT_BEARER_PER_MINUTE', 100, 60);
    const fromMemory = limitConfig.rateLimitFromMemory;
    return {
      bearerPerTenant,
      /** Each user's share of bearerPerTenant, counted first, so requests a user's share refuses never use up the tenant's. */
      bearerPerUser: {
        name: 'bearer-user',
        limit: Math.max(1, Math.floor((bearerPerTenant.limit * limitConfig.bearerUserSharePercent) / 100)),
        windowSeconds: bearerPerTenant.windowSeconds,
      },
      /**
       * The spec gives two per-key limits for SDK endpoints (1,000 general, 5,000 abuse layer)
       * without reconciling them; both apply, so one counter enforces the smaller.
       */
      sdkPerKey: {
        name: 'sdk-key',
        limit: Math.min(
          intFromEnv('RATE_LIMIT_SDK_PER_KEY_PER_MINUTE', 1000),
          intFromEnv('RATE_LIMIT_SDK_ABUSE_PER_KEY_PER_MINUTE', 5000),
        ),
        windowSeconds: 60,
      },
      sdkPerKeyIp: { ...rule('sdk-key-ip', 'RATE_LIMIT_SDK_PER_KEY_IP_PER_MINUTE', 600, 60), fromMemory },
      withdrawPublicPerIp: rule('withdraw-public-ip', 'RATE_LIMIT_WITHDRAW_PUBLIC_PER_HOUR', 5, 3600),
      /** Not in the spec: the public withdrawal page sends mail, so it is held tighter than withdraw-public per IP and also per address. */
      portalLinkPerIp: rule('portal-link-ip', 'RATE_LIMIT_PORTAL_LINK_PER_IP_PER_HOUR', 10, 3600),
      portalLinkPerEmail: rule('portal-link-email', 'RATE_LIMIT_PORTAL_LINK_PER_EMAIL_PER_HOUR', 3, 3600),
      /** The public rights request form mails a confirmation link: per IP, and per (tenant, address) from any IP. */
      rightsIntakePerIp: rule('rights-intake-ip', 'RATE_LIMIT_RIGHTS_INTAKE_PER_IP_PER_HOUR', 5, 3600),
      rightsIntakePerEmail: rule('rights-intake-email', 'RATE_LIMIT_RIGHTS_INTAKE_PER_EMAIL_PER_HOUR', 3, 3600),
      /** Not in the spec: a guardian's decision may fetch an issuer's keys, so the public decision routes are held per IP. */
      guardianDecisionPerIp: rule('guardian-decision-ip', 'RATE_LIMIT_GUARDIAN_DECISION_PER_IP_PER_HOUR', 30, 3600),
      /**
       * Malformed requests (refused by parsing or validation) to a route with limits of its own,
       * per (route, IP): they never spend the route's limits, which count well-formed requests only.
       */
      malformedPerIp: rule('malformed-ip', 'RATE_LIMIT_MALFORMED_PER_IP_PER_HOUR', 60, 3600),
      webEventPerTenantIp: { ...rule('cmp-web-event', 'RATE_LIMIT_CMP_WEB_EVENT_PER_MINUTE', 60, 60), fromMemory },
      consentStatusPerKey: rule('cmp-consent-status', 'RATE_LIMIT_CMP_CONSENT_STATUS_PER_MINUTE', 600, 60),
      /** Not in the spec: server-side tracker logs come from the tenant's servers, often more than page views. */
      serverEventPerKey: rule('cmp-server-event', 'RATE_LIMIT_CMP_SERVER_EVENT_PER_MINUTE', 3000, 60),
      scanNowPerTenant: rule('cmp-scan-now', 'RATE_LIMIT_CMP_SCAN_PER_10_MINUTES', 1, 600),
      draftAllPerTenant: rule('cmp-draft-all', 'RATE_LIMIT_CMP_DRAFT_ALL_PER_DAY', 3, 86400),
      /** Login limits slide, so a burst across a window edge cannot pass twice the limit. */
      loginPerIp: rule('login-ip', 'RATE_LIMIT_LOGIN_PER_IP_PER_MINUTE', 20, 60, true),
      /**
       * Failed logins per account (any IP), keyed by a hash of the normalised email whether or not
       * it exists. Reaching it locks the account, right password included, until it slides back.
       */
      loginFailuresPerAccount: rule('login-account', 'RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT_PER_15_MINUTES', 10, 900, true),
    };
  },
  get defaultPlanLimits() {
    return {
      monthlyConsentLimit: intFromEnv('DEFAULT_MONTHLY_CONSENT_LIMIT', 100_000),
      webhooks: intFromEnv('DEFAULT_WEBHOOK_LIMIT', 10),
      notices: intFromEnv('DEFAULT_NOTICE_LIMIT', 50),
      teamMembers: intFromEnv('DEFAULT_TEAM_MEMBER_LIMIT', 25),
    };
  },
};
