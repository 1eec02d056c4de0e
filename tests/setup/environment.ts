import { inject } from 'vitest';

/**
 * Points every client at the engines of this run. Connected tests refuse any endpoint that is
 * not on this machine: they must never touch a real AWS account.
 */
const engines = inject('engines');
for (const endpoint of [engines.dynamodbEndpoint, engines.sqsEndpoint, engines.sesEndpoint, engines.s3Endpoint, new URL(engines.printerUrl).origin]) {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(endpoint)) throw new Error(`Refusing to test against ${endpoint}`);
}
Object.assign(process.env, {
  CMS_STAGE: 'local',
  CMS_LOG_SILENT: '1',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  CMS_TRUST_FORWARDED_FOR: '1',
  DYNAMODB_ENDPOINT: engines.dynamodbEndpoint,
  SQS_ENDPOINT: engines.sqsEndpoint,
  SES_ENDPOINT: engines.sesEndpoint,
  // The write-once checkpoint archive (infra/local/archive-store.ts).
  S3_ENDPOINT: engines.s3Endpoint,
  CMS_KEY_DIR: engines.keyDir,
  CHECKPOINT_INTERVAL_SECONDS: '1',
  TABLE_NAME: engines.tableName,
  WEBHOOK_QUEUE_URL: engines.webhookQueueUrl,
  SCAN_QUEUE_URL: engines.scanQueueUrl,
  DOCUMENT_PRINTER_URL: engines.printerUrl,
  AWS_REGION: 'ap-south-1',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
});
for (const name of ['AWS_SESSION_TOKEN', 'AWS_PROFILE']) delete process.env[name];

// A tracker-scan queue, a webhook delivery queue and a breach-intimation queue of this test file's own: other files start
// local workers, and a worker polling a shared queue would run (and take away) the scans this file
// queues and inspects, or deliver its webhooks with that file's retry and timeout settings.
const { CreateQueueCommand } = await import('@aws-sdk/client-sqs');
const { sqs } = await import('../../infra/local/sqs');
const ownQueue = async (name: string) => (await sqs().send(new CreateQueueCommand({ QueueName: `${name}-${Math.random().toString(36).slice(2)}` }))).QueueUrl;
process.env.SCAN_QUEUE_URL = await ownQueue('tracker-scans');
process.env.WEBHOOK_QUEUE_URL = await ownQueue('webhook-deliveries');
process.env.BREACH_QUEUE_URL = await ownQueue('breach-intimations');
