import { NotFoundError, ConflictError } from '../errors';
import { safeEqual } from '../crypto/hash';
import { requireTenant } from '../tenants/store';
import { getRecord } from './store';
import { checkPurposes, withdraw } from './withdrawal';

/**
 * Withdrawal from the widget. The browser that gave the consent holds its record id and proof
 * hash; holding both is the authorisation (the API key alone only names the tenant). A wrong
 * proof answers exactly like an unknown record, and is compared in constant time, so neither
 * status nor timing helps anyone guess another visitor's record.
 */
export const withdrawFromWidget = async (
  tenantId: string,
  input: { consentRecordId: string; proofHash: string; purposeIds?: string[]; reason?: string },
) => {
  const [tenant, record] = await Promise.all([requireTenant(tenantId), getRecord(tenantId, input.consentRecordId, true)]);
  if (!record || !safeEqual(record.proofHash, input.proofHash)) throw new NotFoundError('Consent record');
  if (record.isWithdrawn) throw new ConflictError('This consent is already fully withdrawn');
  const purposeIds = input.purposeIds ?? [];
  checkPurposes([record], purposeIds, 'purposeIds');
  const result = await withdraw({
    tenant,
    records: [record],
    purposeIds,
    method: 'WIDGET',
    reason: input.reason ?? null,
    actor: 'principal:widget',
    principalEmail: null,
  });
  if (!result) throw new ConflictError('Nothing is left to withdraw for this consent');
  return result;
};
