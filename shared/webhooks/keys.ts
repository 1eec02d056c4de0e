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
 */
export const webhookKeys = {
  webhook: (tenantId: string, webhookId: string) => ({ PK: tenantPartition(tenantId), SK: `WEBHOOK#${webhookId}` }),
  webhookPrefix: 'WEBHOOK#',
  delivery: (tenantId: string, webhookId: string, createdAt: string, deliveryId: string) => ({
    PK: tenantPartition(tenantId),
    SK: `DELIVERY#${webhookId}#${createdAt}#${deliveryId}`,
  }),
  deliveryPrefix: (webhookId: string) => `DELIVERY#${webhookId}#`,
};
