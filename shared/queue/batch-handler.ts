import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describeError, log } from '../log';

/**
 * An SQS-triggered Lambda's handler: each message's body handed to `process`, a failure logged and
 * reported for that message alone (partial batch responses), so SQS redelivers it and only it.
 * `inParallel` works a batch's messages side by side; otherwise one after another.
 */
export const batchHandler =
  <M>(what: string, process: (message: M) => Promise<void>, options: { inParallel: boolean }) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    const work = async (record: SQSEvent['Records'][number]) => {
      try {
        await process(JSON.parse(record.body) as M);
      } catch (error) {
        log.error(`${what} message failed; SQS will redeliver it`, { messageId: record.messageId, ...describeError(error) });
        failures.push({ itemIdentifier: record.messageId });
      }
    };
    if (options.inParallel) await Promise.all(event.Records.map(work));
    else for (const record of event.Records) await work(record);
    return { batchItemFailures: failures };
  };
