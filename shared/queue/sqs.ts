import { SendMessageCommand, SQSClient, type SendMessageCommandInput } from '@aws-sdk/client-sqs';
import { clientOptions, lazyClient } from '../aws/clients';
import { engineConfig } from '../config';

/**
 * SQS through the SDK's client (which also checks the MD5 SQS reports of the body it stored),
 * made on first send: most requests of a function that may queue never do.
 */
export const queueClient = /* @__PURE__ */ lazyClient('sqs', (endpoint) => new SQSClient(clientOptions(endpoint)), () => engineConfig.sqsEndpoint);

export type SendMessageInput = Required<Pick<SendMessageCommandInput, 'QueueUrl' | 'MessageBody' | 'DelaySeconds'>>;

export const buildSend = (queueUrl: string, body: unknown, delaySeconds = 0): SendMessageInput => ({
  QueueUrl: queueUrl,
  MessageBody: JSON.stringify(body),
  // SQS caps a message's delay at 15 minutes; longer waits are re-enqueued in steps by the worker.
  DelaySeconds: Math.min(900, Math.max(0, Math.floor(delaySeconds))),
});

export const sendToQueue = async (queueUrl: string, body: unknown, delaySeconds = 0): Promise<void> => {
  await (await queueClient()).send(new SendMessageCommand(buildSend(queueUrl, body, delaySeconds)));
};
