import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { dispatchOutboxItem, type OutboxItem } from '../../shared/events/drain';

/**
 * DynamoDB Streams trigger (filtered to new outbox items): hands each one on. A failure is
 * reported per record so the stream retries from it, and nothing after it is lost.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    if (!image) continue;
    try {
      await dispatchOutboxItem(unmarshall(image as Record<string, AttributeValue>) as OutboxItem);
    } catch {
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
};
