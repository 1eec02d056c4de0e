import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEngines, type Engines } from '../../infra/local/engines';
import { startPrinter } from '../../infra/local/printer';
import { ensureQueues, ensureTable } from '../../infra/local/provision';
import { queueDefinitions } from '../../shared/queues';

declare module 'vitest' {
  export interface ProvidedContext {
    engines: { webhookQueueUrl: string; scanQueueUrl: string; dynamodbEndpoint: string; sqsEndpoint: string; sesEndpoint: string; s3Endpoint: string; tableName: string; keyDir: string; streamBoardDir: string; printerUrl: string };
  }
}

/**
 * Starts the real engines once for the whole run, in memory on free ports, so `npm test` also
 * runs beside a running `npm start`.
 */
let engines: Engines | undefined;
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// The SDK's clients find credentials in the environment, as in Lambda; the engines take any, and
// no real ones of the shell are used (tests/setup/environment.ts sets the same in every worker).
Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
for (const name of ['AWS_SESSION_TOKEN', 'AWS_PROFILE']) delete process.env[name];

/** The table, the queues and the archive's bucket on fresh engines. */
const provision = async (started: Engines, tableName: string) => {
  await ensureTable(started.dynamodbEndpoint, tableName);
  const queues = await ensureQueues(started.sqsEndpoint);
  // The checkpoint archive, in memory (archive.ts reads the endpoint from the config, as the test
  // files do through tests/setup/environment.ts; this process only needs it for this call).
  const previousS3Endpoint = process.env.S3_ENDPOINT;
  process.env.S3_ENDPOINT = started.s3Endpoint;
  const { ensureCheckpointBucket } = await import('../../shared/evidence/archive');
  await ensureCheckpointBucket();
  if (previousS3Endpoint === undefined) delete process.env.S3_ENDPOINT;
  else process.env.S3_ENDPOINT = previousS3Endpoint;
  return queues;
};

export default async function setup(project: TestProject) {
  engines = await startEngines();
  const tableName = 'consent-service-test';
  // vitest runs no teardown for a setup that throws: the engines are stopped here, or DynamoDB
  // Local's JVM outlives the run (one did, for an hour, after the archive's bucket failed).
  const queues = await provision(engines, tableName).catch(async (error: unknown) => {
    await engines?.stop();
    throw error;
  });
  // One directory of signing keys for every test worker: a key file made by one is the key of all.
  const keyDir = mkdtempSync(join(tmpdir(), 'cms-test-keys-'));
  // Where each test process's stream readers say how far they have read (tests/support/stream-board.ts).
  const streamBoardDir = mkdtempSync(join(tmpdir(), 'cms-test-stream-board-'));
  // The document printer (the printed documents, …/pdf), as npm start runs it: Chromium starts with the first document.
  const printer = await startPrinter();
  project.provide('engines', {
    webhookQueueUrl: queues[queueDefinitions.webhookDeliveries.name]!,
    scanQueueUrl: queues[queueDefinitions.trackerScans.name]!,
    dynamodbEndpoint: engines.dynamodbEndpoint,
    sqsEndpoint: engines.sqsEndpoint,
    sesEndpoint: engines.sesEndpoint,
    s3Endpoint: engines.s3Endpoint,
    tableName,
    keyDir,
    streamBoardDir,
    printerUrl: printer.url,
  });
  return async () => {
    await printer.stop();
    await engines?.stop();
    rmSync(keyDir, { recursive: true, force: true });
    rmSync(streamBoardDir, { recursive: true, force: true });
  };
}
