import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describeError, log } from '../../shared/log';
import type { DeliveryMessage } from '../../shared/webhooks/fanout';
import { processDeliveryMessage } from '../../shared/webhooks/worker';

/** SQS trigger of the webhook-deliveries queue: one attempt per message, failures reported per message. */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        await processDeliveryMessage(JSON.parse(record.body) as DeliveryMessage);
      } catch (error) {
        log.error('webhook delivery message failed; SQS will redeliver it', { messageId: record.messageId, ...describeError(error) });
        failures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures: failures };
};
