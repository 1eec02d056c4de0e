import { tenantPartition } from '../tenants/keys';

export type DerivedStatus = 'active' | 'partial' | 'withdrawn';

const padded = (seq: number) => String(seq).padStart(12, '0');

/**
 * Consent-record keys. Record ids are UUIDv7, so the base-table range `RECORD#…` is in creation
 * order. A new record carries only the keys its reads need (one index entry, GSI1, plus GSI3 when
 * it has an external id); the status and withdrawal indexes are sparse and written by the
 * withdrawal that moves a record into them.
 *
 * Access patterns:
 * - record by id ................. GetItem PK=TENANT#<tid> SK=RECORD#<id>                  (1 read)
 * - all records by creation ...... Query   PK=TENANT#<tid> SK begins_with RECORD#          (page by page)
 * - active records ............... the same range, filtered to records without a withdrawal  (reads what
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
 */
export const consentKeys = {
  record: (tenantId: string, recordId: string) => ({ PK: tenantPartition(tenantId), SK: `RECORD#${recordId}` }),
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
  chainPosition: padded,
  chainHead: (tenantId: string) => ({ PK: tenantPartition(tenantId), SK: 'CHAINHEAD' }),
  stats: (tenantId: string) => ({ PK: tenantPartition(tenantId), SK: 'CONSENTSTATS' }),
  monthlyVolume: (tenantId: string, month: string) => ({ PK: tenantPartition(tenantId), SK: `VOLUME#${month}` }),
  daily: (tenantId: string, day: string) => ({ PK: tenantPartition(tenantId), SK: `DAILY#${day}` }),
  withdrawal: (tenantId: string, withdrawalId: string) => ({ PK: tenantPartition(tenantId), SK: `WITHDRAWAL#${withdrawalId}` }),
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
