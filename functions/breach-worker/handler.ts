import { processIntimationMessage, type IntimationMessage } from '../../shared/breaches/worker';
import { batchHandler } from '../../shared/queue/batch-handler';

/**
 * SQS trigger of the breach-intimations queue: one resolution page or one batch of principals per
 * message, failures reported per message (each step is idempotent, so a redelivery is safe). One
 * message after another: a batch already works its principals side by side.
 */
export const handler = batchHandler<IntimationMessage>('breach intimation', processIntimationMessage, { inParallel: false });
