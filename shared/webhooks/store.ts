import { GetCommand, PutCommand, QueryCommand } from '../db/commands';
import { batchGetAll, batchWriteAll } from '../db/batch';
import { db, tableName } from '../db/client';
import { entityOf } from '../db/item';
import { conditional, conflict, isConditionFailure } from '../db/errors';
import { named, writeTransaction } from '../db/transact';
import { queryPrefix } from '../db/query';
import { AppError, NotFoundError } from '../errors';
import { tenantPartition } from '../tenants/keys';
import { countAgainstPlan, releasePlanCount } from '../tenants/plan-limits';
import { deliveryItem, deliveryOf } from './delivery-item';
import { webhookKeys } from './keys';
import type { Delivery, Webhook } from './webhook';


/** A new webhook counts against the plan's webhook limit in the same transaction. */
export const insertWebhook = async (webhook: Webhook): Promise<void> => {
  await writeTransaction([
    countAgainstPlan(webhook.tenantId, 'webhookCount', 'webhooks', "The tenant has reached its plan's webhook limit"),
    {
      name: 'webhook',
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...webhookKeys.webhook(webhook.tenantId, webhook.webhookId), type: 'Webhook', ...webhook },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      onConditionFailure: () => new AppError('CONFLICT', 'Webhook id collision'),
    },
  ]);
};

export const getWebhook = async (tenantId: string, webhookId: string): Promise<Webhook | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: webhookKeys.webhook(tenantId, webhookId), ConsistentRead: true }));
  return Item ? entityOf<Webhook>(Item) : undefined;
};

export const requireWebhook = async (tenantId: string, webhookId: string): Promise<Webhook> => {
  const webhook = await getWebhook(tenantId, webhookId);
  if (!webhook) throw new NotFoundError('Webhook');
  return webhook;
};

export const listWebhooks = async (tenantId: string): Promise<Webhook[]> =>
  (await queryPrefix(tenantPartition(tenantId), webhookKeys.webhookPrefix)).map((item) => entityOf<Webhook>(item));

/** Replaces a webhook, only if it still exists and nobody changed it since it was read. */
export const replaceWebhook = async (webhook: Webhook, previousUpdatedAt: string): Promise<void> => {
  await conditional(
    () =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...webhookKeys.webhook(webhook.tenantId, webhook.webhookId), type: 'Webhook', ...webhook },
          ConditionExpression: 'attribute_exists(PK) AND updatedAt = :previous',
          ExpressionAttributeValues: { ':previous': previousUpdatedAt },
        }),
      ),
    conflict('The webhook was changed by another request; reload and retry'),
  );
};

/** Every delivery item of a webhook, in each of its partitions (test, deletion). */
const allDeliveryItems = async (tenantId: string, webhookId: string) =>
  (await Promise.all(webhookKeys.deliveryRanges(tenantId, webhookId).map(({ partition, prefix }) => queryPrefix(partition, prefix)))).flat();

/** Deletes the webhook (freeing its place in the plan), then its delivery history. */
export const deleteWebhookAndDeliveries = async (tenantId: string, webhookId: string): Promise<void> => {
  await writeTransaction([
    {
      name: 'webhook',
      item: { Delete: { TableName: tableName(), Key: webhookKeys.webhook(tenantId, webhookId), ConditionExpression: 'attribute_exists(PK)' } },
      onConditionFailure: () => new NotFoundError('Webhook'),
    },
    named('plan counter', releasePlanCount(tenantId, 'webhookCount')),
  ]);
  // A crash here leaves deliveries of a deleted webhook: unreachable (their webhook is 404) and
  // removed by TTL. The worker drops messages whose webhook is gone.
  const deliveries = await allDeliveryItems(tenantId, webhookId);
  await batchWriteAll(deliveries.map((item) => ({ DeleteRequest: { Key: { PK: item.PK, SK: item.SK } } })));
};

/**
 * The newest `limit` deliveries of a webhook: the newest `limit` of each of its partitions, read in
 * parallel, merged newest first (17 queries, each of at most `limit` items under 1 KB).
 */
export const lastDeliveries = async (tenantId: string, webhookId: string, limit = 50): Promise<Delivery[]> => {
  const pages = await Promise.all(
    webhookKeys.deliveryRanges(tenantId, webhookId).map(async ({ partition, prefix }) => {
      const { Items = [] } = await db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          ExpressionAttributeValues: { ':pk': partition, ':prefix': prefix },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      return Items.map(deliveryOf);
    }),
  );
  const newestFirst = (a: Delivery, b: Delivery) => b.createdAt.localeCompare(a.createdAt) || b.deliveryId.localeCompare(a.deliveryId);
  return pages.flat().sort(newestFirst).slice(0, limit);
};

/** A delivery as stored now (strongly consistent), or undefined. */
export const getDelivery = async (key: { PK: string; SK: string }): Promise<Delivery | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return Item ? deliveryOf(Item) : undefined;
};

/** Which of these deliveries are stored already (a fan-out replayed after its first run recorded them), by `PK|SK`. */
export const storedDeliveries = async (keys: readonly { PK: string; SK: string }[]): Promise<Set<string>> =>
  new Set((await batchGetAll(keys, { consistent: true })).map((item) => `${String(item.PK)}|${String(item.SK)}`));

/** Writes a delivery unless it exists: false when another fan-out of the same event recorded it first. */
export const putDeliveryOnce = async (delivery: Delivery): Promise<boolean> => {
  try {
    await db().send(new PutCommand({ TableName: tableName(), Item: deliveryItem(delivery), ConditionExpression: 'attribute_not_exists(PK)' }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};
