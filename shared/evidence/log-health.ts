import { clock } from '../clock';
import { emitMetrics, metricNames } from '../metrics';
import { unsignedTenants } from './checkpoint-store';
import { parkedEntryCount, parkedTenants } from './parked';

/**
 * How far the evidence logs are behind, from the two sparse indexes (one query each): tenants
 * whose tree grew since their last checkpoint, and tenants whose entries are parked. The lag is
 * how long the oldest of that evidence has waited for a signed checkpoint; normally under a minute
 * (a checkpoint per tenant at most every CHECKPOINT_INTERVAL_SECONDS, the checkpointer every minute).
 */
export interface LogHealth {
  checkpointLagSeconds: number;
  unsignedTenants: number;
  parked: { tenantId: string; parkedAt: string; reason: string; entries: number }[];
}

export const logHealth = async (now: Date = clock.now()): Promise<LogHealth> => {
  const [unsigned, parked] = await Promise.all([unsignedTenants(), parkedTenants()]);
  const oldest = Math.min(...[...unsigned.map((tenant) => tenant.since), ...parked.map((tenant) => tenant.parkedAt)].map((at) => Date.parse(at)).filter(Number.isFinite));
  return {
    checkpointLagSeconds: Number.isFinite(oldest) ? Math.max(0, Math.round((now.getTime() - oldest) / 1000)) : 0,
    unsignedTenants: unsigned.length,
    parked: await Promise.all(parked.map(async (tenant) => ({ ...tenant, entries: await parkedEntryCount(tenant.tenantId) }))),
  };
};

/** The health as metrics (the checkpointer's every run): what the stack's checkpoint-lag and parked-tenant alarms watch. */
export const reportLogHealth = async (now: Date = clock.now()): Promise<LogHealth> => {
  const health = await logHealth(now);
  emitMetrics(
    { [metricNames.checkpointLag]: health.checkpointLagSeconds, [metricNames.parkedTenants]: health.parked.length },
    { parkedTenantIds: health.parked.map((tenant) => tenant.tenantId).slice(0, 20) },
  );
  return health;
};
