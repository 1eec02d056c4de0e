import { GetCommand } from '../db/commands';
import { db, tableName } from '../db/client';
import { entityOf } from '../db/item';
import { queryAll } from '../db/query';
import type { NamedItem } from '../db/transact';
import { ConflictError } from '../errors';
import { renderPublicBody, type CmpDocument } from './document';
import { cmpKeys } from './keys';
import type { CmpSettings } from './visitor-store';

/** Another change landed between our read and our write; the caller re-reads and re-applies. */
export class RevisionMovedError extends ConflictError {
  constructor(cause?: unknown) {
    super('The cookie-consent configuration was changed by another request; retry', cause);
  }
}

/** The document back from its stored public body (which leaves out `configured`). */
const documentOf = (body: unknown, configured: boolean): CmpDocument => ({
  ...(JSON.parse(String(body)) as { data: Omit<CmpDocument, 'configured'> }).data,
  configured,
});

/** The document to change, read strongly consistent so the revision check sees the latest write. */
export const readDocument = async (tenantId: string): Promise<CmpDocument | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: cmpKeys.publicDocument(tenantId), ConsistentRead: true }));
  return Item ? documentOf(Item.body, Item.configured === true) : undefined;
};

/** A document as it stood at a revision: the evidence of what a banner showed. */
export const readRevision = async (tenantId: string, revision: number): Promise<CmpDocument | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: cmpKeys.revision(tenantId, revision) }));
  return Item ? documentOf(Item.body, true) : undefined;
};

/**
 * The items that write `next` if the stored revision is still `next.revision - 1`: the document,
 * its immutable snapshot and, once configured, the small settings item, for one transaction
 * (with other items, when a change of the tenant's words rides along).
 */
export const documentItems = (next: CmpDocument, body: ReturnType<typeof renderPublicBody>): NamedItem[] => {
  const previous = next.revision - 1;
  // Another save landed first: the caller re-reads and tries again.
  const revisionMoved = () => new RevisionMovedError();
  const items: NamedItem[] = [
    {
      name: 'public document',
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...cmpKeys.publicDocument(next.tenantId), type: 'CmpDocument', ...body, configured: next.configured, revision: next.revision, updatedAt: next.updatedAt },
          ...(previous === 0
            ? { ConditionExpression: 'attribute_not_exists(PK)' }
            : { ConditionExpression: 'revision = :previous', ExpressionAttributeValues: { ':previous': previous } }),
        },
      },
      onConditionFailure: revisionMoved,
    },
    {
      name: 'revision snapshot',
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...cmpKeys.revision(next.tenantId, next.revision), type: 'CmpRevision', body: body.body, etag: body.etag, createdAt: next.updatedAt },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      onConditionFailure: revisionMoved,
    },
  ];
  if (next.configured) {
    const settings: CmpSettings = { tenantId: next.tenantId, revision: next.revision, reconsentDays: next.reconsentDays };
    items.push({ name: 'settings', item: { Put: { TableName: tableName(), Item: { ...cmpKeys.settings(next.tenantId), type: 'CmpSettings', ...settings } } } });
  }
  return items;
};

/** Daily counter items between two UTC days, inclusive; days without events have no item. */
export const readDailyCounters = async (tenantId: string, fromDay: string, toDay: string): Promise<Map<string, Record<string, number>>> => {
  const from = cmpKeys.daily(tenantId, fromDay);
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': from.PK, ':from': from.SK, ':to': cmpKeys.daily(tenantId, toDay).SK },
  });
  return new Map(items.map((item) => [cmpKeys.dayOf(String(item.SK)), entityOf<Record<string, number>>(item)]));
};
