/**
 * API-key keys. The key id is part of the key string the tenant holds, so authenticating a key is
 * one Query on its own partition, which returns the key and its allowed domains together.
 *
 * Access patterns:
 * - authenticate key + domains .. Query   PK=APIKEY#<keyId>                          (1 read, ~1 RCU)
 * - domain is unique per key .... Put     PK=APIKEY#<keyId> SK=DOMAIN#<domain>      (condition attribute_not_exists)
 * - list a tenant's keys ........ Query   GSI1 GSI1PK=TENANT#<tid>#APIKEYS, newest first
 */
export const apiKeyKeys = {
  partition: (keyId: string) => `APIKEY#${keyId}`,
  key: (keyId: string) => ({ PK: `APIKEY#${keyId}`, SK: 'KEY' }),
  domain: (keyId: string, domain: string) => ({ PK: `APIKEY#${keyId}`, SK: `DOMAIN#${domain}` }),
  domainPrefix: 'DOMAIN#',
  tenantListing: (tenantId: string, createdAt: string, keyId: string) => ({
    GSI1PK: `TENANT#${tenantId}#APIKEYS`,
    GSI1SK: `${createdAt}#${keyId}`,
  }),
  tenantListingPartition: (tenantId: string) => `TENANT#${tenantId}#APIKEYS`,
};
