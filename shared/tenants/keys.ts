/**
 * Tenant keys. Every item that belongs to a tenant lives under `TENANT#<tenantId>` or carries
 * the tenant id in its key, so one tenant's data can never be read through another's id.
 *
 * Access patterns:
 * - get tenant by id ............ GetItem  PK=TENANT#<id>        SK=TENANT          (1 RCU)
 * - slug is unique .............. Put guard PK=TENANTSLUG#<slug> SK=TENANTSLUG      (condition attribute_not_exists)
 * - tenant by slug .............. GetItem  the slug guard, then the tenant            (2 reads; the public withdrawal page)
 * - all tenants, oldest first .... Query GSI1 GSI1PK=TENANTS GSI1SK=<createdAt>#<id> (operator CLI only;
 *   one partition, written once per tenant, read page by page: 1 RCU per ~4 KB of tenants)
 */
export const tenantKeys = {
  tenant: (tenantId: string) => ({ PK: `TENANT#${tenantId}`, SK: 'TENANT' }),
  slugGuard: (slug: string) => ({ PK: `TENANTSLUG#${slug}`, SK: 'TENANTSLUG' }),
  directory: (tenant: { tenantId: string; createdAt: string }) => ({ GSI1PK: 'TENANTS', GSI1SK: `${tenant.createdAt}#${tenant.tenantId}` }),
};

/** The partition every tenant-owned collection hangs off. */
export const tenantPartition = (tenantId: string): string => `TENANT#${tenantId}`;
