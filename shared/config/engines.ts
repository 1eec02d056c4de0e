import { env, intFromEnv, isLocal, localOrTest, stage } from './env';

/**
 * Where the function runs and what it talks to: the stage, the table, the region, the function's
 * timeout and the AWS calls' fitted inside it, the engines' endpoints and queues, and the service's
 * own public pages.
 */
export const engineConfig = {
  get stage(): string {
    return stage();
  },
  get isLocal(): boolean {
    return isLocal();
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
    return Math.max(1, intFromEnv('CMS_FUNCTION_TIMEOUT_SECONDS', localOrTest() ? 60 : 15));
  },
  /**
   * Timeouts of every AWS call (shared/aws/clients.ts): a connection must open within a second, and
   * each attempt answer within its share of 80% of the function's timeout, so three attempts and
   * the pauses between them end before the function does (15 s: 1 s to connect, 3 s to answer),
   * but never more than 15 s: a long-running function (the sweeper's 4 minutes) does not wait
   * over a minute on one stuck call.
   */
  get awsTimeouts(): { connectionMs: number; requestMs: number } {
    const connectionMs = 1000;
    return { connectionMs, requestMs: Math.max(1000, Math.min(15_000, Math.floor((engineConfig.functionTimeoutSeconds * 1000 * 0.8) / 3) - connectionMs)) };
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
  /** S3 endpoint of the local stack (fauxqs serves S3 beside SQS); unset in AWS. */
  get s3Endpoint(): string | undefined {
    return env('S3_ENDPOINT');
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
   * Base URL of the withdrawal portal page that withdrawal tokens link to. Its presence counts
   * as the "withdrawal route" of the publish gate for notices without their own withdrawalUrl.
   */
  get portalBaseUrl(): string | undefined {
    return env('PORTAL_BASE_URL') ?? (isLocal() ? 'http://127.0.0.1:3000/portal' : undefined);
  },
  /**
   * Base URL of the dashboard: an invited user's mailed set-password link opens
   * `<base>/set-password#token=…` there.
   */
  get dashboardBaseUrl(): string | undefined {
    return env('DASHBOARD_BASE_URL') ?? (isLocal() ? 'http://127.0.0.1:3000/dashboard' : undefined);
  },
  /**
   * The one JWKS address the local stack may fetch on a loopback host, as `host:port` (a test's or
   * a developer's stand-in for a virtual-token issuer): exactly that host and port, and only when
   * local (CMS_STAGE=local, or under the tests). Unset, every JWKS is fetched under the address
   * policy alone. Ignored in AWS, where no issuer may be private.
   */
  get jwksLocalException(): { host: string; port: string } | undefined {
    const value = env('CHILDREN_JWKS_LOCAL_EXCEPTION');
    if (!value || !localOrTest()) return undefined;
    const at = value.lastIndexOf(':');
    return at > 0 ? { host: value.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: value.slice(at + 1) } : undefined;
  },
};
