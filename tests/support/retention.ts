import { offsetClock, resetClock, setClock } from '../../shared/clock';
import { lastActivityOf } from '../../shared/retention/activity';
import { sweepRetentionDue } from '../../shared/retention/sweeper';
import type { Call } from './api';
import { recordConsent, sha256 } from './consent';
import { waitFor } from './receiver';

/**
 * Records a principal's consent and waits until the workers have recorded it as her activity:
 * only then is she in the due index for a sweep to schedule.
 */
export const recordConsentAndActivity = async (call: Call, tenant: { tenantId: string; token: string }, body: { dataPrincipalIdentifier: string } & Record<string, unknown>): Promise<string> => {
  const recorded = await recordConsent(call, tenant.token, body);
  if (recorded.status !== 201) throw new Error(`consent: ${JSON.stringify(recorded.body)}`);
  const identifierHash = sha256(body.dataPrincipalIdentifier);
  await waitFor(() => lastActivityOf(tenant.tenantId, identifierHash).then((at) => at ?? undefined));
  return identifierHash;
};

/**
 * Sweeps the tenant until a pass moves no one, with the service's clock `aheadMs` ahead (0: now),
 * then puts the clock back. The tenant is in `manualSweeps`, so the workers' sweeper leaves it alone.
 */
export const sweepAhead = async (tenantId: string, aheadMs: number): Promise<void> => {
  setClock(offsetClock(aheadMs));
  try {
    await sweepRetentionDue({ accept: (id) => id === tenantId });
  } finally {
    resetClock();
  }
};
