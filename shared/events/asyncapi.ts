import * as z from 'zod/mini';
import { emittedEvents, eventCatalogue, notYetEmittedEvents, type EmittedEventType } from './catalogue';
import { deliveryHeaders, eventEnvelope } from './schemas';

type JsonSchema = Record<string, unknown>;

/**
 * Draft-07 because AsyncAPI 3.0's default schema format is a superset of JSON Schema draft-07;
 * output because receivers see what the service sends.
 */
const jsonSchema = (schema: z.ZodMiniType): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'output', target: 'draft-7' }) as JsonSchema;
  return rest;
};

/** `consent.recorded` -> `consentRecorded`: ids that read well in generated code. */
const idOf = (type: EmittedEventType) => type.replace(/\.(\w)/g, (_match, letter: string) => letter.toUpperCase());

const delivery = [
  'Every event is an HTTP POST of a JSON envelope `{ id, type, timestamp, tenantId, data }` to the HTTPS url of each active webhook subscribed to its type.',
  '',
  'Verify before parsing: `X-Service-Signature` is `sha256=` + hex HMAC-SHA256 of the raw body bytes keyed with the webhook secret; compare in constant time.',
  '',
  'Delivery semantics:',
  '- At least once: an event may arrive more than once; deduplicate on the envelope `id`, which stays the same across retries.',
  '- Unordered: order by the timestamps in `data`, not by arrival.',
  '- Success is any 2xx within 10 s; do slow work asynchronously. Redirects are not followed: a 3xx counts as a failure.',
  '- 5 attempts in total; non-2xx responses and timeouts are retried after 5, 10, 20 and 40 s (about 75 s in all). Then the delivery is FAILED and appears so in GET /api/v1/webhooks/:id/deliveries.',
  '',
  // Subscriptions to these are accepted, so a receiver should know they exist but has no payload to expect yet.
  `Not emitted yet, though a webhook may subscribe to them: ${notYetEmittedEvents.join(', ')}. Each gets its message here when the service starts sending it.`,
].join('\n');

const build = (): Record<string, unknown> => {
  const channels: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  for (const type of emittedEvents) {
    const id = idOf(type);
    const summary = eventCatalogue[type].description;
    messages[id] = {
      name: type,
      title: type,
      summary,
      contentType: 'application/json',
      headers: jsonSchema(deliveryHeaders(type)),
      payload: jsonSchema(eventEnvelope(type)),
    };
    // One URL receives every subscribed type, so all channels share the receiver's address.
    channels[id] = {
      address: '{receiverPath}',
      title: type,
      parameters: { receiverPath: { description: 'Path of the webhook url the tenant registered, e.g. /hooks/consent' } },
      messages: { [id]: { $ref: `#/components/messages/${id}` } },
    };
    operations[`send${id[0]!.toUpperCase()}${id.slice(1)}`] = {
      action: 'send',
      title: `Send ${type}`,
      summary,
      channel: { $ref: `#/channels/${id}` },
      messages: [{ $ref: `#/channels/${id}/messages/${id}` }],
      bindings: { http: { method: 'POST', bindingVersion: '0.3.0' } },
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Consent Management Service webhooks',
      version: '1.0.0',
      description: delivery,
    },
    defaultContentType: 'application/json',
    servers: {
      receiver: {
        host: '{receiverHost}',
        protocol: 'https',
        description: "The tenant's webhook receiver; the service is the client and POSTs to it.",
        variables: { receiverHost: { description: 'Host (and port, if any) of the registered webhook url', examples: ['hooks.example.com'] } },
      },
    },
    channels,
    operations,
    components: { messages },
  };
};

let cached: Record<string, unknown> | undefined;

/** AsyncAPI 3.0 for the webhooks, generated from the event catalogue (./catalogue, ./schemas). */
export const asyncApiDocument = (): Record<string, unknown> => (cached ??= build());
