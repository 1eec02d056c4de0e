import { GetCommand, UpdateCommand } from '../db/commands';
import { batchGetAll } from '../db/batch';
import { db, tableName } from '../db/client';
import { checkedEntityOf, entityOf, soundEntitiesOf, type RequiredShape } from '../db/item';
import { isConditionFailure } from '../db/errors';
import { queryPrefix } from '../db/query';
import { writeTransaction } from '../db/transact';
import { AppError, ConflictError, NotFoundError } from '../errors';
import { tenantPartition } from '../tenants/keys';
import { countAgainstPlan } from '../tenants/plan-limits';
import { noticeKeys } from './keys';
import type { Notice, NoticeSnapshot } from './notice';


/**
 * The tenant's published notice, with what recording a consent against it needs, so that the
 * consent write path reads one small item instead of the notice and its snapshot.
 */
export interface ActivePointer {
  noticeId: string;
  lineageId: string;
  versionNumber: number;
  title: string;
  purposes: { id: string; required: boolean }[];
  /** Hash of the exact text shown, per language that can be shown. */
  textHashes: Record<string, string>;
}


/** What a notice cannot be shown, listed or published without (notice.ts). */
const noticeShape: RequiredShape = {
  noticeId: 'string',
  lineageId: 'string',
  status: 'string',
  title: 'string',
  introText: 'string',
  contactEmail: 'string',
  rightsText: 'string',
  complaintText: 'string',
  purposeIds: 'array',
  purposeConfig: 'array',
  revision: 'number',
  createdAt: 'string',
};
const noticeOf = (item: Record<string, unknown>): Notice => checkedEntityOf<Notice>(item, noticeShape, 'Notice', 'noticeId');

export const getNotice = async (tenantId: string, noticeId: string, consistent = false): Promise<Notice | undefined> => {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: noticeKeys.notice(tenantId, noticeId), ConsistentRead: consistent }),
  );
  return Item ? noticeOf(Item) : undefined;
};

export const requireNotice = async (tenantId: string, noticeId: string, consistent = false): Promise<Notice> => {
  const notice = await getNotice(tenantId, noticeId, consistent);
  if (!notice) throw new NotFoundError('Notice');
  return notice;
};

/** The notice, read strongly, if it is still a DRAFT: anything else cannot be changed (409). */
export const requireDraft = async (tenantId: string, noticeId: string): Promise<Notice> => {
  const notice = await requireNotice(tenantId, noticeId, true);
  if (notice.status !== 'DRAFT') throw new ConflictError(`Notice is ${notice.status}; only a DRAFT can be changed`);
  return notice;
};

export const listNotices = async (tenantId: string): Promise<Notice[]> =>
  soundEntitiesOf<Notice>(await queryPrefix(tenantPartition(tenantId), noticeKeys.noticePrefix), noticeShape, 'Notice');

/** A new notice counts against the plan's notice limit in the same transaction. */
export const insertNotice = async (notice: Notice): Promise<void> => {
  await writeTransaction([
    countAgainstPlan(notice.tenantId, 'noticeCount', 'notices', "The tenant has reached its plan's notice limit"),
    {
      name: 'notice',
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...noticeKeys.notice(notice.tenantId, notice.noticeId), type: 'Notice', ...notice },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      onConditionFailure: () => new ConflictError('Notice id collision'),
    },
  ]);
};

/** Explains a failed draft-only write: the notice is gone (404) or no longer a draft (409). */
const draftWriteFailed = async (tenantId: string, noticeId: string, cause: unknown): Promise<AppError> => {
  const current = await getNotice(tenantId, noticeId, true);
  if (!current) return new NotFoundError('Notice', cause);
  if (current.status !== 'DRAFT') return new ConflictError(`Notice is ${current.status}; only a DRAFT can be changed`, cause);
  return new ConflictError('Notice was changed by another request; reload and retry', cause);
};

