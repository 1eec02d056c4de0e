import type { Tenant } from '../tenants/tenant';
import { getPublicDocument } from './store';

/**
 * Whom a principal contacts about her data (Rule 9), and whose contact heads every document the
 * service writes for the tenant: the tenant's DPO email, else the contact of its published notice.
 */
export const dpoContactOf = async (tenant: Tenant): Promise<string | null> => {
  if (tenant.dpoEmail) return tenant.dpoEmail;
  const published = await getPublicDocument(tenant.tenantId);
  return typeof published?.contactEmail === 'string' ? published.contactEmail : null;
};
