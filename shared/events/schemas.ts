import * as z from 'zod/mini';
import { described } from '../described';
import { emittedEvents, eventCatalogue, isoTime, type EmittedEventType } from './catalogue';

/**
 * The webhook contract as zod schemas, built from the event catalogue: the AsyncAPI document is
 * generated from them, and a receiver written in TypeScript can parse deliveries with them.
 */

/** The envelope of one event type, as POSTed (the raw body) to the receiver. */
export const eventEnvelope = <T extends EmittedEventType>(type: T) => {
  const { description, data } = eventCatalogue[type];
  return described(z.looseObject({
      id: described(z.string().check(z.regex(/^evt_[0-9a-f]{32}$/)), 'Unique per event and the same on every retry: deliveries are at least once, so deduplicate on it'),
      type: described(z.literal(type), 'Event type; equals the X-Service-Event header'),
      timestamp: isoTime('When the event was created, in the same transaction as the change it reports'),
      tenantId: described(z.uuid(), 'The tenant whose data changed'),
      data: described(data, description),
    }), description);
};

/** One envelope schema per emitted type, so that parsing `anyEventEnvelope` narrows `data` by `type`. */
type AnyEnvelopeSchema = { [T in EmittedEventType]: ReturnType<typeof eventEnvelope<T>> }[EmittedEventType];

/** Any delivery, told apart by `type`. */
export const anyEventEnvelope = /* @__PURE__ */ (() => z.discriminatedUnion('type', emittedEvents.map((type) => eventEnvelope(type)) as [AnyEnvelopeSchema, ...AnyEnvelopeSchema[]]))();

/** The headers of a delivery of one event type. */
export const deliveryHeaders = (type: EmittedEventType) =>
  described(z.looseObject({
      'X-Service-Signature': described(z.string().check(z.regex(/^sha256=[0-9a-f]{64}$/)), '`sha256=` + lowercase hex HMAC-SHA256 of the raw request body bytes (before JSON parsing), keyed with the webhook secret. Compare in constant time; it does not cover X-Service-Timestamp'),
      'X-Service-Timestamp': described(z.string().check(z.regex(/^\d+$/)), 'Unix time in milliseconds. Not covered by the signature: deduplicate on the envelope id rather than trusting it against replays'),
      'X-Service-Event': described(z.literal(type), 'The event type, as in the body'),
    }), 'HTTP header names are case-insensitive: many frameworks hand them over lower-cased');
