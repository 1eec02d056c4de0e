import { GetCommand, QueryCommand } from '../../shared/db/commands';
import { consentKeys } from '../../shared/consent/keys';
import { db, tableName } from '../../shared/db/client';
import { readHead, type LogHead } from '../../shared/evidence/log-store';
import type { StreamChange } from '../../shared/stream/change';

/** Log positions the tenant's record counters have counted (`countedTo`, evidence/log-counts.ts). */
const countedTo = async (tenantId: string): Promise<number> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: consentKeys.stats(tenantId), ConsistentRead: true }));
  return typeof Item?.countedTo === 'number' ? Item.countedTo : 0;
};

/**
 * Waits until the tenant's log holds `entries` entries (records plus withdrawals), the record
 * counters have counted them (the sequencer writes those beside the batch, not with it, so a
 * count read straight after the batch may still be behind) and, unless `signed` is false, a signed
 * checkpoint covers them: the stream reader and the checkpoint loop of the local workers do that
 * within a second or two.
 */
export const waitForLog = async (tenantId: string, entries: number, options: { signed?: boolean; timeoutMs?: number } = {}): Promise<LogHead> => {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const head = await readHead(tenantId);
    const counted = head.integrated < entries || (await countedTo(tenantId)) >= entries;
    if (head.integrated >= entries && counted && (options.signed === false || (head.checkpoint?.treeSize ?? 0) >= entries)) return head;
    if (Date.now() > deadline) throw new Error(`log of ${tenantId}: ${JSON.stringify({ ...head, checkpoint: head.checkpoint?.treeSize, countedTo: await countedTo(tenantId) })} after waiting for ${entries}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** The INSERT changes the stream carried for these items, rebuilt from the table (to replay them). */
export const insertsOf = async (keys: { PK: string; SK: string }[]): Promise<StreamChange[]> =>
  Promise.all(
    keys.map(async (key, index) => {
      const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
      return { eventName: 'INSERT' as const, sequenceNumber: String(index), keys: key, newImage: Item };
    }),
  );

/** Every item of a tenant's partition whose sort key starts with `prefix`. */
export const itemsWithPrefix = async (partition: string, prefix: string) => {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': partition, ':prefix': prefix }, ExclusiveStartKey: startKey, ConsistentRead: true }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
};


/** Every record item of a tenant, in each of its record partitions (the shards and, for records from before them, its own). */
export const recordItemsOf = async (tenantId: string) =>
  (await Promise.all(consentKeys.recordPartitions(tenantId).map((partition) => itemsWithPrefix(partition, consentKeys.recordPrefix)))).flat();
