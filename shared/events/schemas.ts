import * as z from 'zod';
import { principalHashSchema } from '../consent/schemas';
import type { EventType } from './outbox';

/**
 * The webhook contract as zod schemas: the AsyncAPI document is generated from them, and a
 * receiver written in TypeScript can parse deliveries with them. Objects are loose on purpose:
 * receivers should ignore fields they do not know, so adding a field never breaks them.
 */

/**
 * What a webhook may subscribe to: the union of the spec's two lists (A and B) plus webhook.test.
 * The service emits only four of them today (`EventType`: consent.recorded, consent.withdrawn,
 * notice.published, webhook.test); rights.* and breach.* are accepted but never fire yet.
 */
export const subscribableEvents = [
  'consent.recorded',
  'consent.withdrawn',
  'rights.submitted',
  'rights.resolved',
  'breach.reported',
  'notice.published',
  'breach.created',
  'webhook.test',
] as const;
export type SubscribableEvent = (typeof subscribableEvents)[number];

const isoTime = (what: string) => z.iso.datetime().describe(`${what} (ISO 8601, UTC)`);
const principalHash = principalHashSchema.describe(
  'SHA-256 hex of the principal identifier, trimmed, emails lower-cased: hash your own identifier the same way to match it',
);

export const consentRecordedData = z
  .looseObject({
    consentRecordId: z.uuid().describe('A new id for every record: each update of preferences is a new record'),
    dataPrincipalHash: principalHash,
    consents: z
      .record(z.uuid(), z.boolean())
      .describe('The decisions of this record by purposeId: true granted, false declined'),
    noticeId: z.uuid().describe('The notice shown when consent was given'),
    noticeVersionId: z.string().regex(/^[^:]+:\d+$/).describe('`<noticeId>:<noticeVersionNumber>`'),
    noticeVersionNumber: z.number().int().min(1),
    recordedAt: isoTime('When the consent was recorded; events arrive unordered, so order by this, not by arrival'),
  })
  .describe('A principal gave consent for the first time or updated their preferences');

export const consentWithdrawnData = z
  .looseObject({
    withdrawalId: z.uuid().describe('Shared by all events of one withdrawal: one event is sent per affected consent record'),
    consentRecordId: z.uuid().describe('The consent record this withdrawal applies to'),
    dataPrincipalHash: principalHash,
    dataPrincipalEmail: z.string().nullable().describe('Known only when the principal was identified by email; otherwise null'),
    isFullWithdrawal: z.boolean().describe('true: every purpose of the record is withdrawn'),
    purposeIds: z.array(z.uuid()).describe('The purposes withdrawn now; empty for a full withdrawal'),
    withdrawalMethod: z.enum(['DASHBOARD', 'WEB_PORTAL', 'PUBLIC_API', 'WIDGET']).describe('Where the withdrawal was made; WIDGET (extension): from the embedded widget'),
    withdrawalReason: z.string().nullable().describe("The principal's reason, if given"),
    withdrawnAt: isoTime('When the withdrawal took effect'),
  })
  .describe(
    "A principal withdrew consent. The receiver must cease processing that principal's personal data without delay (on a partial withdrawal: for the purposes in purposeIds). It may arrive before the consent.recorded event of the same record",
  );

export const noticePublishedData = z
  .looseObject({
    noticeId: z.uuid().describe('The notice now published; a revision gets a new noticeId'),
    lineageId: z.uuid().describe('Shared by every version of one notice'),
    versionNumber: z.number().int().min(1).describe('Counts per lineage from 1'),
    materialChangeDetected: z
      .boolean()
      .describe('true when purposes, data categories or legal basis changed from the previous published version: principals should be asked to consent again. false for a first version'),
    publishedAt: isoTime('When the notice was published'),
  })
  .describe('A new notice version was published; the previous published notice is archived');

export const webhookTestData = z
  .looseObject({
    message: z.string().describe('Human-readable text; carries no meaning'),
    timestamp: isoTime('When the test was requested'),
  })
  .describe('Sent by POST /api/v1/webhooks/:id/test or the dashboard Test button, to check the endpoint and its signature check');

/** `satisfies` keeps each schema's type and fails to compile when an emitted type has none. */
export const eventDataSchemas = {
  'consent.recorded': consentRecordedData,
  'consent.withdrawn': consentWithdrawnData,
  'notice.published': noticePublishedData,
  'webhook.test': webhookTestData,
} satisfies Record<EventType, z.ZodType>;

/** The types the service actually emits, in the map's order. */
export const emittedEvents = Object.keys(eventDataSchemas) as EventType[];

// Compile-time check: every emitted type is one a webhook can subscribe to.
const _emittedAreSubscribable: readonly SubscribableEvent[] = emittedEvents;

/** The envelope of one event type, as POSTed (the raw body) to the receiver. */
export const eventEnvelope = <T extends EventType>(type: T) =>
  z
    .looseObject({
      id: z
        .string()
        .regex(/^evt_[0-9a-f]{32}$/)
        .describe('Unique per event and the same on every retry: deliveries are at least once, so deduplicate on it'),
      type: z.literal(type).describe('Event type; equals the X-Service-Event header'),
      timestamp: isoTime('When the event was created, in the same transaction as the change it reports'),
      tenantId: z.uuid().describe('The tenant whose data changed'),
      data: eventDataSchemas[type],
    })
    .describe(eventDataSchemas[type].description ?? type);

/** Any delivery, told apart by `type`. */
export const anyEventEnvelope = z.discriminatedUnion('type', [
  eventEnvelope('consent.recorded'),
  eventEnvelope('consent.withdrawn'),
  eventEnvelope('notice.published'),
  eventEnvelope('webhook.test'),
]);

/** The headers of a delivery of one event type. */
export const deliveryHeaders = (type: EventType) =>
  z
    .looseObject({
      'X-Service-Signature': z
        .string()
        .regex(/^sha256=[0-9a-f]{64}$/)
        .describe(
          '`sha256=` + lowercase hex HMAC-SHA256 of the raw request body bytes (before JSON parsing), keyed with the webhook secret. Compare in constant time; it does not cover X-Service-Timestamp',
        ),
      'X-Service-Timestamp': z
        .string()
        .regex(/^\d+$/)
        .describe('Unix time in milliseconds. Not covered by the signature: deduplicate on the envelope id rather than trusting it against replays'),
      'X-Service-Event': z.literal(type).describe('The event type, as in the body'),
    })
    .describe('HTTP header names are case-insensitive: many frameworks hand them over lower-cased');
