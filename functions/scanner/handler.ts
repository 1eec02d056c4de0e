import type { SQSEvent } from 'aws-lambda';
import type { ScanMessage } from '../../shared/scanner/service';
import { runScan } from '../../shared/scanner/worker';

/**
 * The tracker scanner: one scan-now message per invocation (batch size 1), one Chromium at a time.
 * A run's failures end the run FAILED inside runScan; only a crash of the function itself
 * returns the message to the queue, and its redelivery then closes the run as FAILED.
 */
export const handler = async (event: SQSEvent): Promise<void> => {
  for (const record of event.Records) await runScan(JSON.parse(record.body) as ScanMessage);
};
