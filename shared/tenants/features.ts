import { AppError } from '../errors';
import { requireTenant } from './store';
import type { Tenant } from './tenant';

/**
 * Plan features beyond consent collection. The collect-only plans are consent collection alone:
 * the data map and data principal rights handling are on the standard plan only, and a
 * collect-only tenant gets 403 FEATURE_NOT_AVAILABLE on their routes.
 */
export const requireRightsFeature = async (tenantId: string): Promise<Tenant> => assertRightsFeature(await requireTenant(tenantId));

export const assertRightsFeature = (tenant: Tenant): Tenant => {
  if (tenant.plan === 'collect-only') {
    throw new AppError('FEATURE_NOT_AVAILABLE', 'The data map and data principal rights are not on the collect-only plan');
  }
  return tenant;
};
