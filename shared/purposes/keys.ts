import { tenantPartition } from '../tenants/keys';

/**
 * Purpose keys. A tenant has tens of purposes, so listing them is one Query of its partition.
 *
 * Access patterns:
 * - purpose by id ............... GetItem     PK=TENANT#<tid> SK=PURPOSE#<pid>        (1 read)
 * - several purposes by id ...... BatchGetItem of the same keys                       (1 read each)
 * - a tenant's purposes ......... Query       PK=TENANT#<tid> SK begins_with PURPOSE# (1 read per 4 KB)
 */
export const purposeKeys = {
  purpose: (tenantId: string, purposeId: string) => ({ PK: tenantPartition(tenantId), SK: `PURPOSE#${purposeId}` }),
  prefix: 'PURPOSE#',
};
