import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { describeError, log } from '../../shared/log';
import { changeOf } from '../../shared/stream/change';
import { dispatchChanges } from '../../shared/stream/dispatch';
import { streamConsumers } from './consumers';

/**
 * The table's stream (filtered to the inserts some consumer wants: ./consumers.ts)
 * handed to the consumers. A batch that fails is reported from its first record, so the stream
 * retries all of it and nothing after the failure is lost; the consumers are idempotent, so what
 * had already succeeded does nothing the second time.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const [first] = event.Records;
  if (!first) return { batchItemFailures: [] };
  try {
    await dispatchChanges(event.Records.map(changeOf), streamConsumers);
    return { batchItemFailures: [] };
  } catch (error) {
    log.error('stream batch failed; it will be retried', { records: event.Records.length, ...describeError(error) });
    return { batchItemFailures: [{ itemIdentifier: first.dynamodb?.SequenceNumber ?? '' }] };
  }
};
