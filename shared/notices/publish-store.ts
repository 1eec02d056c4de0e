import { tableName } from '../db/client';
import { named, writeTransaction, type NamedItem } from '../db/transact';
import { ConflictError } from '../errors';
import { newEvent, outboxPut } from '../events/outbox';
import { noticeKeys } from './keys';
import type { Notice, NoticeSnapshot } from './notice';
import type { ActivePointer } from './store';

export interface PublishCommit {
  notice: Notice;
  snapshot: NoticeSnapshot;
  /** The lineage's last version number before this one (0 for a first version). */
  lastVersion: number;
  /** The notice live until now, if any; it is archived in the same transaction. */
  active: ActivePointer | undefined;
  activePointer: ActivePointer;
  publicDocument: Record<string, unknown>;
  materialChangeDetected: boolean;
  at: string;
}

const raced = () => new ConflictError('Another notice was published at the same time; reload and retry');

/**
 * Publishing, all or nothing: the draft becomes PUBLISHED (only at the revision that was read),
 * the version snapshot and lineage counter, the active pointer, the public document, the event,
 * and the replaced notice ARCHIVED. Each item says which race it lost.
 */
export const commitPublish = (commit: PublishCommit): Promise<void> => {
  const { notice, snapshot, lastVersion, active, at } = commit;
  const { tenantId, noticeId } = notice;
  const versionNumber = snapshot.versionNumber;
  const items: NamedItem[] = [
    {
      name: 'draft',
      item: {
        Update: {
          TableName: tableName(),
          Key: noticeKeys.notice(tenantId, noticeId),
          UpdateExpression: 'SET #status = :published, versionNumber = :version, publishedAt = :at, updatedAt = :at',
          ConditionExpression: '#status = :draft AND revision = :revision',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':published': 'PUBLISHED', ':draft': 'DRAFT', ':version': versionNumber, ':at': at, ':revision': notice.revision },
        },
      },
      onConditionFailure: () => new ConflictError('Notice was changed or published by another request; reload and retry'),
    },
    {
      name: 'lineage',
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...noticeKeys.lineage(tenantId, notice.lineageId), type: 'NoticeLineage', lastVersion: versionNumber },
          ConditionExpression: lastVersion === 0 ? 'attribute_not_exists(PK)' : 'lastVersion = :last',
          ...(lastVersion === 0 ? {} : { ExpressionAttributeValues: { ':last': lastVersion } }),
        },
      },
      onConditionFailure: raced,
    },
    {
      name: 'version',
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...noticeKeys.version(tenantId, notice.lineageId, versionNumber), type: 'NoticeVersion', snapshot },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      onConditionFailure: raced,
    },
    {
      name: 'active pointer',
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...noticeKeys.activePointer(tenantId), type: 'ActiveNotice', ...commit.activePointer },
          ConditionExpression: active ? 'noticeId = :previous' : 'attribute_not_exists(PK)',
          ...(active ? { ExpressionAttributeValues: { ':previous': active.noticeId } } : {}),
        },
      },
      onConditionFailure: raced,
    },
    named('public document', {
      Put: {
        TableName: tableName(),
        Item: { ...noticeKeys.publicDocument(tenantId), type: 'PublicNotice', noticeId, versionNumber, document: commit.publicDocument },
      },
    }),
    named(
      'event',
      outboxPut(newEvent(tenantId, 'notice.published', { noticeId, lineageId: notice.lineageId, versionNumber, materialChangeDetected: commit.materialChangeDetected, publishedAt: at })),
    ),
  ];
  if (active && active.noticeId !== noticeId) {
    items.push({
      name: 'replaced notice',
      item: {
        Update: {
          TableName: tableName(),
          Key: noticeKeys.notice(tenantId, active.noticeId),
          UpdateExpression: 'SET #status = :archived, archivedAt = :at, updatedAt = :at',
          ConditionExpression: '#status = :published',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':archived': 'ARCHIVED', ':published': 'PUBLISHED', ':at': at },
        },
      },
      onConditionFailure: raced,
    });
  }
  return writeTransaction(items);
};
