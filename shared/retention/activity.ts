import { clock, dayMs } from '../clock';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '../db/commands';
import { db, tableName } from '../db/client';
import { ValidationError } from '../errors';
import { instanceCache } from '../instance-cache';
import { activityItemType, retentionKeys } from './keys';

/**
 * A principal's last activity: when she last approached the tenant for a purpose or exercised her
 * rights (rule 8(1)), the start of every LAST_ACTIVITY retention period. It comes from the tenant
 * (POST /principals/activity: a log-in, a contact) and from the service itself (a consent, a
 * withdrawal: activity-consumer.ts). Coalesced to one write per principal per UTC day (keys.ts).
 */
export interface Activity {
  identifierHash: string;
  at: string;
}

const dayOf = (iso: string) => iso.slice(0, 10);
const dayStart = (iso: string) => `${dayOf(iso)}T00:00:00.000Z`;

/** The day each principal's activity was last written or seen written, per instance (a day at most). */
const written = instanceCache<string>(50_000, () => dayMs);
const cacheKey = (tenantId: string, identifierHash: string) => `${tenantId}#${identifierHash}`;

/**
 * Records one activity: written when the stored one is from an earlier UTC day (or absent), so a
 * later time of the same day is not written and an earlier day never replaces a later one.
 * Answers whether it wrote.
 */
export const touchActivity = async (tenantId: string, activity: Activity, options: { reindex?: boolean } = {}): Promise<boolean> => {
  const key = cacheKey(tenantId, activity.identifierHash);
  const day = dayOf(activity.at);
  const seen = written.get(key);
  if (seen !== undefined && seen >= day) {
    if (options.reindex) await ensureIndexed(tenantId, activity.identifierHash);
    return false;
  }
  // A principal not in the due index enters it now, so the sweep looks at her (a principal already in it keeps her time).
  const index = retentionKeys.due(tenantId, activity.identifierHash, clock.now().toISOString());
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: retentionKeys.activity(tenantId, activity.identifierHash),
        UpdateExpression: 'SET #type = :type, tenantId = :tenant, identifierHash = :hash, lastActivityAt = :at, GSI2PK = if_not_exists(GSI2PK, :duePk), GSI2SK = if_not_exists(GSI2SK, :dueSk)',
        ConditionExpression: 'attribute_not_exists(lastActivityAt) OR lastActivityAt < :dayStart',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': activityItemType, ':tenant': tenantId, ':hash': activity.identifierHash, ':at': activity.at, ':dayStart': dayStart(activity.at), ':duePk': index.GSI2PK, ':dueSk': index.GSI2SK },
        ReturnValues: 'ALL_NEW',
      }),
    );
    // She was told her data would be erased: the sweep looks at her now, and logs the cancellation.
    if (Attributes?.state === 'NOTICE_SENT') await checkNow(tenantId, activity.identifierHash);
    written.reload(key, async () => day);
    return true;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    written.reload(key, async () => day);
    if (options.reindex) await ensureIndexed(tenantId, activity.identifierHash);
    return false;
  }
};

/**
 * Puts a principal who left the due index back in it, at now: a decision (a new consent, a
 * withdrawal) can start a CONSENT or WITHDRAWAL clock on a day whose activity was already written.
 * One write per decision (refused, and so still 1 WCU, when she is in the index).
 */
const ensureIndexed = async (tenantId: string, identifierHash: string) => {
  const index = retentionKeys.due(tenantId, identifierHash, clock.now().toISOString());
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: retentionKeys.activity(tenantId, identifierHash),
        UpdateExpression: 'SET GSI2PK = :pk, GSI2SK = :sk',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(GSI2PK)',
        ExpressionAttributeValues: { ':pk': index.GSI2PK, ':sk': index.GSI2SK },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
};

/** Moves a principal's place in the due index to now. */
const checkNow = async (tenantId: string, identifierHash: string) => {
  const now = clock.now().toISOString();
  const index = retentionKeys.due(tenantId, identifierHash, now);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: retentionKeys.activity(tenantId, identifierHash),
      UpdateExpression: 'SET nextAt = :now, GSI2PK = :pk, GSI2SK = :sk',
      ExpressionAttributeValues: { ':now': now, ':pk': index.GSI2PK, ':sk': index.GSI2SK },
    }),
  );
};

/** At most this many writes in flight per request: a batch of 1,000 is not 1,000 requests at once. */
const concurrency = 25;

/**
 * A batch from the tenant's server: the latest time per principal (the others would be coalesced
 * anyway), none in the future (400 naming the item). Answers how many were accepted and how many
 * moved a principal's last activity on.
 */
export const recordActivities = async (tenantId: string, activities: readonly Activity[]) => {
  const now = clock.now().getTime();
  const future = activities.flatMap((activity, index) => (new Date(activity.at).getTime() > now ? [`activities[${index}].at`] : []));
  if (future.length > 0) throw new ValidationError(Object.fromEntries(future.map((field) => [field, 'may not be in the future'])));
  const latest = new Map<string, Activity>();
  for (const activity of activities) {
    const at = new Date(activity.at).toISOString();
    const known = latest.get(activity.identifierHash);
    if (!known || known.at < at) latest.set(activity.identifierHash, { identifierHash: activity.identifierHash, at });
  }
  const queue = [...latest.values()];
  let recorded = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) if (await touchActivity(tenantId, next)) recorded += 1;
    }),
  );
  return { accepted: activities.length, principals: latest.size, recorded };
};

/** The principal's last activity, or null (read strongly consistent: the sweep decides on it). */
export const lastActivityOf = async (tenantId: string, identifierHash: string): Promise<string | null> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: retentionKeys.activity(tenantId, identifierHash), ConsistentRead: true }));
  return typeof Item?.lastActivityAt === 'string' ? Item.lastActivityAt : null;
};
