import { config } from '../config';
import { NotFoundError } from '../errors';
import { consumeRateLimit } from '../rate-limit/limiter';
import { getTenantBySlug } from '../tenants/store';
import type { Tenant } from '../tenants/tenant';
import { principalHash } from './principal';
import { principalRecords } from './store';
import { waitUntil } from './answer-timing';
import { issueWithdrawalToken } from './withdrawal-routes';

/**
 * Mails a single-use withdrawal link (for the notice of the principal's latest consent in force)
 * to an address that has active consent with the tenant, and does nothing for one that has none;
 * the caller answers the same either way. Limited per address (any IP, known or not), so nobody
 * can flood one mailbox.
 */
export const mailWithdrawalLink = async (tenant: Pick<Tenant, 'tenantId' | 'name'>, email: string): Promise<void> => {
  const hash = principalHash(email);
  await consumeRateLimit(config.limits.portalLinkPerEmail, `${tenant.tenantId}#${hash}`, 'RATE_LIMIT');
  // Newest first: the link is for the notice of the principal's latest consent still in force.
  const active = (await principalRecords(tenant.tenantId, hash)).find((record) => !record.isWithdrawn);
  if (!active) return;
  // The records were just read: the link is issued for them without reading them again.
  await issueWithdrawalToken({ tenantId: tenant.tenantId, dataPrincipalHash: hash, noticeId: active.noticeId, principalEmail: email }, ({ portalUrl, expiresAt }) => ({
    to: email,
    subject: `${tenant.name}: your link to withdraw consent`,
    text: `Someone, hopefully you, asked to withdraw consent given to ${tenant.name}.\nOpen this link to see your consent and choose what to withdraw (it works once, until ${expiresAt}):\n${portalUrl}\nIf you did not ask for this, ignore this mail: nothing changes until the link is used.`,
  }));
};

/**
 * The public withdrawal page's request: mail a single-use withdrawal link to an address that has
 * active consent with the tenant. The answer is the same, and no sooner than PORTAL_LINK_MIN_MS,
 * whether or not the address has consent, so the page cannot be used to learn who does; only
 * the owner of the mailbox sees the difference.
 */
export const requestPortalLink = async (input: { tenantSlug: string; email: string }) => {
  const deadline = Date.now() + config.portalLinkMinMs;
  try {
    const tenant = await getTenantBySlug(input.tenantSlug);
    if (!tenant) throw new NotFoundError('Organisation');
    await mailWithdrawalLink(tenant, input.email.trim().toLowerCase());
    return { accepted: true as const };
  } finally {
    await waitUntil(deadline);
  }
};
