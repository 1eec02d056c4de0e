import { clock } from '../clock';
import { config } from '../config';
import { requireTenant } from '../tenants/store';
import { principalHash } from './principal';
import { principalRecords } from './store';
import { withdraw } from './withdrawal';

/** Holds an answer until a wall-clock deadline, so its timing says nothing about the data. */
export const waitUntil = (deadline: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())));

/**
 * Public withdrawal by email. Always 200: an email with no active consent gets withdrawalId
 * null and withdrawnCount 0, never a 404, and the answer comes no sooner than a fixed time
 * after the request started, so neither status nor timing tells whether the email is known.
 */
export const withdrawPublic = async (tenantId: string, input: { email: string; purposeIds: string[]; withdrawalReason?: string }) => {
  const deadline = Date.now() + config.withdrawPublicMinMs;
  const email = input.email.trim().toLowerCase();
  try {
    const [tenant, records] = await Promise.all([requireTenant(tenantId), principalRecords(tenantId, principalHash(email))]);
    const known = new Set(records.flatMap((record) => Object.keys(record.consentGiven)));
    const result = await withdraw({
      tenant,
      records: records.filter((record) => !record.isWithdrawn),
      // Purposes the principal never consented to are ignored, not reported: reporting them would tell.
      purposeIds: input.purposeIds.filter((id) => known.has(id)),
      method: 'PUBLIC_API',
      reason: input.withdrawalReason ?? null,
      actor: 'principal:public-api',
      principalEmail: email,
    });
    if (result) {
      // The same keys whether or not anything matched.
      const { complianceTask: _task, ...body } = result;
      return body;
    }
    return {
      withdrawalId: null,
      withdrawnAt: clock.now().toISOString(),
      withdrawnCount: 0,
      isFullWithdrawal: input.purposeIds.length === 0,
      purposesWithdrawn: [],
      tenant: { name: tenant.name, slug: tenant.slug },
    };
  } finally {
    await waitUntil(deadline);
  }
};
