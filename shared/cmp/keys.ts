import { tenantPartition } from '../tenants/keys';

/**
 * Cookie-consent keys. The banner's whole state (config, tracker registry, label sets) is one
 * precomputed public document, so the public GET is one read; the few settings the per-visitor
 * endpoints need sit on a small item beside it, so they never read the large one. A visitor's
 * events and latest state share the visitor's own partition.
 *
 * Access patterns:
 * - public config document ........ GetItem PK=TENANT#<tid> SK=CMP#PUBLIC           (1 read; size-bound, ≤ 350 KB)
 * - settings for visitor calls .... GetItem PK=TENANT#<tid> SK=CMP#SETTINGS         (1 read, < 1 KB)
 * - document as of a revision ..... GetItem PK=TENANT#<tid> SK=CMP#REVISION#<n>     (immutable snapshot)
 * - visitor's latest state ........ BatchGet PK=CMPVISITOR#<tid>#<vid> SK=STATE with the settings (1 request: consent-status)
 * - visitor's audit log ........... Query   PK=CMPVISITOR#<tid>#<vid> SK begins_with LOG#   (append-only, by time)
 * - daily counters ................ Query   PK=TENANT#<tid> SK between CMPDAILY#<from> and CMPDAILY#<to> (≤ 366 small items)
 */
export const cmpKeys = {
  publicDocument: (tenantId: string) => ({ PK: tenantPartition(tenantId), SK: 'CMP#PUBLIC' }),
  settings: (tenantId: string) => ({ PK: tenantPartition(tenantId), SK: 'CMP#SETTINGS' }),
  revision: (tenantId: string, revision: number) => ({
    PK: tenantPartition(tenantId),
    SK: `CMP#REVISION#${String(revision).padStart(8, '0')}`,
  }),
  visitorState: (tenantId: string, visitorId: string) => ({ PK: cmpKeys.visitorPartition(tenantId, visitorId), SK: 'STATE' }),
  logEntry: (tenantId: string, visitorId: string, at: string, entryId: string) => ({
    PK: cmpKeys.visitorPartition(tenantId, visitorId),
    SK: `${cmpKeys.logPrefix}${at}#${entryId}`,
  }),
  logPrefix: 'LOG#',
  visitorPartition: (tenantId: string, visitorId: string) => `CMPVISITOR#${tenantId}#${visitorId}`,
  daily: (tenantId: string, day: string) => ({ PK: tenantPartition(tenantId), SK: `CMPDAILY#${day}` }),
  dayOf: (dailySortKey: string) => dailySortKey.slice('CMPDAILY#'.length),
};
