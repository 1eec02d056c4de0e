import { tenantPartition } from '../tenants/keys';

/**
 * Data map keys: a tenant's data assets and the processors and other fiduciaries it shares data
 * with, both in the tenant's partition. A data map is tens to a few hundred items, so each list is
 * one Query of its prefix.
 *
 * Access patterns:
 * - asset by id .................. GetItem PK=TENANT#<tid> SK=ASSET#<assetId>            (1 read)
 * - a tenant's assets ............ Query   PK=TENANT#<tid> SK begins_with ASSET#          (1 read per 4 KB)
 * - processor by id .............. GetItem PK=TENANT#<tid> SK=PROCESSOR#<processorId>    (1 read)
 * - several processors ........... BatchGetItem of the same keys                         (1 read each)
 * - a tenant's processors ........ Query   PK=TENANT#<tid> SK begins_with PROCESSOR#      (1 read per 4 KB)
 * Each processor item counts the assets that list it (`linkedAssets`), kept in the transaction of
 * every asset write that adds or removes it, so deleting a processor is one conditional delete.
 */
export const dataMapKeys = {
  asset: (tenantId: string, assetId: string) => ({ PK: tenantPartition(tenantId), SK: `ASSET#${assetId}` }),
  assetPrefix: 'ASSET#',
  processor: (tenantId: string, processorId: string) => ({ PK: tenantPartition(tenantId), SK: `PROCESSOR#${processorId}` }),
  processorPrefix: 'PROCESSOR#',
};
