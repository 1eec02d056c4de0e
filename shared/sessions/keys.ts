import { tenantPartition } from '../tenants/keys';

/**
 * Refresh-token keys. A refresh token is stored only as its SHA-256; every rotation writes a
 * new token in the same family, and the family can be revoked as a whole.
 *
 * Access patterns:
 * - refresh token by hash ....... GetItem PK=REFRESH#<sha256> SK=REFRESH            (1 RCU)
 * - family revoked? ............. ConditionCheck PK=TENANT#<tid> SK=SESSION#<family> (in the rotation transaction)
 */
export const sessionKeys = {
  refreshToken: (tokenHash: string) => ({ PK: `REFRESH#${tokenHash}`, SK: 'REFRESH' }),
  family: (tenantId: string, familyId: string) => ({ PK: tenantPartition(tenantId), SK: `SESSION#${familyId}` }),
};
