import { createHash } from 'node:crypto';
import { AwsError } from '../aws/errors';
import { JsonClient } from '../aws/json-service';
import { endpointOf } from '../aws/request';
import { config } from '../config';

/** SQS over its JSON protocol (the SDK's too), at the regional endpoint (the queue is named by its URL in the body). */
export const queueClient = /* @__PURE__ */ new JsonClient({ endpoint: () => endpointOf('sqs', config.sqsEndpoint), targetPrefix: 'AmazonSQS', version: '1.0' });

export interface SendMessageInput {
  QueueUrl: string;
  MessageBody: string;
  DelaySeconds: number;
}

export const buildSend = (queueUrl: string, body: unknown, delaySeconds = 0): SendMessageInput => ({
  QueueUrl: queueUrl,
  MessageBody: JSON.stringify(body),
  // SQS caps a message's delay at 15 minutes; longer waits are re-enqueued in steps by the worker.
  DelaySeconds: Math.min(900, Math.max(0, Math.floor(delaySeconds))),
});

export const sendToQueue = async (queueUrl: string, body: unknown, delaySeconds = 0): Promise<void> => {
  const input = buildSend(queueUrl, body, delaySeconds);
  const { MD5OfMessageBody } = await queueClient.call<{ MD5OfMessageBody?: string }>('SendMessage', { ...input });
  // The check the SDK makes: what SQS stored is what was sent.
  const sent = createHash('md5').update(input.MessageBody, 'utf8').digest('hex');
  if (MD5OfMessageBody !== undefined && MD5OfMessageBody !== sent) throw new AwsError('InvalidChecksum', `SQS stored a message body other than the one sent to ${queueUrl}`, undefined);
};
