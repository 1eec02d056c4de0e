import * as z from 'zod/mini';
import { createWebhookBody, deliveryView, updateWebhookBody, webhookIdParams, webhookView } from '../../webhooks/schemas';
import type { RouteDefinition } from '../route';

const tags = ['Webhooks'];
const destination =
  'url must be https and must not resolve to a loopback, private, link-local, unique-local, CGNAT or cloud-metadata address (IPv4 or IPv6, mapped forms included); it is checked here and again when each delivery connects. Redirects are never followed. In the local stack only, http://127.0.0.1 and http://localhost are allowed.';

export const webhookRoutes = {
  listWebhooks: {
    method: 'GET',
    path: '/api/v1/webhooks',
    group: 'webhooks',
    auth: { kind: 'bearer', access: 'read' },
    summary: "The tenant's webhooks",
    description: 'The signing secret is write-only and never returned.',
    tags,
    response: { status: 200, description: 'Webhooks', data: z.array(webhookView) },
  },
  createWebhook: {
    method: 'POST',
    path: '/api/v1/webhooks',
    group: 'webhooks',
    auth: { kind: 'bearer', access: 'write' },
    summary: 'Create a webhook',
    description: `events: any of consent.recorded, consent.withdrawn, notice.published, rights.submitted, rights.resolved, breach.reported, breach.created, webhook.test (the union of the spec's two lists), and log.checkpoint (extension: every signed checkpoint of the tenant's evidence log, for the tenant's own copy). ${destination} The plan's webhook limit applies (403 PLAN_LIMIT_REACHED).`,
    tags,
    request: { body: createWebhookBody },
    response: { status: 201, description: 'The webhook, without its secret', data: webhookView },
    errors: ['PLAN_LIMIT_REACHED'],
  },
  updateWebhook: {
    method: 'PUT',
    path: '/api/v1/webhooks/:id',
    group: 'webhooks',
    auth: { kind: 'bearer', access: 'write', narrowsSpec: true },
    summary: 'Update a webhook (partial)',
    description: `isActive false stops deliveries (retries in flight end FAILED). ${destination}`,
    tags,
    request: { params: webhookIdParams, body: updateWebhookBody },
    response: { status: 200, description: 'The webhook, without its secret', data: webhookView },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  deleteWebhook: {
    method: 'DELETE',
    path: '/api/v1/webhooks/:id',
    group: 'webhooks',
    auth: { kind: 'bearer', access: 'write', narrowsSpec: true },
    summary: 'Delete a webhook and its delivery history',
    tags,
    request: { params: webhookIdParams },
    response: { status: 200, description: 'The deleted webhook, without its secret', data: webhookView },
    errors: ['NOT_FOUND'],
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: '/api/v1/webhooks/:id/deliveries',
    group: 'webhooks',
    auth: { kind: 'bearer', access: 'read' },
    summary: 'The last 50 deliveries, newest first',
    description: 'The spec lists DPO, ANALYST and VIEWER; SUPER_ADMIN may too, as it may everything a DPO may.',
    tags,
    request: { params: webhookIdParams },
    response: { status: 200, description: 'Deliveries', data: z.array(deliveryView) },
    errors: ['NOT_FOUND'],
  },
  testWebhook: {
    method: 'POST',
    path: '/api/v1/webhooks/:id/test',
    group: 'webhooks',
    auth: { kind: 'bearer', access: 'write', narrowsSpec: true },
    summary: 'Send a webhook.test event',
    description: 'Queues one webhook.test delivery to this webhook (data: message, timestamp), whatever it subscribes to.',
    tags,
    request: { params: webhookIdParams },
    response: { status: 200, description: 'Queued', data: z.object({ queued: z.literal(true) }) },
    errors: ['NOT_FOUND'],
  },
} as const satisfies Record<string, RouteDefinition>;
