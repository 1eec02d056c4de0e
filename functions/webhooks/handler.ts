import { createGroupHandler } from '../../shared/http/handler';
import { webhookRoutes } from '../../shared/http/routes/webhooks';
import { created, ok } from '../../shared/http/operation';
import { createWebhook, deleteWebhook, listWebhooks, testWebhook, updateWebhook, webhookDeliveries } from '../../shared/webhooks/service';

export const handler = createGroupHandler('webhooks', webhookRoutes, {
  listWebhooks: async ({ caller }) => ok(await listWebhooks(caller.tenantId)),
  createWebhook: async ({ caller, body }) => created(await createWebhook(caller.tenantId, body)),
  updateWebhook: async ({ caller, params, body }) => ok(await updateWebhook(caller.tenantId, params.id, body)),
  deleteWebhook: async ({ caller, params }) => ok(await deleteWebhook(caller.tenantId, params.id)),
  listWebhookDeliveries: async ({ caller, params }) => ok(await webhookDeliveries(caller.tenantId, params.id)),
  testWebhook: async ({ caller, params }) => ok(await testWebhook(caller.tenantId, params.id)),
});
