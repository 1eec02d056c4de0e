import { clock } from '../clock';
import { limitConfig } from '../config';
import { requireTenant } from '../tenants/store';
import { waitUntil } from './answer-timing';
import { mailWithdrawalLink } from './portal-link';
import { principalHash } from './principal';
import { readSettings } from './settings';
import { principalRecords } from './store';
import { withdraw } from './withdrawal';
import type { WithdrawalAttribution } from './withdrawal-attribution';

/**
 * Public withdrawal by email (the spec's withdraw-public). Always 200 with the same keys: an email
 * with no active consent gets withdrawalId null and withdrawnCount 0, never a 404, and the answer
 * comes no sooner than a fixed time after the request started, so neither status nor timing tells
 * whether the email is known.
 *
 * The trade-off of the spec's behaviour (the default, publicWithdrawal IMMEDIATE): the API key is
 * public (it is in the tenant's pages), so anyone who knows a person's email can withdraw that
 * person's consent; withdrawing is harmless to the person's rights (they can consent again) but
 * not to the tenant's relationship with them. With publicWithdrawal CONFIRM_BY_EMAIL nothing is
 * withdrawn here: the address is mailed a single-use link to the withdrawal pages (as the public
 * withdrawal page does), and the withdrawal happens when the person confirms there. The answer
 * is then the same for every address (withdrawalId null, withdrawnCount 0, confirmationRequired
 * true), held to the same minimum time.
 *
 * What is withdrawn at once is attributed as what it is (withdrawal-attribution.ts): with the
 * publishable key, an unverified claim of the email, with the request's origin and IP hash; the
 * actor is the key the call came with, never the principal.
 */
export const withdrawPublic = async (tenantId: string, input: { email: string; purposeIds: string[]; withdrawalReason?: string }, attribution: WithdrawalAttribution) => {
  const deadline = Date.now() + limitConfig.withdrawPublicMinMs;
  const email = input.email.trim().toLowerCase();
  try {
    const [tenant, settings] = await Promise.all([requireTenant(tenantId), readSettings(tenantId)]);
    const nothingYet = (confirmationRequired: boolean) => ({
      withdrawalId: null,
      withdrawnAt: clock.now().toISOString(),
      withdrawnCount: 0,
      isFullWithdrawal: input.purposeIds.length === 0,
      purposesWithdrawn: [],
      tenant: { name: tenant.name, slug: tenant.slug },
      confirmationRequired,
    });
    if (settings.publicWithdrawal === 'CONFIRM_BY_EMAIL') {
      await mailWithdrawalLink(tenant, email);
      return nothingYet(true);
    }
    const records = await principalRecords(tenantId, principalHash(email));
    const known = new Set(records.flatMap((record) => Object.keys(record.consentGiven)));
    const result = await withdraw({
      tenant,
      records: records.filter((record) => !record.isWithdrawn),
      // Purposes the principal never consented to are ignored, not reported: reporting them would tell.
      purposeIds: input.purposeIds.filter((id) => known.has(id)),
      method: 'PUBLIC_API',
      reason: input.withdrawalReason ?? null,
      actor: attribution.attributedBy,
      attribution,
      principalEmail: email,
    });
    if (!result) return nothingYet(false);
    // The same keys whether or not anything matched.
    const { complianceTask: _task, ...body } = result;
    return { ...body, confirmationRequired: false };
  } finally {
    await waitUntil(deadline);
  }
};
