import { createHash } from 'node:crypto';
import { tenantPartition } from '../tenants/keys';

export type DerivedStatus = 'active' | 'partial' | 'withdrawn';

const padded = (seq: number) => String(seq).padStart(12, '0');

/**
 * A tenant's records are spread over `recordShards` partitions, `REC#<tid>#<shard>`, the shard a
 * hash of the record id: DynamoDB caps one partition key at about 1,000 writes a second, and a
 * time-ordered sort key only ever writes at its end, so one partition would cap a tenant near
 * 1,000 consents a second. Sixteen take a tenant to ~16,000 (each shard ~625 writes a second at
 * 10,000 consents a second). Records written before the shards (and the hash-chain era's) stay
 * where they were, under `TENANT#<tid>`: every reader reads both layouts (record-shards.ts), so
 * nothing is migrated and no evidence item is ever rewritten.
 */
export const recordShards = 16;

/** The shard of a record: the first byte of SHA-256 of its id, modulo the shards. */
export const recordShardOf = (recordId: string): number => createHash('sha256').update(recordId).digest()[0]! % recordShards;

const recordPartitionPrefix = 'REC#';

/** The majority index is spread over this many partitions: birthdays of one day never write one key hot. */
export const majorityShards = 4;

/**
 * Consent-record keys. Record ids are UUIDv7, so each shard's range `RECORD#…` is in creation
 * order, and so is the merge of the shards by sort key. A new record carries only the keys its
 * reads need (one index entry, GSI1, plus GSI3 when it has an external id); the status and
 * withdrawal indexes are sparse and written by the withdrawal that moves a record into them.
 *
 * Access patterns:
 * - record by id ................. GetItem PK=REC#<tid>#<shard of id> SK=RECORD#<id>       (1 read; a record from
 *                                  before the shards: a second GetItem of PK=TENANT#<tid>)
 * - all records by creation ...... Query   PK=TENANT#<tid> and PK=REC#<tid>#<0..f>, SK between RECORD# and RECORD#~,
 *                                  in parallel, merged by sort key                         (page by page; 17 queries a page)
 * - active records ............... the same ranges, filtered to records without a withdrawal (reads what
 *                                  it skips: cheap while most records are active, which they are)
 * - a principal's records ........ Query   GSI1 PRINCIPAL#<tid>#<hash>, newest first       (search, status/:hash, externalId fill)
 * - partially withdrawn records .. Query   GSI2 RECORDS#<tid>#partial (sparse)              (by creation time)
 * - fully withdrawn records ...... Query   GSI2 RECORDS#<tid>#withdrawn (sparse)            (by creation time)
 * - records by external id ....... Query   GSI3 EXTERNAL#<tid>#<externalId>
 * - withdrawn records by time .... Query   GSI4 WITHDRAWN#<tid>                            (sortBy=withdrawnAt)
 * - hash-chain era records ....... Query   GSI5 CHAIN#<tid>, by sequence number            (only to migrate them into the log)
 * - counters (totals, per status,
 *   per purpose, per notice) ..... GetItem PK=TENANT#<tid> SK=CONSENTSTATS                  (1 read; new records counted by the log's sequencer)
 * - monthly sdk volume .......... UpdateItem PK=TENANT#<tid> SK=VOLUME#<YYYYMM>            (1 write per reserved chunk, monthly-volume.ts)
 * - consents per day ............. Query   PK=TENANT#<tid> SK between DAILY#<from> and DAILY#<to>
 * - withdrawal by id ............. GetItem PK=TENANT#<tid> SK=WITHDRAWAL#<id>              (immutable once written)
 * - a principal's withdrawals .... Query   GSI2 WITHDRAWALS#<tid>#<hash>, by time          (evidence packs; one index entry
 *                                  per withdrawal, a partition per principal: never hot)
 * - compliance task by id ........ GetItem PK=TENANT#<tid> SK=TASK#<id>
 * - tasks by state, by due date .. Query   GSI2 TASKS#<tid>#<OPEN|DONE>; OVERDUE = OPEN with due date before now
 * - withdrawal token ............. GetItem PK=WTOKEN#<sha256 of token> SK=WTOKEN           (TTL after expiry)
 * - consent settings ............. GetItem PK=TENANT#<tid> SK=CONSENTSETTINGS              (read by sdk-record in the same consistent
 *                                  BatchGetItem as the published-notice pointer: one round trip, one more read unit;
 *                                  also holds the sealed identity verifiers of the tenant's live secret keys)
 * - a principal's withdrawal claim  GetItem PK=TENANT#<tid> SK=WCLAIM#<principal hash>      (1 consistent read and 1 write
 *                                  per withdrawal: its sequence serialises the principal's withdrawals, withdrawal.ts)
 * - withdrawals not yet applied .. Query   GSI1 WITHDRAWALS#PENDING, SK <tenant>#<time>#<id>   (sparse: only IN_PROGRESS
 *                                  withdrawals carry it; one tenant's by begins_with, everyone's for the completer)
 * - children coming of age ....... Query   GSI5 MAJORITY#<0..3>, SK <majorityAt>#<tid>#<id> <= today (sparse: a child's
 *                                  record with a majority date carries it until consent.majority_reached is sent;
 *                                  GSI5's chain ranges are CHAIN#<tid>, so the two never meet)
 */
