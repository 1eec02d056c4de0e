import { batchHandler } from '../../shared/queue/batch-handler';
import type { DeliveryMessage } from '../../shared/webhooks/attempt';
import { processDeliveryMessage } from '../../shared/webhooks/worker';

/** SQS trigger of the webhook-deliveries queue: one attempt per message, failures reported per message. */
export const handler = batchHandler<DeliveryMessage>('webhook delivery', processDeliveryMessage, { inParallel: true });
