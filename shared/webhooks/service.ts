import type * as z from 'zod/mini';
import { nowIso } from '../clock';
import { engineConfig } from '../config';
import { encryptSecret } from '../crypto/secret-box';
import { newEvent } from '../events/outbox';
import { newId } from '../ids';
import { checkDestination } from './destination';
import { enqueueDelivery } from './fanout';
import type { createWebhookBody, updateWebhookBody } from './schemas';
import { deleteWebhookAndDeliveries, insertWebhook, lastDeliveries, listWebhooks as listStored, replaceWebhook, requireWebhook } from './store';
import { deliveryView, webhookView, type Webhook } from './webhook';

/** In the local stack only, receivers on this machine (http://127.0.0.1, http://localhost) are allowed. */
const destinationOptions = () => ({ allowLocal: engineConfig.isLocal });

export const createWebhook = async (tenantId: string, input: z.output<typeof createWebhookBody>) => {
  await checkDestination(input.url, destinationOptions());
  const now = nowIso();
  const webhook: Webhook = {
    webhookId: newId(),
    tenantId,
    label: input.label,
    url: input.url,
    secretEncrypted: encryptSecret(input.secret),
    events: [...new Set(input.events)],
    isActive: true,
    createdAt: now,
    updatedAt: now,
  };
  await insertWebhook(webhook);
  return webhookView(webhook);
};

export const listWebhooks = async (tenantId: string) =>
  (await listStored(tenantId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(webhookView);

export const updateWebhook = async (tenantId: string, webhookId: string, input: z.output<typeof updateWebhookBody>) => {
  const current = await requireWebhook(tenantId, webhookId);
  if (input.url) await checkDestination(input.url, destinationOptions());
  const next: Webhook = {
    ...current,
    ...(input.label === undefined ? {} : { label: input.label }),
    ...(input.url === undefined ? {} : { url: input.url }),
    ...(input.events === undefined ? {} : { events: [...new Set(input.events)] }),
    ...(input.isActive === undefined ? {} : { isActive: input.isActive }),
    ...(input.secret === undefined ? {} : { secretEncrypted: encryptSecret(input.secret) }),
    updatedAt: nowIso(),
  };
  await replaceWebhook(next, current.updatedAt);
  return webhookView(next);
};

export const deleteWebhook = async (tenantId: string, webhookId: string) => {
  const webhook = await requireWebhook(tenantId, webhookId);
  await deleteWebhookAndDeliveries(tenantId, webhookId);
  return webhookView(webhook);
};

export const webhookDeliveries = async (tenantId: string, webhookId: string) => {
  await requireWebhook(tenantId, webhookId);
  return (await lastDeliveries(tenantId, webhookId)).map(deliveryView);
};

/** Sends a webhook.test event to this webhook only, whatever it subscribes to (an inactive one too: it is a test). */
export const testWebhook = async (tenantId: string, webhookId: string) => {
  const webhook = await requireWebhook(tenantId, webhookId);
  const event = newEvent(tenantId, 'webhook.test', { message: `Test delivery for webhook "${webhook.label}"`, timestamp: nowIso() });
  await enqueueDelivery(webhook, event);
  return { queued: true as const };
};