export const consentKeys = {
  /** Where a record is written: its shard. */
  record: (tenantId: string, recordId: string) => ({ PK: consentKeys.recordPartition(tenantId, recordShardOf(recordId)), SK: `RECORD#${recordId}` }),
  /** Where a record written before the shards is (the tenant's own partition). */
  legacyRecord: (tenantId: string, recordId: string) => ({ PK: tenantPartition(tenantId), SK: `RECORD#${recordId}` }),
  recordPartition: (tenantId: string, shard: number) => `${recordPartitionPrefix}${tenantId}#${shard.toString(16)}`,
  /**
   * Every partition a tenant's records can be in: the tenant's own (records from before the
   * shards) first, so that a page-by-page walk begun before the shards goes on into them, then the shards.
   */
  recordPartitions: (tenantId: string): string[] => [tenantPartition(tenantId), ...Array.from({ length: recordShards }, (_, shard) => consentKeys.recordPartition(tenantId, shard))],
  /** The tenant of a record partition (either layout), or undefined for any other key. */
  tenantOfRecordPartition: (partitionKey: string): string | undefined => /^(?:REC#([^#]+)#[0-9a-f]+|TENANT#([^#]+))$/.exec(partitionKey)?.slice(1).find(Boolean),
  isLegacyRecordPartition: (partitionKey: string): boolean => !partitionKey.startsWith(recordPartitionPrefix),
  recordPrefix: 'RECORD#',
  principal: (tenantId: string, principalHash: string, createdAt: string, recordId: string) => ({
    GSI1PK: consentKeys.principalPartition(tenantId, principalHash),
    GSI1SK: `${createdAt}#${recordId}`,
  }),
  principalPartition: (tenantId: string, principalHash: string) => `PRINCIPAL#${tenantId}#${principalHash}`,
  status: (tenantId: string, status: DerivedStatus, createdAt: string, recordId: string) => ({
    GSI2PK: consentKeys.statusPartition(tenantId, status),
    GSI2SK: `${createdAt}#${recordId}`,
  }),
  statusPartition: (tenantId: string, status: DerivedStatus) => `RECORDS#${tenantId}#${status}`,
  external: (tenantId: string, externalId: string, createdAt: string, recordId: string) => ({
    GSI3PK: consentKeys.externalPartition(tenantId, externalId),
    GSI3SK: `${createdAt}#${recordId}`,
  }),
  externalPartition: (tenantId: string, externalId: string) => `EXTERNAL#${tenantId}#${externalId}`,
  withdrawn: (tenantId: string, withdrawnAt: string, recordId: string) => ({
    GSI4PK: consentKeys.withdrawnPartition(tenantId),
    GSI4SK: `${withdrawnAt}#${recordId}`,
  }),
  withdrawnPartition: (tenantId: string) => `WITHDRAWN#${tenantId}`,
  chain: (tenantId: string, seq: number) => ({ GSI5PK: consentKeys.chainPartition(tenantId), GSI5SK: padded(seq) }),
  chainPartition: (tenantId: string) => `CHAIN#${tenantId}`,
  majority: (tenantId: string, majorityAt: string, recordId: string) => ({
    GSI5PK: consentKeys.majorityPartition(recordShardOf(recordId) % majorityShards),
    GSI5SK: `${majorityAt}#${tenantId}#${recordId}`,
  }),
  majorityPartition: (shard: number) => `MAJORITY#${shard}`,
  chainPosition: padded,
  chainHead: (tenantId: string) => ({ PK: tenantPartition(tenantId), SK: 'CHAINHEAD' }),
  stats: (tenantId: string) => ({ PK: tenantPartition(tenantId), SK: 'CONSENTSTATS' }),
  monthlyVolume: (tenantId: string, month: string) => ({ PK: tenantPartition(tenantId), SK: `VOLUME#${month}` }),
  daily: (tenantId: string, day: string) => ({ PK: tenantPartition(tenantId), SK: `DAILY#${day}` }),
  withdrawal: (tenantId: string, withdrawalId: string) => ({ PK: tenantPartition(tenantId), SK: `WITHDRAWAL#${withdrawalId}` }),
  principalWithdrawal: (tenantId: string, principalHash: string, withdrawnAt: string, withdrawalId: string) => ({
    GSI2PK: consentKeys.principalWithdrawalsPartition(tenantId, principalHash),
    GSI2SK: `${withdrawnAt}#${withdrawalId}`,
  }),
  principalWithdrawalsPartition: (tenantId: string, principalHash: string) => `WITHDRAWALS#${tenantId}#${principalHash}`,
  task: (tenantId: string, taskId: string) => ({ PK: tenantPartition(tenantId), SK: `TASK#${taskId}` }),
  taskState: (tenantId: string, state: 'OPEN' | 'DONE', dueAt: string, taskId: string) => ({
    GSI2PK: consentKeys.taskStatePartition(tenantId, state),
    GSI2SK: `${dueAt}#${taskId}`,
  }),
  taskStatePartition: (tenantId: string, state: 'OPEN' | 'DONE') => `TASKS#${tenantId}#${state}`,
  withdrawalPending: (tenantId: string, withdrawnAt: string, withdrawalId: string) => ({
    GSI1PK: consentKeys.withdrawalPendingPartition,
    GSI1SK: `${tenantId}#${withdrawnAt}#${withdrawalId}`,
  }),
  withdrawalPendingPartition: 'WITHDRAWALS#PENDING',
  withdrawalToken: (tokenHash: string) => ({ PK: `WTOKEN#${tokenHash}`, SK: 'WTOKEN' }),
  settings: (tenantId: string) => ({ PK: tenantPartition(tenantId), SK: 'CONSENTSETTINGS' }),
  withdrawalClaim: (tenantId: string, principalHash: string) => ({ PK: tenantPartition(tenantId), SK: `WCLAIM#${principalHash}` }),
};
