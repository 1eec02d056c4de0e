import * as z from 'zod/mini';
import { described } from '../described';
import { notYetEmittedEvents, subscribableEvents } from '../events/catalogue';

const label = /* @__PURE__ */ (() => z.string().check(z.trim(), z.minLength(1), z.maxLength(100)))();
const url = /* @__PURE__ */ (() => z.url({ protocol: /^https?$/ }).check(z.maxLength(2000)))();
/** Whitespace padding would pass a length check while adding no entropy (16 spaces). */
const secret = /* @__PURE__ */ (() => z.string().check(z.maxLength(256), z.refine((value) => value === value.trim(), 'secret must not start or end with whitespace'), z.refine((value) => value.replace(/\s/g, '').length >= 16, 'secret needs at least 16 non-whitespace characters')))();
const events = /* @__PURE__ */ (() => described(z.array(z.enum(subscribableEvents)).check(z.minLength(1), z.maxLength(subscribableEvents.length)), `Event types to deliver. Accepted but not emitted yet: ${notYetEmittedEvents.join(', ')}`))();

export const createWebhookBody = /* @__PURE__ */ z.lazy(() => z.strictObject({ label, url, secret, events }));
export const updateWebhookBody = /* @__PURE__ */ z.lazy(() => z.strictObject({ label: z.optional(label), url: z.optional(url), secret: z.optional(secret), events: z.optional(events), isActive: z.optional(z.boolean()) }).check(z.refine((body) => Object.keys(body).length > 0, 'at least one field is required')));
export const webhookIdParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ id: z.uuid() }));

export const webhookView = /* @__PURE__ */ z.lazy(() => z.object({
  id: z.uuid(),
  label: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  isActive: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
}));

export const deliveryView = /* @__PURE__ */ z.lazy(() => z.object({
  id: z.uuid(),
  event: z.string(),
  eventId: z.string(),
  status: z.enum(['PENDING', 'SUCCESS', 'FAILED', 'RETRYING']),
  statusCode: described(z.nullable(z.number().check(z.int())), 'HTTP status the receiver returned on the last attempt; null when it did not answer'),
  attempts: z.number().check(z.int()),
  attemptCount: described(z.number().check(z.int()), 'Same as attempts (the spec gives both names)'),
  deliveredAt: z.nullable(z.iso.datetime()),
  succeededAt: described(z.nullable(z.iso.datetime()), 'Same as deliveredAt'),
  failedAt: described(z.nullable(z.iso.datetime()), 'Set when all 5 attempts failed'),
  success: z.boolean(),
  lastError: z.nullable(z.string()),
  nextAttemptAt: z.nullable(z.iso.datetime()),
  createdAt: z.iso.datetime(),
}));
