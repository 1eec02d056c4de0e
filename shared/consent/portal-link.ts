import { config } from '../config';
import { NotFoundError } from '../errors';
import { consumeRateLimit } from '../rate-limit/limiter';
import { getTenantBySlug } from '../tenants/store';
import { principalHash } from './principal';
import { principalRecords } from './store';
import { waitUntil } from './withdraw-public';
import { issueWithdrawalToken } from './withdrawal-routes';

/**
 * The public withdrawal page's request: mail a single-use withdrawal link to an address that has
 * active consent with the tenant. The answer is the same, and no sooner than PORTAL_LINK_MIN_MS,
 * whether or not the address has consent, so the page cannot be used to learn who does; only
 * the owner of the mailbox sees the difference. Limited per address (any IP, known or not) on
 * top of the route's per-IP limit, so nobody can flood one mailbox.
 */
export const requestPortalLink = async (input: { tenantSlug: string; email: string }) => {
  const deadline = Date.now() + config.portalLinkMinMs;
  const email = input.email.trim().toLowerCase();
  try {
    const tenant = await getTenantBySlug(input.tenantSlug);
    if (!tenant) throw new NotFoundError('Organisation');
    const hash = principalHash(email);
    await consumeRateLimit(config.limits.portalLinkPerEmail, `${tenant.tenantId}#${hash}`, 'RATE_LIMIT');
    // Newest first: the link is for the notice of the principal's latest consent still in force.
    const active = (await principalRecords(tenant.tenantId, hash)).find((record) => !record.isWithdrawn);
    if (active) {
      // The records were just read: the link is issued for them without reading them again.
      await issueWithdrawalToken({ tenantId: tenant.tenantId, dataPrincipalHash: hash, noticeId: active.noticeId, principalEmail: email }, ({ portalUrl, expiresAt }) => ({
        to: email,
        subject: `${tenant.name}: your link to withdraw consent`,
        text: `Someone, hopefully you, asked to withdraw consent given to ${tenant.name}.\nOpen this link to see your consent and choose what to withdraw (it works once, until ${expiresAt}):\n${portalUrl}\nIf you did not ask for this, ignore this mail: nothing changes until the link is used.`,
      }));
    }
    return { accepted: true as const };
  } finally {
    await waitUntil(deadline);
  }
};
