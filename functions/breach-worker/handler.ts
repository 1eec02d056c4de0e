import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { processIntimationMessage, type IntimationMessage } from '../../shared/breaches/worker';
import { describeError, log } from '../../shared/log';

/**
 * SQS trigger of the breach-intimations queue: one resolution page or one batch of principals per
 * message, failures reported per message (each step is idempotent, so a redelivery is safe).
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      await processIntimationMessage(JSON.parse(record.body) as IntimationMessage);
    } catch (error) {
      log.error('breach intimation message failed; SQS will redeliver it', { messageId: record.messageId, ...describeError(error) });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
};
