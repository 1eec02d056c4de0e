import { sweepOverdueDeliveries } from '../../shared/webhooks/sweeper';

/** Scheduled (every 5 minutes): re-queues webhook deliveries whose queued attempt was lost. */
export const handler = async (): Promise<{ queued: number }> => ({ queued: await sweepOverdueDeliveries() });
