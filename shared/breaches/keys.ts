import { tenantPartition } from '../tenants/keys';

const padded = (n: number) => String(n).padStart(6, '0');

/**
 * Breach register keys. A breach is one item in its tenant's partition; what it may grow without
 * bound (listed hashes, an intimation's pages, one marker per principal) lives outside it, so that
 * reading or changing a breach never reads them.
 *
 * Access patterns:
 * - breach by id ............................ GetItem PK=TENANT#<tid> SK=BREACH#<bid>               (1 read, a few KB)
 * - a tenant's breaches, newest first ........ Query   PK=TENANT#<tid> SK begins_with BREACH#         (UUIDv7 ids: creation order; few per tenant)
 * - listed hashes (scope PRINCIPALS) ......... GetItem PK=BREACHLIST#<tid>#<bid> SK=CHUNK#<n>        (one chunk per batch, ≤ 500 hashes, ~34 KB)
 * - an intimation run's pages (its plan) ..... GetItem PK=BREACHRUN#<tid>#<bid> SK=<runId>#<page>     (one per page: hashes, next cursor, state)
 *   its unfinished pages (resuming a stall) .. Query   the same partition, begins_with <runId>#
 * - a principal's intimation marker .......... PutItem PK=BREACHMARK#<tid>#<bid>#<hash> SK=MARK     (conditional: claimed once)
 * - the timeline ............................. Query   GSI2 EVIDENCE#<tid>#<bid> (the breach's logged documents, shared/evidence/documents.ts)
 * - the batches' documents ................... Query   GSI2 EVIDENCE#<tid>#<bid>/intimation
 * Each marker is its own partition key, so a 100,000-principal intimation writes no hot key; the
 * breach item takes one update per batch (its progress counters), a page item two writes.
 */
export const breachKeys = {
  breach: (tenantId: string, breachId: string) => ({ PK: tenantPartition(tenantId), SK: `BREACH#${breachId}` }),
  breachPrefix: 'BREACH#',
  listedChunk: (tenantId: string, breachId: string, chunk: number) => ({ PK: `BREACHLIST#${tenantId}#${breachId}`, SK: `CHUNK#${padded(chunk)}` }),
  runPartition: (tenantId: string, breachId: string) => `BREACHRUN#${tenantId}#${breachId}`,
  page: (tenantId: string, breachId: string, runId: string, page: number) => ({ PK: breachKeys.runPartition(tenantId, breachId), SK: `${runId}#${padded(page)}` }),
  marker: (tenantId: string, breachId: string, principalHash: string) => ({ PK: `BREACHMARK#${tenantId}#${breachId}#${principalHash}`, SK: 'MARK' }),
  /** The subject of the intimation batches' logged documents: apart from the timeline, which reads the breach's own. */
  batchSubject: (breachId: string) => `${breachId}/intimation`,
};
