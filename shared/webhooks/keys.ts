import { tenantPartition } from '../tenants/keys';

/**
 * Webhook keys. A tenant has a handful of webhooks (the plan limits them), so fan-out reads them
 * all in one Query. Deliveries sort by creation under their webhook.
 *
 * Access patterns:
 * - webhook by id ............... GetItem PK=TENANT#<tid> SK=WEBHOOK#<wid>
 * - a tenant's webhooks ......... Query   PK=TENANT#<tid> SK begins_with WEBHOOK#      (plan-bounded)
 * - delivery by id .............. GetItem PK=TENANT#<tid> SK=DELIVERY#<wid>#<createdAt>#<did>
 * - last 50 deliveries .......... Query   PK=TENANT#<tid> SK begins_with DELIVERY#<wid>#, newest first, Limit 50
 * - open deliveries by due time .. Query   GSI2 DELIVERIES#DUE#<shard 0-3>, SK <nextAttemptAt>#… < cutoff
 *   (sparse: only PENDING and RETRYING deliveries carry it; the sweeper reads the four shards)
 * - attempt claim ............... Put     PK=TENANT#<tid> SK=CLAIM#<delivery SK>#<attempt> (conditional; a
 *   small item of its own, so a claim never rewrites the delivery or its index entry; TTL a day)
 */
export const webhookKeys = {
  webhook: (tenantId: string, webhookId: string) => ({ PK: tenantPartition(tenantId), SK: `WEBHOOK#${webhookId}` }),
  webhookPrefix: 'WEBHOOK#',
  delivery: (tenantId: string, webhookId: string, createdAt: string, deliveryId: string) => ({
    PK: tenantPartition(tenantId),
    SK: `DELIVERY#${webhookId}#${createdAt}#${deliveryId}`,
  }),
  deliveryPrefix: (webhookId: string) => `DELIVERY#${webhookId}#`,
  attemptClaim: (deliveryKey: { PK: string; SK: string }, attempt: number) => ({ PK: deliveryKey.PK, SK: `CLAIM#${deliveryKey.SK}#${attempt}` }),
  /** Spread over four partitions so a busy service's deliveries do not all write one index key. */
  due: (deliveryId: string, nextAttemptAt: string) => ({
    GSI2PK: webhookKeys.duePartition(parseInt(deliveryId.slice(0, 1), 16) % dueShards),
    GSI2SK: `${nextAttemptAt}#${deliveryId}`,
  }),
  duePartition: (shard: number) => `DELIVERIES#DUE#${shard}`,
};

export const dueShards = 4;
