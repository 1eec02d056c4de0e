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
export const touchActivity = async (tenantId: string, activity: Activity): Promise<boolean> => {
  const key = cacheKey(tenantId, activity.identifierHash);
  const day = dayOf(activity.at);
  const seen = written.get(key);
  if (seen !== undefined && seen >= day) return false;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: retentionKeys.activity(tenantId, activity.identifierHash),
        UpdateExpression: 'SET #type = :type, tenantId = :tenant, identifierHash = :hash, lastActivityAt = :at',
        ConditionExpression: 'attribute_not_exists(lastActivityAt) OR lastActivityAt < :dayStart',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': activityItemType, ':tenant': tenantId, ':hash': activity.identifierHash, ':at': activity.at, ':dayStart': dayStart(activity.at) },
      }),
    );
    written.reload(key, async () => day);
    return true;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    written.reload(key, async () => day);
    return false;
  }
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
