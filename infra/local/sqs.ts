import { SQSClient } from '@aws-sdk/client-sqs';
import { localCredentials } from './credentials';
import { config } from '../../shared/config';

let client: SQSClient | undefined;

/**
 * The SDK's SQS client, for what stands in locally for Lambda's event source mappings (receiving
 * and deleting messages: infra/local/workers.ts) and for tools that look into queues. The functions
 * themselves only send, through shared/queue/sqs.ts.
 */
export const sqs = (): SQSClient =>
  (client ??= new SQSClient({
    region: config.region,
    ...(config.sqsEndpoint ? { endpoint: config.sqsEndpoint, credentials: localCredentials } : {}),
  }));
