import { nowIso } from '../clock';
import { queryPrefix } from '../db/query';
import { ConflictError } from '../errors';
import { newId } from '../ids';
import { tenantPartition } from '../tenants/keys';
import { noticeKeys } from './keys';
import { noticeView } from './views';
import { consentCountOf, readStats } from '../consent/store';
import { changeWithdrawalUrl } from './change-store';
import { requireNotice } from './store';
import { tenantPortalPageUrl } from '../consent/portal-urls';
import { requireTenant } from '../tenants/store';

/**
 * Changes where people go to withdraw, also on a PUBLISHED notice: it is a route, not part of
 * what they agreed to, so no new version is made. The published notice, its public document
 * and an audit item (who, when, old, new) change in one transaction.
 */
export const setWithdrawalUrl = async (tenantId: string, noticeId: string, withdrawalUrl: string | null, actorUserId: string) => {
  const notice = await requireNotice(tenantId, noticeId, true);
  if (notice.status === 'ARCHIVED') throw new ConflictError('Notice is ARCHIVED; its withdrawal URL is kept as it was');
  const at = nowIso();
  const audit = { auditId: newId(), action: 'WITHDRAWAL_URL_CHANGED' as const, actorUserId, at, oldValue: notice.withdrawalUrl, newValue: withdrawalUrl };
  // Cleared, the published notice falls back to the service's portal, as it would at publish.
  const publicDocument = notice.status === 'PUBLISHED' ? { url: withdrawalUrl ?? tenantPortalPageUrl((await requireTenant(tenantId)).slug) } : undefined;
  await changeWithdrawalUrl(notice, withdrawalUrl, audit, publicDocument);
  const stats = await readStats(tenantId);
  return noticeView({ ...notice, withdrawalUrl, updatedAt: at, revision: notice.revision + 1 }, consentCountOf(stats, noticeId));
};

export const listNoticeAudit = async (tenantId: string, noticeId: string) => {
  await requireNotice(tenantId, noticeId);
  const items = await queryPrefix(tenantPartition(tenantId), noticeKeys.auditPrefix(noticeId), { newestFirst: true });
  return items.map((item) => ({
    action: String(item.action),
    actorUserId: String(item.actorUserId),
    at: String(item.at),
    oldValue: (item.oldValue ?? null) as string | null,
    newValue: (item.newValue ?? null) as string | null,
  }));
};
