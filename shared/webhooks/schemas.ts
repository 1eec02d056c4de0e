import * as z from 'zod';
import { notYetEmittedEvents, subscribableEvents } from '../events/catalogue';

const label = z.string().trim().min(1).max(100);
const url = z.url({ protocol: /^https?$/ }).max(2000);
/** Whitespace padding would pass a length check while adding no entropy (16 spaces). */
const secret = z
  .string()
  .max(256)
  .refine((value) => value === value.trim(), 'secret must not start or end with whitespace')
  .refine((value) => value.replace(/\s/g, '').length >= 16, 'secret needs at least 16 non-whitespace characters');
const events = z
  .array(z.enum(subscribableEvents))
  .min(1)
  .max(subscribableEvents.length)
  .describe(`Event types to deliver. Accepted but not emitted yet: ${notYetEmittedEvents.join(', ')}`);

export const createWebhookBody = z.strictObject({ label, url, secret, events });
export const updateWebhookBody = z
  .strictObject({ label: label.optional(), url: url.optional(), secret: secret.optional(), events: events.optional(), isActive: z.boolean().optional() })
  .refine((body) => Object.keys(body).length > 0, 'at least one field is required');
export const webhookIdParams = z.strictObject({ id: z.uuid() });

export const webhookView = z.object({
  id: z.uuid(),
  label: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  isActive: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const deliveryView = z.object({
  id: z.uuid(),
  event: z.string(),
  eventId: z.string(),
  status: z.enum(['PENDING', 'SUCCESS', 'FAILED', 'RETRYING']),
  statusCode: z.number().int().nullable().describe('HTTP status the receiver returned on the last attempt; null when it did not answer'),
  attempts: z.number().int(),
  attemptCount: z.number().int().describe('Same as attempts (the spec gives both names)'),
  deliveredAt: z.iso.datetime().nullable(),
  succeededAt: z.iso.datetime().nullable().describe('Same as deliveredAt'),
  failedAt: z.iso.datetime().nullable().describe('Set when all 5 attempts failed'),
  success: z.boolean(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
