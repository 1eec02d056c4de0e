import { createHash } from 'node:crypto';
import { tenantPartition } from '../tenants/keys';

/**
 * Webhook keys. A tenant has a handful of webhooks (the plan limits them), so fan-out reads them
 * all in one Query. A webhook's deliveries are spread over sixteen partitions by a hash of the
 * delivery id (`HOOK#<wid>#<shard>`), sorted by creation in each: a tenant recording 10,000
 * consents a second writes as many deliveries per webhook, which one partition key (~1,000 writes
 * a second) could not take. Deliveries written before the shards stay under the tenant's own
 * partition (`DELIVERY#<wid>#<createdAt>#<did>`), read beside the shards until their TTL (90
 * days) removes them.
 *
 * Access patterns:
 * - webhook by id ............... GetItem PK=TENANT#<tid> SK=WEBHOOK#<wid>
 * - a tenant's webhooks ......... Query   PK=TENANT#<tid> SK begins_with WEBHOOK#      (plan-bounded)
 * - delivery by id .............. GetItem PK=HOOK#<wid>#<shard of did> SK=DELIVERY#<createdAt>#<did>
 * - recorded deliveries of a
 *   fan-out (a replay's check) .. BatchGetItem of their keys, consistent
 * - last 50 deliveries .......... Query   each of the 16 partitions (and the tenant's, for deliveries from before
 *                                 them), SK begins_with DELIVERY#, newest first, Limit 50; merged newest first
 * - open deliveries by due time .. Query   GSI2 DELIVERIES#DUE#<shard 0-3>, SK <nextAttemptAt>#… < cutoff
 *   (sparse: only deliveries waiting for a retry, or queued by a test, carry it; the sweeper reads the four shards)
 * - attempt claim ............... Put     PK=<delivery PK> SK=CLAIM#<delivery SK>#<attempt> (conditional; a
 *   small item of its own, so a claim never rewrites the delivery or its index entry; TTL a day)
 */
export const deliveryShards = 16;

const deliveryShardOf = (deliveryId: string): number => createHash('sha256').update(deliveryId).digest()[0]! % deliveryShards;
const deliveryPartition = (webhookId: string, shard: number) => `HOOK#${webhookId}#${shard.toString(16)}`;

export const webhookKeys = {
  webhook: (tenantId: string, webhookId: string) => ({ PK: tenantPartition(tenantId), SK: `WEBHOOK#${webhookId}` }),
  webhookPrefix: 'WEBHOOK#',
  delivery: (webhookId: string, createdAt: string, deliveryId: string) => ({
    PK: deliveryPartition(webhookId, deliveryShardOf(deliveryId)),
    SK: `${webhookKeys.deliveryPrefix}${createdAt}#${deliveryId}`,
  }),
  deliveryPrefix: 'DELIVERY#',
  /** Where a webhook's deliveries are: each shard, and (deliveries from before the shards) the tenant's partition under a prefix. */
  deliveryRanges: (tenantId: string, webhookId: string): { partition: string; prefix: string }[] => [
    ...Array.from({ length: deliveryShards }, (_, shard) => ({ partition: deliveryPartition(webhookId, shard), prefix: webhookKeys.deliveryPrefix })),
    { partition: tenantPartition(tenantId), prefix: `DELIVERY#${webhookId}#` },
  ],
  attemptClaim: (deliveryKey: { PK: string; SK: string }, attempt: number) => ({ PK: deliveryKey.PK, SK: `CLAIM#${deliveryKey.SK}#${attempt}` }),
  /** Spread over four partitions so a busy service's deliveries do not all write one index key. */
  due: (deliveryId: string, nextAttemptAt: string) => ({
    GSI2PK: webhookKeys.duePartition(parseInt(deliveryId.slice(0, 1), 16) % dueShards),
    GSI2SK: `${nextAttemptAt}#${deliveryId}`,
  }),
  duePartition: (shard: number) => `DELIVERIES#DUE#${shard}`,
};

export const dueShards = 4;
