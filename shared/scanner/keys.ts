import { tenantPartition } from '../tenants/keys';

/**
 * Tracker-scan keys. A run's summary and its report are separate items so that listing runs
 * never reads reports (a report can approach the item limit); run ids are UUIDv7, so the sort key
 * orders runs by creation time.
 *
 * Access patterns:
 * - runs, newest first ........... Query   PK=TENANT#<tid> SK begins_with SCANRUN#, ScanIndexForward=false, Limit 50
 *                                           (summaries < 2 KB: 50 runs ≈ 13 RCU eventually consistent)
 * - one run ...................... GetItem PK=TENANT#<tid> SK=SCANRUN#<runId>
 * - one run's report ............. GetItem PK=TENANT#<tid> SK=SCANREPORT#<runId>  (≤ 350 KB, written once at the end)
 * - the tenant's scan lock ....... GetItem/conditional Put PK=TENANT#<tid> SK=SCANLOCK
 *                                           (one item: at most one active run and one run per 10 minutes)
 * - tenants due a scheduled scan . Query   GSI2 GSI2PK=SCANDUE GSI2SK <= <now ISO>  (sparse: only the schedule
 *                                           items of tenants with scanEnabled carry it; never a Scan)
 * - a tenant's schedule .......... Put/Delete PK=TENANT#<tid> SK=SCANSCHEDULE
 */
export const scanKeys = {
  run: (tenantId: string, runId: string) => ({ PK: tenantPartition(tenantId), SK: `${scanKeys.runPrefix}${runId}` }),
  runPrefix: 'SCANRUN#',
  report: (tenantId: string, runId: string) => ({ PK: tenantPartition(tenantId), SK: `SCANREPORT#${runId}` }),
  lock: (tenantId: string) => ({ PK: tenantPartition(tenantId), SK: 'SCANLOCK' }),
  schedule: (tenantId: string) => ({ PK: tenantPartition(tenantId), SK: 'SCANSCHEDULE' }),
  due: (tenantId: string, nextScanAt: string) => ({ GSI2PK: scanKeys.duePartition, GSI2SK: `${nextScanAt}#${tenantId}` }),
  duePartition: 'SCANDUE',
};
