import { tenantPartition } from '../tenants/keys';

/**
 * Notice keys. Everything about a tenant's notices lives in the tenant's partition.
 *
 * Access patterns:
 * - notice by id ................ GetItem  PK=TENANT#<tid> SK=NOTICE#<nid>                    (1 read)
 * - a tenant's notices .......... Query    PK=TENANT#<tid> SK begins_with NOTICE#            (bounded by the plan's notice limit)
 * - the published notice ........ GetItem  PK=TENANT#<tid> SK=ACTIVENOTICE                   (pointer: notice id and version)
 * - public notice (widget) ...... GetItem  PK=TENANT#<tid> SK=PUBLICNOTICE                   (the precomputed public body, 1 read)
 * - lineage's last version ...... GetItem  PK=TENANT#<tid> SK=LINEAGE#<lineageId>
 * - versions of a lineage ....... Query    PK=TENANT#<tid> SK begins_with VERSION#<lineageId># (newest first)
 * - one version ................. GetItem  PK=TENANT#<tid> SK=VERSION#<lineageId>#<000042>
 * - notice audit trail .......... Query    PK=TENANT#<tid> SK begins_with AUDIT#NOTICE#<nid>#
 */
const versionSuffix = (versionNumber: number) => String(versionNumber).padStart(6, '0');

export const noticeKeys = {
  notice: (tenantId: string, noticeId: string) => ({ PK: tenantPartition(tenantId), SK: `NOTICE#${noticeId}` }),
  noticePrefix: 'NOTICE#',
  activePointer: (tenantId: string) => ({ PK: tenantPartition(tenantId), SK: 'ACTIVENOTICE' }),
  publicDocument: (tenantId: string) => ({ PK: tenantPartition(tenantId), SK: 'PUBLICNOTICE' }),
  lineage: (tenantId: string, lineageId: string) => ({ PK: tenantPartition(tenantId), SK: `LINEAGE#${lineageId}` }),
  version: (tenantId: string, lineageId: string, versionNumber: number) => ({
    PK: tenantPartition(tenantId),
    SK: `VERSION#${lineageId}#${versionSuffix(versionNumber)}`,
  }),
  versionPrefix: (lineageId: string) => `VERSION#${lineageId}#`,
  audit: (tenantId: string, noticeId: string, at: string, auditId: string) => ({
    PK: tenantPartition(tenantId),
    SK: `AUDIT#NOTICE#${noticeId}#${at}#${auditId}`,
  }),
  auditPrefix: (noticeId: string) => `AUDIT#NOTICE#${noticeId}#`,
};
