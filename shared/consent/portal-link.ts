import { limitConfig } from '../config';
import { NotFoundError } from '../errors';
import { consumeRateLimit } from '../rate-limit/limiter';
import { getTenantBySlug } from '../tenants/store';
import type { Tenant } from '../tenants/tenant';
import { principalHash } from './principal';
import { principalRecords } from './store';
import { waitUntil } from './answer-timing';
import { withdrawalLinkMail } from './withdrawal-mails';
import { issueWithdrawalToken } from './withdrawal-routes';

/**
 * Mails a single-use withdrawal link (for the notice of the principal's latest consent in force)
 * to an address that has active consent with the tenant, and does nothing for one that has none;
 * the caller answers the same either way. Limited per address (any IP, known or not), so nobody
 * can flood one mailbox.
 */
export const mailWithdrawalLink = async (tenant: Pick<Tenant, 'tenantId' | 'name'>, email: string): Promise<void> => {
  const hash = principalHash(email);
  await consumeRateLimit(limitConfig.limits.portalLinkPerEmail, `${tenant.tenantId}#${hash}`, 'RATE_LIMIT');
  // Newest first: the link is for the notice of the principal's latest consent still in force.
  const records = await principalRecords(tenant.tenantId, hash);
  const active = records.find((record) => !record.isWithdrawn);
  if (!active) return;
  // In the language of her latest consent; the records were just read, so the link is issued for them without reading them again.
  const mailOf = await withdrawalLinkMail(tenant, email, records[0]);
  await issueWithdrawalToken({ tenantId: tenant.tenantId, dataPrincipalHash: hash, noticeId: active.noticeId, principalEmail: email }, mailOf);
};

/**
 * The public withdrawal page's request: mail a single-use withdrawal link to an address that has
 * active consent with the tenant. The answer is the same, and no sooner than PORTAL_LINK_MIN_MS,
 * whether or not the address has consent, so the page cannot be used to learn who does; only
 * the owner of the mailbox sees the difference.
 */
export const requestPortalLink = async (input: { tenantSlug: string; email: string }) => {
  const deadline = Date.now() + limitConfig.portalLinkMinMs;
  try {
    const tenant = await getTenantBySlug(input.tenantSlug);
    if (!tenant) throw new NotFoundError('Organisation');
    await mailWithdrawalLink(tenant, input.email.trim().toLowerCase());
    return { accepted: true as const };
  } finally {
    await waitUntil(deadline);
  }
};