/**
 * Writes a draft: SET the given attributes and REMOVE the given ones, only while it is still a
 * DRAFT at the revision the caller read, and bumps the revision.
 */
export const writeDraft = async (
  tenantId: string,
  noticeId: string,
  expectedRevision: number,
  changes: { set: Record<string, unknown>; remove?: string[]; extraCondition?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> } },
): Promise<Notice> => {
  const names: Record<string, string> = { '#status': 'status', '#revision': 'revision', ...changes.extraCondition?.names };
  const values: Record<string, unknown> = { ':draft': 'DRAFT', ':expected': expectedRevision, ':one': 1, ...changes.extraCondition?.values };
  const setParts = Object.entries(changes.set).map(([path, value], index) => {
    values[`:s${index}`] = value;
    return `${aliasPath(path, names)} = :s${index}`;
  });
  const removeParts = (changes.remove ?? []).map((path) => aliasPath(path, names));
  const expression = [
    `SET ${[...setParts, '#revision = #revision + :one'].join(', ')}`,
    removeParts.length ? `REMOVE ${removeParts.join(', ')}` : '',
  ].join(' ');
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: noticeKeys.notice(tenantId, noticeId),
        UpdateExpression: expression,
        ConditionExpression: ['#status = :draft AND #revision = :expected', changes.extraCondition?.expression].filter(Boolean).join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return noticeOf(Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error)) throw await draftWriteFailed(tenantId, noticeId, error);
    throw error;
  }
};

/** `translations.HI` → `#p0.#p1`, so any attribute name (reserved words included) is safe. */
const aliasPath = (path: string, names: Record<string, string>): string =>
  path
    .split('.')
    .map((segment) => {
      const existing = Object.entries(names).find(([, name]) => name === segment)?.[0];
      if (existing) return existing;
      const alias = `#n${Object.keys(names).length}`;
      names[alias] = segment;
      return alias;
    })
    .join('.');

/** The pointer item as the domain reads it (sdk-record reads the item in a batch with others). */
export const activePointerOf = (item: Record<string, unknown>): ActivePointer => entityOf<ActivePointer>(item);

export const getActivePointer = async (tenantId: string): Promise<ActivePointer | undefined> => {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: noticeKeys.activePointer(tenantId), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return activePointerOf(Item);
};

export const getLastVersionNumber = async (tenantId: string, lineageId: string): Promise<number> => {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: noticeKeys.lineage(tenantId, lineageId), ConsistentRead: true }),
  );
  return Item ? Number(Item.lastVersion) : 0;
};

/** The latest version number of each of these lineages, in one batched read; unknown lineages are absent. */
export const lastVersionNumbers = async (tenantId: string, lineageIds: readonly string[]): Promise<Map<string, number>> =>
  new Map(
    (await batchGetAll([...new Set(lineageIds)].map((lineageId) => noticeKeys.lineage(tenantId, lineageId)))).map((item) => [
      String(item.SK).slice('LINEAGE#'.length),
      Number(item.lastVersion),
    ]),
  );

export const getVersion = async (tenantId: string, lineageId: string, versionNumber: number): Promise<NoticeSnapshot | undefined> => {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: noticeKeys.version(tenantId, lineageId, versionNumber) }),
  );
  return Item ? (Item.snapshot as NoticeSnapshot) : undefined;
};

export const listVersions = async (tenantId: string, lineageId: string): Promise<NoticeSnapshot[]> =>
  (await queryPrefix(tenantPartition(tenantId), noticeKeys.versionPrefix(lineageId), { newestFirst: true })).map(
    (item) => item.snapshot as NoticeSnapshot,
  );

export const getPublicDocument = async (tenantId: string, consistent = false): Promise<Record<string, unknown> | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: noticeKeys.publicDocument(tenantId), ConsistentRead: consistent }));
  return Item?.document as Record<string, unknown> | undefined;
};
