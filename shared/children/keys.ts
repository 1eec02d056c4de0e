import { createHash } from 'node:crypto';
import type { RequestStatus } from './schemas';

/** The due index is spread over this many partitions, so a burst of children's decisions never writes one key hot. */
export const dueShards = 4;

const shardOf = (requestId: string): number => createHash('sha256').update(requestId).digest()[0]! % dueShards;

/**
 * Guardian request keys. Request ids are UUIDv7; the guardian's link carries the id, so the public
 * routes find the request without the tenant, and then compare the link's hash.
 *
 * Access patterns:
 * - request by id (link, team) ... GetItem PK=GUARDIAN#<requestId> SK=REQUEST                (1 read; another tenant's is 404)
 * - a tenant's requests by status, Query   GSI1 GUARDIANS#<tid>#<status>, SK <createdAt>#<id>, descending
 *   newest first                   (its own partition per tenant and status: no Scan, a page per call)
 * - requests due to expire ....... Query   GSI2 GUARDIANDUE#<0..3>, SK <expiresAt>#<tid>#<id> <= now (sparse: PENDING only;
 *   (every tenant)                 a decision or an expiry takes the request out)
 * Writes: one PutItem at creation (with the record, in one transaction); one update per decision,
 * resend or expiry. A tenant's status partition takes a write per new request and per move: a
 * tenant making more than ~500 children's decisions a second would need it sharded.
 */
export const guardianKeys = {
  request: (requestId: string) => ({ PK: `GUARDIAN#${requestId}`, SK: 'REQUEST' }),
  status: (tenantId: string, status: RequestStatus, createdAt: string, requestId: string) => ({
    GSI1PK: guardianKeys.statusPartition(tenantId, status),
    GSI1SK: `${createdAt}#${requestId}`,
  }),
  statusPartition: (tenantId: string, status: RequestStatus) => `GUARDIANS#${tenantId}#${status}`,
  due: (tenantId: string, requestId: string, expiresAt: string) => ({
    GSI2PK: guardianKeys.duePartition(shardOf(requestId)),
    GSI2SK: `${expiresAt}#${tenantId}#${requestId}`,
  }),
  duePartition: (shard: number) => `GUARDIANDUE#${shard}`,
};
