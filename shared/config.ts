import { createHash } from 'node:crypto';

/**
 * The one place that reads the environment. Every tunable has a named default here,
 * and docs/configuration.md lists the same names.
 */

const env = (name: string): string | undefined => {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
};

const intFromEnv = (name: string, fallback: number): number => {
  const raw = env(name);
  if (raw === undefined) return fallback;
  const parsed = Number(raw);
  if (!Number.isInteger(parsed) || parsed < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return parsed;
};

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

/** Read lazily so tests can set the environment before first use. */
export const config = {
  get stage(): string {
    return env('CMS_STAGE') ?? 'aws';
  },
  get isLocal(): boolean {
    return this.stage === 'local';
  },
  get tableName(): string {
    return env('TABLE_NAME') ?? 'consent-service';
  },
  get region(): string {
    return env('AWS_REGION') ?? 'ap-south-1';
  },
  /**
   * The function's own timeout, which the infrastructure sets beside it (infra/functions.ts); the
   * local stack's engines share a loaded machine with everything else, so it allows them a minute.
   */
  get functionTimeoutSeconds(): number {
    return Math.max(1, intFromEnv('CMS_FUNCTION_TIMEOUT_SECONDS', this.isLocal || env('VITEST') !== undefined ? 60 : 15));
  },
  /**
   * Timeouts of every AWS call (shared/aws/clients.ts): a connection must open within a second, and
   * each attempt answer within its share of 80% of the function's timeout, so three attempts and
   * the pauses between them end before the function does (15 s: 1 s to connect, 3 s to answer).
   */
  get awsTimeouts(): { connectionMs: number; requestMs: number } {
    const connectionMs = 1000;
    return { connectionMs, requestMs: Math.max(1000, Math.floor((this.functionTimeoutSeconds * 1000 * 0.8) / 3) - connectionMs) };
  },
  /**
   * What the local stack runs (infra/local/start.ts): each function from its source, or `bundles`,
   * the very bundles a deploy ships, built with the CDK stack's esbuild options.
   */
  get localFunctions(): 'source' | 'bundles' {
    const value = env('CMS_FUNCTIONS') ?? 'source';
    if (value !== 'source' && value !== 'bundles') throw new Error(`CMS_FUNCTIONS must be source or bundles, got "${value}"`);
    return value;
  },
  get dynamodbEndpoint(): string | undefined {
    return env('DYNAMODB_ENDPOINT');
  },
  get sqsEndpoint(): string | undefined {
    return env('SQS_ENDPOINT');
  },
  get sesEndpoint(): string | undefined {
    return env('SES_ENDPOINT');
  },
  /**
   * Base URL of the withdrawal portal page that withdrawal tokens link to. Its presence counts
   * as the "withdrawal route" of the publish gate for notices without their own withdrawalUrl.
   */
  get portalBaseUrl(): string | undefined {
    return env('PORTAL_BASE_URL') ?? (this.isLocal ? 'http://127.0.0.1:3000/portal' : undefined);
  },
  /**
   * The one JWKS address the local stack may fetch on a loopback host, as `host:port` (a test's or
   * a developer's stand-in for a virtual-token issuer): exactly that host and port, and only when
   * local (CMS_STAGE=local, or under the tests). Unset, every JWKS is fetched under the address
   * policy alone. Ignored in AWS, where no issuer may be private.
   */
  get jwksLocalException(): { host: string; port: string } | undefined {
    const value = env('CHILDREN_JWKS_LOCAL_EXCEPTION');
    if (!value || !(this.isLocal || env('VITEST') !== undefined)) return undefined;
    const at = value.lastIndexOf(':');
    return at > 0 ? { host: value.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: value.slice(at + 1) } : undefined;
  },
  /**
   * Base URL of the dashboard: an invited user's mailed set-password link opens
   * `<base>/set-password#token=…` there.
   */
  get dashboardBaseUrl(): string | undefined {
    return env('DASHBOARD_BASE_URL') ?? (this.isLocal ? 'http://127.0.0.1:3000/dashboard' : undefined);
  },
  /**
   * The key that encrypts webhook signing secrets at rest (they must be readable to sign, so
   * they are encrypted rather than hashed), and secret API keys' identity verifiers (shared/api-keys/api-key.ts):
   * SHA-256 of WEBHOOK_SECRET_KEY, a secret of at least 32 characters.
   */
  get webhookSecretKey(): Buffer {
    const raw = env('WEBHOOK_SECRET_KEY');
    if (raw === undefined) {
      if (this.isLocal || env('VITEST') !== undefined) return createHash('sha256').update('local-webhook-secret-key').digest();
      throw new Error('WEBHOOK_SECRET_KEY is required outside the local stack');
    }
    if (raw.length < 32) throw new Error('WEBHOOK_SECRET_KEY must be at least 32 characters');
    return createHash('sha256').update(raw).digest();
  },
  /** Key of the HMAC that authenticates paging cursors (shared/crypto/cursor.ts); at least 32 characters. */
  get cursorSecret(): string {
    const raw = env('CURSOR_SECRET');
    if (raw === undefined) {
      if (this.isLocal || env('VITEST') !== undefined) return 'local-development-cursor-secret-not-for-production';
      throw new Error('CURSOR_SECRET is required outside the local stack');
    }
    if (raw.length < 32) throw new Error('CURSOR_SECRET must be at least 32 characters');
    return raw;
  },
  /** S3 endpoint of the local stack (fauxqs serves S3 beside SQS); unset in AWS. */
  get s3Endpoint(): string | undefined {
    return env('S3_ENDPOINT');
  },
  /**
   * Where signed checkpoints are archived: an S3 bucket with Object Lock in compliance mode in
   * AWS (infra/data.ts), the emulator's bucket of the same name locally.
   */
  get checkpointBucket(): string {
    return env('CHECKPOINT_BUCKET') ?? 'consent-service-checkpoints';
  },
  /** Days an archived checkpoint is locked (compliance mode: nobody, root included, can shorten it). */
  get checkpointRetentionDays(): number {
    return intFromEnv('CHECKPOINT_RETENTION_DAYS', 3650);
  },
  /** The AWS KMS asymmetric key (ECC_NIST_P256) that signs checkpoints; unset locally (a key file signs). */
  get logSigningKeyArn(): string | undefined {
    return env('LOG_SIGNING_KEY_ARN');
  },
  /** The Secrets Manager secret the receipt key (Ed25519) is derived from; unset locally (a key file signs). */
  get receiptKeySecretArn(): string | undefined {
    return env('RECEIPT_KEY_SECRET_ARN');
  },
  /**
   * Who prints documents as PDF (shared/documents/pdf.ts): in AWS the document printer function
   * (the scanner's container image, which has Chromium), by name; locally the stack's printer on a
   * loopback port (infra/local/printer.ts).
   */
  get documentPrinterFunction(): string | undefined {
    return env('DOCUMENT_PRINTER_FUNCTION');
  },
  get documentPrinterUrl(): string | undefined {
    return env('DOCUMENT_PRINTER_URL');
  },
  /**
   * Where the documents function asks for the page it prints (shared/documents/printed.ts): in AWS
   * the function of each group whose documents it prints, by name (JSON, group to function name,
   * set by the stack); locally the local API itself (infra/local/server.ts sets it).
   */
  get documentSourceFunctions(): Readonly<Record<string, string>> {
    const names = env('DOCUMENT_SOURCE_FUNCTIONS');
    return names ? (JSON.parse(names) as Record<string, string>) : {};
  },
  get documentSourceUrl(): string | undefined {
    return env('DOCUMENT_SOURCE_URL');
  },
  /** The local stack's signing key files, created on first use (0600). */
  get localKeyDir(): string {
    return env('CMS_KEY_DIR') ?? `${process.cwd()}/.data/keys`;
  },
  /** A tenant's log is signed at most this often while it grows (the 10 s). */
  get checkpointIntervalSeconds(): number {
    return intFromEnv('CHECKPOINT_INTERVAL_SECONDS', 10);
  },
  /**
   * How long POST /consent/evidence-packs waits, at most, for a signed checkpoint to cover the
   * pack's newest entries (signing one itself once one is due), so that a pack made seconds after
   * a write is normally fully covered; 0 never waits. A few seconds: the evidence function's
   * timeout (15 s) must also hold building the pack.
   */
  get evidencePackWaitSeconds(): number {
    return intFromEnv('EVIDENCE_PACK_WAIT_SECONDS', 5);
  },
  /**
   * Monthly consent volume is taken from tokens each warm instance reserves this many at a time
   * (one conditional write per chunk instead of one per consent). The volume is never exceeded;
   * an instance that stops leaves at most this many unused, so the limit can bite that much early
   * per instance that held a chunk (docs/security.md, request limits).
   */
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
  get monthlyVolumeChunk(): number {
    return intFromEnv('MONTHLY_VOLUME_CHUNK', 20);
  },
  get webhookQueueUrl(): string | undefined {
    return env('WEBHOOK_QUEUE_URL');
  },
  /** The tracker-scan queue scan-now writes to (the scanner worker consumes it). */
  get scanQueueUrl(): string | undefined {
    return env('SCAN_QUEUE_URL');
  },
  /** The breach-intimation queue (shared/breaches/worker.ts): resolution pages and intimation batches. */
  get breachQueueUrl(): string | undefined {
    return env('BREACH_QUEUE_URL');
  },
  /**
   * Principals per intimation batch (and per breach.principals page): one SQS message and one
   * logged document each. 500 by default, the page size; tests lower it to exercise batching.
   */
  get breachBatchSize(): number {
    return Math.min(500, Math.max(1, intFromEnv('BREACH_INTIMATION_BATCH_SIZE', 500)));
  },
  /**
   * Rule 7 says the Board is intimated "without delay" and names no number; a filing later than
   * this many hours after awareAt is recorded as late (docs/breaches.md).
   */
  get breachBoardIntimationLateHours(): number {
    return intFromEnv('BREACH_BOARD_INTIMATION_LATE_HOURS', 6);
  },
  /** An intimation without progress for this long may be resumed by calling it again (its lost messages re-queued). */
  get breachIntimationStallSeconds(): number {
    return intFromEnv('BREACH_INTIMATION_STALL_SECONDS', 300);
  },
  /** Base of the retry schedule: attempt n+1 waits base × 2^(n-1) (the spec's 5 s, 10 s, 20 s, 40 s). */
  get webhookRetryBaseMs(): number {
    return intFromEnv('WEBHOOK_RETRY_BASE_MS', 5000);
  },
  get webhookTimeoutMs(): number {
    return intFromEnv('WEBHOOK_TIMEOUT_MS', 10_000);
  },
  /** Sender of confirmation mails; must be a verified SES identity in AWS. */
  get mailFrom(): string {
    return env('MAIL_FROM') ?? 'no-reply@consent-service.local';
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
  get trustForwardedFor(): boolean {
    return env('CMS_TRUST_FORWARDED_FOR') === '1';
  },
  get accessTokenTtlSeconds(): number {
    return intFromEnv('ACCESS_TOKEN_TTL_SECONDS', 15 * 60);
  },
  get refreshTokenTtlSeconds(): number {
    return intFromEnv('REFRESH_TOKEN_TTL_SECONDS', 30 * 24 * 60 * 60);
  },
  get jwtIssuer(): string {
    return env('JWT_ISSUER') ?? 'consent-service';
  },
  get jwtAudience(): string {
    return env('JWT_AUDIENCE') ?? 'consent-service-dashboard';
  },
  /**
   * The key that signs access tokens, which only the auth function is given: an AWS KMS key
   * (ECC_NIST_P256, ES256) by its ARN in AWS; locally a key file (Ed25519, EdDSA), created on first use.
   */
  get tokenSigningKey(): string {
    const configured = env('TOKEN_SIGNING_KEY');
    if (configured !== undefined) return configured;
    if (this.isLocal || env('VITEST') !== undefined) return `${this.localKeyDir}/token-signing.pem`;
    throw new Error('TOKEN_SIGNING_KEY is required outside the local stack');
  },
  /**
   * The public keys whose access tokens every function accepts, as a JWKS (RFC 7517) in JSON: in
   * AWS the stack reads them from KMS at deploy (a custom resource, infra/token-keys.ts) and gives
   * them to every HTTP function, so none of them loads the KMS client or calls KMS. The signing
   * key's first; during a rotation the previous one's too, until the tokens it signed have expired
   * (docs/deploying.md). When unset, TOKEN_VERIFY_KEYS' key files are read instead.
   */
  get tokenPublicKeys(): string | undefined {
    return env('TOKEN_PUBLIC_KEYS');
  },
  /**
   * Key files (comma separated) whose public halves verify access tokens when TOKEN_PUBLIC_KEYS is
   * not given: the local stack's and the tests'. Locally the signing key file.
   */
  get tokenVerifyKeys(): string[] {
    const configured = env('TOKEN_VERIFY_KEYS');
    if (configured !== undefined) return configured.split(',').map((key) => key.trim()).filter(Boolean);
    if (this.isLocal || env('VITEST') !== undefined) return [this.tokenSigningKey];
    throw new Error('TOKEN_PUBLIC_KEYS is required outside the local stack');
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
    return {
      bearerPerTenant,
      /** Each user's share of bearerPerTenant, counted first, so requests a user's share refuses never use up the tenant's. */
      bearerPerUser: {
        name: 'bearer-user',
        limit: Math.max(1, Math.floor((bearerPerTenant.limit * this.bearerUserSharePercent) / 100)),
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
      sdkPerKeyIp: { ...rule('sdk-key-ip', 'RATE_LIMIT_SDK_PER_KEY_IP_PER_MINUTE', 600, 60), fromMemory: this.rateLimitFromMemory },
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
      webEventPerTenantIp: { ...rule('cmp-web-event', 'RATE_LIMIT_CMP_WEB_EVENT_PER_MINUTE', 60, 60), fromMemory: this.rateLimitFromMemory },
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
  /**
   * When operators are told (infra/alarms.ts in AWS; the local workers log a warning at the same
   * points): the stream's iterator age, the checkpoint lag (seconds the oldest evidence has waited
   * for a signed checkpoint), messages in a dead-letter queue, and tenants with parked log entries.
   */
  get alarmThresholds() {
    return {
      streamIteratorAgeSeconds: intFromEnv('ALARM_STREAM_ITERATOR_AGE_SECONDS', 300),
      checkpointLagSeconds: intFromEnv('ALARM_CHECKPOINT_LAG_SECONDS', 300),
      deadLetterMessages: Math.max(1, intFromEnv('ALARM_DEAD_LETTER_MESSAGES', 1)),
      parkedTenants: Math.max(1, intFromEnv('ALARM_PARKED_TENANTS', 1)),
      /** How often the local workers look (AWS alarms evaluate every minute or five). */
      localCheckSeconds: Math.max(1, intFromEnv('LOCAL_HEALTH_CHECK_SECONDS', 30)),
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

export type Config = typeof config;
