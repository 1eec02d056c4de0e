import { startEngines, type Engines } from '../infra/local/engines';
import { ensureQueues, ensureTable } from '../infra/local/provision';
import { queueDefinitions } from '../shared/queues';

/**
 * The benchmark's own local stack: the project's engines in memory on free ports, the table and
 * queues, and the environment the handlers read. Call before importing anything that uses the
 * clients (they are built on first use, from this environment).
 */
const unthrottled = String(1_000_000_000);

/** The rate limits (shared/config/limits.ts) of every route the bench calls, raised so it measures work, not 429s. */
const rateLimitVariables = [
  'RATE_LIMIT_BEARER_PER_MINUTE',
  'RATE_LIMIT_SDK_PER_KEY_PER_MINUTE',
  'RATE_LIMIT_SDK_ABUSE_PER_KEY_PER_MINUTE',
  'RATE_LIMIT_SDK_PER_KEY_IP_PER_MINUTE',
  'RATE_LIMIT_CMP_WEB_EVENT_PER_MINUTE',
  'RATE_LIMIT_CMP_CONSENT_STATUS_PER_MINUTE',
  'RATE_LIMIT_LOGIN_PER_IP_PER_MINUTE',
];

export interface BenchStack {
  engines: Engines;
  stop(): Promise<void>;
}

export const startBenchStack = async (): Promise<BenchStack> => {
  // Lambda runs Node 22; the SDK's notice about a local Node 20 is noise here.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const engines = await startEngines();
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= engines.stop());
  try {
    const tableName = 'consent-service-bench';
    await ensureTable(engines.dynamodbEndpoint, tableName);
    const queues = await ensureQueues(engines.sqsEndpoint);
    Object.assign(process.env, {
      CMS_STAGE: 'local',
      CMS_LOG_SILENT: '1',
      DYNAMODB_ENDPOINT: engines.dynamodbEndpoint,
      SQS_ENDPOINT: engines.sqsEndpoint,
      SES_ENDPOINT: engines.sesEndpoint,
      // fauxqs serves S3 beside SQS: the archive the stream's checkpoint signing writes to.
      S3_ENDPOINT: engines.sqsEndpoint,
      TABLE_NAME: tableName,
      WEBHOOK_QUEUE_URL: queues[queueDefinitions.webhookDeliveries.name],
      SCAN_QUEUE_URL: queues[queueDefinitions.trackerScans.name],
      BREACH_QUEUE_URL: queues[queueDefinitions.breachIntimations.name],
      AWS_REGION: 'ap-south-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      ...Object.fromEntries(rateLimitVariables.map((name) => [name, unthrottled])),
    });
    const { ensureCheckpointBucket } = await import('../shared/evidence/archive');
    await ensureCheckpointBucket();
    return { engines, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};
