import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConfiguredRetryStrategy } from '@smithy/core/retry';
import { onTestFinished } from 'vitest';
import { localCredentials } from '../../shared/aws/credentials';
import { startReceiver, type Answer } from './receiver';

/** An answer as DynamoDB gives one: a JSON body (or any text) in its content type. */
export const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers: { 'content-type': 'application/x-amz-json-1.0', ...headers },
});

export interface Sent {
  target: string | undefined;
  contentType: string | undefined;
  body: Record<string, unknown>;
}

/**
 * A fake DynamoDB on 127.0.0.1 for offline unit tests: answers with `script` in order (its last
 * answer again once played out), keeps what it was sent, and closes when the test ends.
 */
export const fakeDynamoDB = async (...script: Answer[]) => {
  const receiver = await startReceiver((_request, index) => script[Math.min(index, script.length - 1)]!);
  onTestFinished(receiver.close);
  return {
    endpoint: new URL(receiver.url).origin,
    sent: (): Sent[] =>
      receiver.received.map(({ headers, rawBody }) => ({
        target: headers['x-amz-target'] as string | undefined,
        contentType: headers['content-type'],
        body: JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>,
      })),
  };
};

/**
 * The reference: the SDK's clients as shared/db/client.ts configured them before replacing them
 * (lib-dynamodb dropping undefined members), sending to `endpoint`. They make at most `attempts`
 * attempts, without waiting between them (left alone, the installed SDK makes up to 4 for DynamoDB,
 * after full-jitter waits on a 25 ms base).
 */
export const sdkClients = (endpoint: string, attempts = 1) => {
  const client = new DynamoDBClient({ region: 'ap-south-1', endpoint, credentials: localCredentials, retryStrategy: new ConfiguredRetryStrategy(attempts, 0) });
  onTestFinished(() => client.destroy());
  return { client, document: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }) };
};
