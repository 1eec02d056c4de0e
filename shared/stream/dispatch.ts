import { describeError, log } from '../log';
import { emitMetrics, metricNames } from '../metrics';
import { tenantOfChange, type StreamChange } from './change';
import type { StreamConsumer } from './consumer';

const typeOf = (change: StreamChange): unknown => (change.newImage ?? change.oldImage)?.type;

/** Changes by tenant, each tenant's in stream order (items of no tenant together, under undefined). */
const byTenant = (changes: StreamChange[]): Map<string | undefined, StreamChange[]> => {
  const groups = new Map<string | undefined, StreamChange[]>();
  for (const change of changes) {
    const tenantId = tenantOfChange(change);
    groups.set(tenantId, [...(groups.get(tenantId) ?? []), change]);
  }
  return groups;
};

/** One tenant's changes for one consumer: on failure, parked (and alerted on) if the consumer can, else the failure stands. */
const handleTenant = async (consumer: StreamConsumer, tenantId: string | undefined, changes: StreamChange[]): Promise<void> => {
  try {
    await consumer.handle(changes);
  } catch (error) {
    if (!consumer.park || tenantId === undefined) throw error;
    log.error('stream consumer failed for one tenant; its changes are parked and retried apart', { consumer: consumer.name, tenantId, changes: changes.length, ...describeError(error) });
    emitMetrics({ [metricNames.streamTenantFailures]: 1 }, { consumer: consumer.name, tenantId });
    await consumer.park(tenantId, changes, error);
  }
};

/**
 * Gives each consumer its share of `changes` (the composition roots pass the registry:
 * functions/stream/consumers.ts), the consumers side by side and, within one, the
 * tenants side by side. A tenant's failure is parked by its consumer; any other failure does not
 * stop the rest either, but once all have finished the first is thrown, so the whole batch is
 * retried (every consumer is idempotent).
 */
export const dispatchChanges = async (changes: StreamChange[], consumers: readonly StreamConsumer[]): Promise<void> => {
  const outcomes = await Promise.allSettled(
    consumers.map(async (consumer) => {
      const mine = changes.filter((change) => consumer.eventNames.includes(change.eventName) && consumer.itemTypes.includes(String(typeOf(change))));
      const tenants = await Promise.allSettled([...byTenant(mine)].map(([tenantId, group]) => handleTenant(consumer, tenantId, group)));
      const failure = tenants.find((outcome) => outcome.status === 'rejected');
      if (failure) throw failure.reason;
    }),
  );
  const failed = outcomes.flatMap((outcome, index) => (outcome.status === 'rejected' ? [{ consumer: consumers[index]!.name, reason: outcome.reason as unknown }] : []));
  if (failed.length === 0) return;
  const [first] = failed;
  throw new Error(`stream consumer${failed.length > 1 ? 's' : ''} failed: ${failed.map((failure) => failure.consumer).join(', ')}`, { cause: first!.reason });
};
