import { SendMessageCommand, SQSClient, type SendMessageCommandInput } from '@aws-sdk/client-sqs';
import { config } from '../config';

let client: SQSClient | undefined;

export const sqs = (): SQSClient =>
  (client ??= new SQSClient({
    region: config.region,
    ...(config.sqsEndpoint ? { endpoint: config.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  }));

export const buildSend = (queueUrl: string, body: unknown, delaySeconds = 0): SendMessageCommandInput => ({
  QueueUrl: queueUrl,
  MessageBody: JSON.stringify(body),
  // SQS caps a message's delay at 15 minutes; longer waits are re-enqueued in steps by the worker.
  DelaySeconds: Math.min(900, Math.max(0, Math.floor(delaySeconds))),
});

export const sendToQueue = async (queueUrl: string, body: unknown, delaySeconds = 0): Promise<void> => {
  await sqs().send(new SendMessageCommand(buildSend(queueUrl, body, delaySeconds)));
};
