import type { TestProject } from 'vitest/node';
import { startEngines, type Engines } from '../../infra/local/engines';
import { ensureQueues, ensureTable } from '../../infra/local/provision';
import { queueDefinitions } from '../../shared/queues';

declare module 'vitest' {
  export interface ProvidedContext {
    engines: { webhookQueueUrl: string; scanQueueUrl: string; dynamodbEndpoint: string; sqsEndpoint: string; sesEndpoint: string; tableName: string };
  }
}

/**
 * Starts the real engines once for the whole run, in memory on free ports, so `npm test` also
 * runs beside a running `npm start`.
 */
let engines: Engines | undefined;
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

export default async function setup(project: TestProject) {
  engines = await startEngines();
  const tableName = 'consent-service-test';
  await ensureTable(engines.dynamodbEndpoint, tableName);
  const queues = await ensureQueues(engines.sqsEndpoint);
  project.provide('engines', {
    webhookQueueUrl: queues[queueDefinitions.webhookDeliveries.name]!,
    scanQueueUrl: queues[queueDefinitions.trackerScans.name]!,
    dynamodbEndpoint: engines.dynamodbEndpoint,
    sqsEndpoint: engines.sqsEndpoint,
    sesEndpoint: engines.sesEndpoint,
    tableName,
  });
  return async () => {
    await engines?.stop();
  };
}
