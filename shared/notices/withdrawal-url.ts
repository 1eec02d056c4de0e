import { nowIso } from '../clock';
import { tableName } from '../db/client';
import { queryPrefix } from '../db/query';
import { ConflictError } from '../errors';
import { newId } from '../ids';
import { tenantPartition } from '../tenants/keys';
import { noticeKeys } from './keys';
import { noticeView } from './views';
import { consentCountOf, readStats } from '../consent/store';
import { requireNotice, runNoticeTransaction } from './store';
import { tenantPortalPageUrl } from '../consent/portal-urls';
import { requireTenant } from '../tenants/store';
import type { TransactItem } from '../db/transact';

/**
 * Changes where people go to withdraw, also on a PUBLISHED notice: it is a route, not part of
 * what they agreed to, so no new version is made. The published notice, its public document
 * and an audit item (who, when, old, new) change in one transaction.
 */
export const setWithdrawalUrl = async (tenantId: string, noticeId: string, withdrawalUrl: string | null, actorUserId: string) => {
  const notice = await requireNotice(tenantId, noticeId, true);
  if (notice.status === 'ARCHIVED') throw new ConflictError('Notice is ARCHIVED; its withdrawal URL is kept as it was');
  const at = nowIso();
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: noticeKeys.notice(tenantId, noticeId),
        UpdateExpression: 'SET withdrawalUrl = :url, updatedAt = :at, revision = revision + :one',
        ConditionExpression: '#status = :status AND revision = :revision',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':url': withdrawalUrl, ':at': at, ':one': 1, ':status': notice.status, ':revision': notice.revision },
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...noticeKeys.audit(tenantId, noticeId, at, newId()),
          type: 'NoticeAudit',
          action: 'WITHDRAWAL_URL_CHANGED',
          noticeId,
          actorUserId,
          at,
          oldValue: notice.withdrawalUrl,
          newValue: withdrawalUrl,
        },
      },
    },
  ];
  if (notice.status === 'PUBLISHED') {
    items.push({
      Update: {
        TableName: tableName(),
        Key: noticeKeys.publicDocument(tenantId),
        UpdateExpression: 'SET #document.withdrawalUrl = :url',
        ConditionExpression: 'noticeId = :notice',
        ExpressionAttributeNames: { '#document': 'document' },
        // Cleared, the notice falls back to the service's portal, as it would at publish.
        ExpressionAttributeValues: { ':url': withdrawalUrl ?? tenantPortalPageUrl((await requireTenant(tenantId)).slug), ':notice': noticeId },
      },
    });
  }
  await runNoticeTransaction(items, () => new ConflictError('Notice changed while its withdrawal URL was being set; retry'));
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
