import { createHash } from 'node:crypto';
import { tenantPartition } from '../tenants/keys';
import type { DueStage, RequestStatus } from './request';

/** The due index is spread over this many partitions, so a burst of public requests never writes one key hot. */
export const dueShards = 4;

/** SUBMITTED and IN_PROGRESS share one listing partition: the open requests, where overdue ones are found. */
export type Phase = 'UNVERIFIED' | 'OPEN' | 'RESOLVED' | 'EXPIRED';
export const phaseOf = (status: RequestStatus): Phase => (status === 'SUBMITTED' || status === 'IN_PROGRESS' ? 'OPEN' : status);

const shardOf = (requestId: string): number => createHash('sha256').update(requestId).digest()[0]! % dueShards;

/**
 * Rights request keys. Request ids are UUIDv7, so every range below reads in time order.
 *
 * Access patterns:
 * - request by id ................. GetItem PK=TENANT#<tid> SK=RIGHTS#<requestId>                 (1 read)
 * - all requests, newest first .... Query   PK=TENANT#<tid> SK begins_with RIGHTS#, descending     (a page per call)
 * - requests by phase, newest first Query   GSI1 RIGHTS#<tid>#<UNVERIFIED|OPEN|RESOLVED|EXPIRED>  (status SUBMITTED or
 *                                   IN_PROGRESS, type and overdue are filters on a phase: open requests are few)
 * - due work (every tenant) ....... Query   GSI2 RIGHTSDUE#<0..3>, SK <at>#<tid>#<requestId> <= now (sparse: only
 *                                   requests awaiting an expiry, a reminder or an overdue notice carry it)
 * - the principal's link .......... GetItem PK=RTOKEN#<sha256 of token> SK=RTOKEN                   (TTL 90 days after the answer)
 * - settings ...................... GetItem PK=TENANT#<tid> SK=RIGHTSSETTINGS
 * - the frozen access summary ..... GetItem PK=TENANT#<tid> SK=RIGHTSANSWER#<requestId>           (written with the resolution)
 * - a principal's nominees ........ Query   PK=TENANT#<tid> SK begins_with NOMINEE#<principalHash>#
 */
/** The `type` of a request's item (the stream's consumers select on it). */
export const rightsRequestItemType = 'RightsRequest';

export const rightsKeys = {
  request: (tenantId: string, requestId: string) => ({ PK: tenantPartition(tenantId), SK: `RIGHTS#${requestId}` }),
  requestPrefix: 'RIGHTS#',
  phase: (tenantId: string, phase: Phase, requestId: string) => ({ GSI1PK: rightsKeys.phasePartition(tenantId, phase), GSI1SK: requestId }),
  phasePartition: (tenantId: string, phase: Phase) => `RIGHTS#${tenantId}#${phase}`,
  due: (tenantId: string, requestId: string, at: string, stage: DueStage) => ({
    GSI2PK: rightsKeys.duePartition(shardOf(requestId)),
    GSI2SK: `${at}#${tenantId}#${requestId}`,
    dueStage: stage,
  }),
  duePartition: (shard: number) => `RIGHTSDUE#${shard}`,
  token: (tokenHash: string) => ({ PK: `RTOKEN#${tokenHash}`, SK: 'RTOKEN' }),
  settings: (tenantId: string) => ({ PK: tenantPartition(tenantId), SK: 'RIGHTSSETTINGS' }),
  answer: (tenantId: string, requestId: string) => ({ PK: tenantPartition(tenantId), SK: `RIGHTSANSWER#${requestId}` }),
  nominee: (tenantId: string, principalHash: string, requestId: string) => ({ PK: tenantPartition(tenantId), SK: `NOMINEE#${principalHash}#${requestId}` }),
  nomineePrefix: (principalHash: string) => `NOMINEE#${principalHash}#`,
};
