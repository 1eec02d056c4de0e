import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { completeWithdrawal } from '../../shared/consent/withdrawal-apply';
import { dispatchOutboxItem, type OutboxItem } from '../../shared/events/drain';

/**
 * DynamoDB Streams trigger (filtered to new outbox items and new withdrawals): hands each outbox
 * item on, and makes sure each withdrawal gets applied to all its records even if the request
 * that committed it died halfway (applying is idempotent, so racing that request is harmless). A failure is
 * reported per record so the stream retries from it, and nothing after it is lost.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    if (!image) continue;
    try {
      const item = unmarshall(image as Record<string, AttributeValue>);
      if (item.type === 'WithdrawalRecord') await completeWithdrawal(String(item.tenantId), String(item.withdrawalId));
      else await dispatchOutboxItem(item as OutboxItem);
    } catch {
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
};
