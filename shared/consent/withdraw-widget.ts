import { NotFoundError, ConflictError } from '../errors';
import { safeEqual, sha256Hex } from '../crypto/hash';
import { requireTenant } from '../tenants/store';
import { getRecord } from './store';
import { checkPurposes, withdraw } from './withdrawal';

/** Compared against when a record has no key, so that a record without one costs the same time. */
const noKey = '0'.repeat(64);

/**
 * Withdrawal from the widget. The browser that gave the consent holds the record id and the
 * withdrawal key sdk-record returned with it, a secret nothing else ever shows (not the records
 * list, a receipt, an event or a log line: the proof hash is printed in all of those, so it
 * proves nothing); holding both is the authorisation (the API key alone only names the tenant).
 * A wrong key answers exactly like an unknown record, and is compared in constant time, so
 * neither status nor timing helps anyone guess another visitor's record. Records made before
 * withdrawal keys (and dashboard records) have none: 404, and the widget sends the person to
 * the withdrawal page instead.
 */
export const withdrawFromWidget = async (
  tenantId: string,
  input: { consentRecordId: string; withdrawalKey: string; purposeIds?: string[]; reason?: string },
) => {
  const [tenant, record] = await Promise.all([requireTenant(tenantId), getRecord(tenantId, input.consentRecordId, true)]);
  const keyMatches = safeEqual(record?.withdrawalKeyHash ?? noKey, sha256Hex(input.withdrawalKey));
  if (!record?.withdrawalKeyHash || !keyMatches) throw new NotFoundError('Consent record');
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
