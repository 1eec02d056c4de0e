import { signDueCheckpoints } from '../../shared/evidence/checkpointer';
import { reportLogHealth } from '../../shared/evidence/log-health';
import { retryParkedLogs } from '../../shared/evidence/parked';
import { log } from '../../shared/log';

/**
 * Scheduled every minute: appends the log entries the stream parked for a tenant, signs (and
 * archives) a checkpoint for every tenant whose log grew, and reports the checkpoint lag and the
 * parked tenants as metrics (the stack's alarms watch them).
 */
export const handler = async (): Promise<{ unparked: number; signed: number; checkpointLagSeconds: number; parkedTenants: number }> => {
  const unparked = await retryParkedLogs();
  const signed = await signDueCheckpoints();
  const health = await reportLogHealth();
  if (signed > 0 || unparked > 0) log.info('checkpoints signed', { signed, unparked });
  return { unparked, signed, checkpointLagSeconds: health.checkpointLagSeconds, parkedTenants: health.parked.length };
};
