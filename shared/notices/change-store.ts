import { tableName } from '../db/client';
import { writeTransaction, type NamedItem, type TransactItem } from '../db/transact';
import { ConflictError } from '../errors';
import { releasePlanCount } from '../tenants/plan-limits';
import { noticeKeys } from './keys';
import type { Notice } from './notice';

/**
 * Changes of one notice after it was read. Every item of such a change guards the notice as it was
 * read, so any failed condition means the notice changed underneath: a CONFLICT worth a retry.
 */
const guarded = (name: string, item: TransactItem, changed: () => ConflictError): NamedItem => ({ name, item, onConditionFailure: changed });

const archiveConflict = () => new ConflictError('Notice changed while it was being archived; retry');

/** A draft goes only while still a draft: consent is only ever recorded against a published notice, so a draft has no records. */
export const draftDelete = (notice: Notice): TransactItem => ({
  Delete: {
    TableName: tableName(),
    Key: noticeKeys.notice(notice.tenantId, notice.noticeId),
    ConditionExpression: '#status = :draft',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':draft': 'DRAFT' },
  },
});

/** Deletes a draft, freeing its place in the plan's notice limit. */
export const deleteDraft = (notice: Notice): Promise<void> =>
  writeTransaction([
    guarded('draft', draftDelete(notice), archiveConflict),
    guarded('plan counter', releasePlanCount(notice.tenantId, 'noticeCount'), archiveConflict),
  ]);

export const archiveUpdate = (tenantId: string, noticeId: string, at: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: noticeKeys.notice(tenantId, noticeId),
    UpdateExpression: 'SET #status = :archived, archivedAt = :now, updatedAt = :now',
    ConditionExpression: '#status = :published',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':archived': 'ARCHIVED', ':published': 'PUBLISHED', ':now': at },
  },
});

/** The published-notice pointer goes only if it still points at this notice. */
export const activePointerDelete = (tenantId: string, noticeId: string): TransactItem => ({
  Delete: {
    TableName: tableName(),
    Key: noticeKeys.activePointer(tenantId),
    ConditionExpression: 'noticeId = :notice',
    ExpressionAttributeValues: { ':notice': noticeId },
  },
});

export const publicDocumentDelete = (tenantId: string): TransactItem => ({
  Delete: { TableName: tableName(), Key: noticeKeys.publicDocument(tenantId) },
});

/** A published notice becomes ARCHIVED, with its pointer and public document gone, so the widget never serves it again. */
export const archivePublished = (tenantId: string, noticeId: string, at: string): Promise<void> =>
  writeTransaction([
    guarded('notice', archiveUpdate(tenantId, noticeId, at), archiveConflict),
    guarded('active pointer', activePointerDelete(tenantId, noticeId), archiveConflict),
    guarded('public document', publicDocumentDelete(tenantId), archiveConflict),
  ]);

/** The notice's withdrawal URL, only from the status and revision that were read. */
export const withdrawalUrlUpdate = (notice: Notice, withdrawalUrl: string | null, at: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: noticeKeys.notice(notice.tenantId, notice.noticeId),
    UpdateExpression: 'SET withdrawalUrl = :url, updatedAt = :at, revision = revision + :one',
    ConditionExpression: '#status = :status AND revision = :revision',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':url': withdrawalUrl, ':at': at, ':one': 1, ':status': notice.status, ':revision': notice.revision },
  },
});

export interface NoticeAudit {
  auditId: string;
  action: 'WITHDRAWAL_URL_CHANGED';
  actorUserId: string;
  at: string;
  oldValue: string | null | undefined;
  newValue: string | null;
}

export const auditPut = (tenantId: string, noticeId: string, audit: NoticeAudit): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...noticeKeys.audit(tenantId, noticeId, audit.at, audit.auditId),
      type: 'NoticeAudit',
      action: audit.action,
      noticeId,
      actorUserId: audit.actorUserId,
      at: audit.at,
      oldValue: audit.oldValue,
      newValue: audit.newValue,
    },
  },
});

/** The public document's withdrawal URL, only while the document is still this notice's. */
export const publicWithdrawalUrlUpdate = (tenantId: string, noticeId: string, url: string | null): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: noticeKeys.publicDocument(tenantId),
    UpdateExpression: 'SET #document.withdrawalUrl = :url',
    ConditionExpression: 'noticeId = :notice',
    ExpressionAttributeNames: { '#document': 'document' },
    ExpressionAttributeValues: { ':url': url, ':notice': noticeId },
  },
});

/**
 * The notice's withdrawal URL with its audit item and, for a published notice, the URL its public
 * document serves (`publicDocument`, only for a published notice), in one transaction.
 */
export const changeWithdrawalUrl = (notice: Notice, withdrawalUrl: string | null, audit: NoticeAudit, publicDocument?: { url: string | null }): Promise<void> => {
  const changed = () => new ConflictError('Notice changed while its withdrawal URL was being set; retry');
  return writeTransaction([
    guarded('notice', withdrawalUrlUpdate(notice, withdrawalUrl, audit.at), changed),
    guarded('audit', auditPut(notice.tenantId, notice.noticeId, audit), changed),
    ...(publicDocument ? [guarded('public document', publicWithdrawalUrlUpdate(notice.tenantId, notice.noticeId, publicDocument.url), changed)] : []),
  ]);
};
