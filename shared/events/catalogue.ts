import * as z from 'zod/mini';
import { described } from '../described';
import { principalHashSchema, withdrawalAttributionSchema, withdrawalMethods } from '../consent/schemas';
import { outcomes, requestChannels, requestTypes } from '../rights/request';

/**
 * The one event catalogue: every type a webhook may subscribe to, what it means, whether the
 * service emits it today and, if it does, the zod schema of its `data`. The emitters' types
 * (`newEvent`), the envelope schemas, the AsyncAPI document and the webhook subscription check
 * are all derived from it, so a type is added or changed here and nowhere else.
 *
 * Payload objects are loose on purpose: receivers should ignore fields they do not know, so adding
 * a field never breaks them. Emitters are held to the exact fields by `EventData`.
 */

export const isoTime = (what: string) => described(z.iso.datetime(), `${what} (ISO 8601, UTC)`);
const hex32 = z.string().check(z.regex(/^[0-9a-f]{64}$/));
const principalHash = described(principalHashSchema, 'SHA-256 hex of the principal identifier, trimmed, emails lower-cased: hash your own identifier the same way to match it');

interface EmittedEntry {
  description: string;
  emitted: true;
  data: z.ZodMiniObject;
}

/** Subscribable already (the spec lists it), but nothing produces it yet, so it has no payload. */
interface NotYetEmittedEntry {
  description: string;
  emitted: false;
}

/** In the order of the spec's two lists (A, then what B adds), then webhook.test, then extensions. */
export const eventCatalogue = {
  'consent.recorded': {
    description: 'A principal gave consent for the first time or updated their preferences',
    emitted: true,
    data: z.looseObject({
      consentRecordId: described(z.uuid(), 'A new id for every record: each update of preferences is a new record'),
      dataPrincipalHash: principalHash,
      consents: described(z.record(z.uuid(), z.boolean()), 'The decisions of this record by purposeId: true granted, false declined'),
      noticeId: described(z.uuid(), 'The notice shown when consent was given'),
      noticeVersionId: described(z.string().check(z.regex(/^[^:]+:\d+$/)), '`<noticeId>:<noticeVersionNumber>`'),
      noticeVersionNumber: z.number().check(z.int(), z.gte(1)),
      recordedAt: isoTime('When the consent was recorded; events arrive unordered, so order by this, not by arrival'),
    }),
  },
  'consent.withdrawn': {
    description:
      "A principal withdrew consent. The receiver must cease processing that principal's personal data without delay (on a partial withdrawal: for the purposes in purposeIds). It may arrive before the consent.recorded event of the same record",
    emitted: true,
    data: z.looseObject({
      withdrawalId: described(z.uuid(), 'Shared by all events of one withdrawal: one event is sent per affected consent record'),
      consentRecordId: described(z.uuid(), 'The consent record this withdrawal applies to'),
      dataPrincipalHash: principalHash,
      dataPrincipalEmail: described(z.nullable(z.string()), 'Known only when the principal was identified by email; otherwise null'),
      isFullWithdrawal: described(z.boolean(), 'true: every purpose of the record is withdrawn'),
      purposeIds: described(z.array(z.uuid()), 'The purposes withdrawn now; empty for a full withdrawal'),
      withdrawalMethod: described(z.enum(withdrawalMethods), 'Where the withdrawal was made; WIDGET (extension): from the embedded widget; RIGHTS_REQUEST (extension): an erasure request fulfilled (withdrawalReason names it)'),
      withdrawalReason: described(z.nullable(z.string()), "The principal's reason, if given"),
      withdrawnAt: isoTime('When the withdrawal took effect'),
      attribution: described(
        z.nullable(withdrawalAttributionSchema),
        'Extension: how far the withdrawal knows its principal. Set on withdrawalMethod PUBLIC_API: there it is an email someone sent, not the principal proven; act on it (the law asks you to stop), and treat it as the claim it is. null for the other methods, whose withdrawalMethod says who withdrew (DASHBOARD: your team; WEB_PORTAL: the holder of a single-use link mailed to the principal or made by your team; WIDGET: the browser holding the record\'s withdrawal key; RIGHTS_REQUEST: an erasure request the principal confirmed by mail)',
      ),
    }),
  },
  'rights.submitted': {
    description:
      'A data principal\'s rights request was submitted: confirmed by the principal from the public request form, or logged by the team. It must be answered by dueAt',
    emitted: true,
    data: z.looseObject({
      requestId: z.uuid(),
      type: described(z.enum(requestTypes), 'ACCESS (s.11), CORRECTION, COMPLETION, UPDATING, ERASURE (s.12), GRIEVANCE (s.13) or NOMINATION (s.14)'),
      channel: described(z.enum(requestChannels), 'WEB: the public request form; EMAIL, PHONE, LETTER, IN_PERSON, OTHER: logged by the team'),
      principalHash,
      submittedAt: isoTime('When the request was submitted'),
      dueAt: isoTime("When it must be answered: submission plus the tenant's response period for its type"),
      assets: described(z.array(z.looseObject({ assetId: z.uuid(), name: z.string(), system: z.string() })), "The data map's assets holding the principal's data (those of the purposes they consented to)"),
    }),
  },
  'rights.resolved': {
    description: 'A rights request was answered',
    emitted: true,
    data: z.looseObject({
      requestId: z.uuid(),
      type: z.enum(requestTypes),
      outcome: z.enum(outcomes),
      principalHash,
      resolvedAt: isoTime('When it was answered'),
    }),
  },
  'breach.reported': {
    description: 'A personal data breach was reported to the Data Protection Board: its intimation (Rule 7(2)(a)) or its detailed report (Rule 7(2)(b)). The filed document is frozen in the tenant\'s evidence log',
    emitted: true,
    data: z.looseObject({
      breachId: described(z.uuid(), 'The breach in the register (GET /api/v1/breaches/:breachId)'),
      stage: described(z.enum(['INTIMATION', 'DETAILED_REPORT']), 'INTIMATION: the description filed without delay; DETAILED_REPORT: the report due 72 hours after awareness (or as extended by the Board)'),
      filedAt: isoTime('When it was filed'),
      late: described(z.boolean(), 'Filed after its deadline, frozen at filing: the detailed report after its due time; the intimation more than BREACH_BOARD_INTIMATION_LATE_HOURS after awareness'),
    }),
  },
  'notice.published': {
    description: 'A new notice version was published; the previous published notice is archived',
    emitted: true,
    data: z.looseObject({
      noticeId: described(z.uuid(), 'The notice now published; a revision gets a new noticeId'),
      lineageId: described(z.uuid(), 'Shared by every version of one notice'),
      versionNumber: described(z.number().check(z.int(), z.gte(1)), 'Counts per lineage from 1'),
      materialChangeDetected: described(z.boolean(), 'true when purposes, data categories or legal basis changed from the previous published version: principals should be asked to consent again. false for a first version'),
      publishedAt: isoTime('When the notice was published'),
    }),
  },
  'breach.created': {
    description: 'A personal data breach was recorded in the register: both of Rule 7\'s clocks run from its awareAt',
    emitted: true,
    data: z.looseObject({
      breachId: described(z.uuid(), 'The breach in the register (GET /api/v1/breaches/:breachId)'),
      title: z.string(),
      awareAt: isoTime('When the tenant became aware of the breach'),
      occurredAt: described(z.nullable(isoTime('When the breach occurred')), 'When the breach occurred, if known (ISO 8601, UTC)'),
      boardIntimationDueAt: isoTime('The Board is to be intimated without delay: due at awareAt'),
      detailedReportDueAt: isoTime('The detailed report is due 72 hours after awareAt'),
      affectedScope: described(z.enum(['ALL', 'NOTICES', 'PURPOSES', 'PRINCIPALS']), "Whose data: every principal, those of some notices or purposes, or listed ones"),
      dataCategories: z.array(z.string()),
    }),
  },
  'breach.principals': {
    description:
      'Extension, subscribable (a webhook receives it only when it names it). One page of at most 500 principals affected by a breach whom the service holds no email for, when their intimation runs: the tenant must intimate each through its own channels (Rule 7(1)). Every affected principal is either mailed by the service or listed in exactly one page',
    emitted: true,
    data: z.looseObject({
      breachId: z.uuid(),
      runId: described(z.uuid(), 'The intimation run (each POST …/principal-intimation starts one); with page, identifies the page'),
      page: described(z.number().check(z.int(), z.gte(0)), 'The page within its run'),
      principalHashes: described(z.array(principalHash).check(z.minLength(1), z.maxLength(500)), 'The principals, as their dataPrincipalHash: never an email'),
    }),
  },
  'webhook.test': {
    description: 'Sent by POST /api/v1/webhooks/:id/test or the dashboard Test button, to check the endpoint and its signature check',
    emitted: true,
    data: z.looseObject({
      message: described(z.string(), 'Human-readable text; carries no meaning'),
      timestamp: isoTime('When the test was requested'),
    }),
  },
  'consent.guardian_requested': {
    description:
      "Extension (s.9, rules 10 and 11). A child's (or a guarded person's) decision was recorded and waits for the parent or lawful guardian, who has been mailed a single-use link valid 7 days. Until consent.guardian_verified the decision is no consent: do not process on it",
    emitted: true,
    data: z.looseObject({
      requestId: described(z.uuid(), 'The guardian request (GET /api/v1/children/guardian-requests)'),
      consentRecordId: described(z.uuid(), 'The record that waits'),
      dataPrincipalHash: principalHash,
      principalStatus: described(z.enum(['CHILD', 'GUARDED']), 'CHILD: under 18; GUARDED: a person with a disability who has a lawful guardian'),
      noticeId: z.uuid(),
      requestedAt: isoTime('When the decision was recorded'),
      expiresAt: isoTime('When the request lapses unanswered (consent.guardian_expired)'),
    }),
  },
  'consent.guardian_verified': {
    description:
      'Extension. The parent or lawful guardian proved to be an identifiable adult (rule 10(1)) and approved: the record is ACTIVE, and consent.recorded follows with the consents now in force (the guardian may have switched purposes off)',
    emitted: true,
    data: z.looseObject({
      requestId: z.uuid(),
      consentRecordId: z.uuid(),
      dataPrincipalHash: principalHash,
      method: described(z.enum(['TENANT_ATTESTED', 'SELF_DECLARED', 'VIRTUAL_TOKEN']), 'How the adult was verified: rule 10(1)(a), (b)(i) or (b)(ii)'),
      consents: described(z.record(z.uuid(), z.boolean()), 'The decisions in force by purposeId'),
      verifiedAt: isoTime('When the guardian approved'),
    }),
  },
  'consent.guardian_refused': {
    description: 'Extension. The parent or lawful guardian refused: the record is GUARDIAN_REFUSED and never comes into force',
    emitted: true,
    data: z.looseObject({
      requestId: z.uuid(),
      consentRecordId: z.uuid(),
      dataPrincipalHash: principalHash,
      refusedAt: isoTime('When the guardian refused'),
    }),
  },
  'consent.guardian_expired': {
    description: 'Extension. Nobody answered the guardian request within 7 days: the record is GUARDIAN_EXPIRED and never comes into force',
    emitted: true,
    data: z.looseObject({
      requestId: z.uuid(),
      consentRecordId: z.uuid(),
      dataPrincipalHash: principalHash,
      expiredAt: isoTime('When the request lapsed'),
    }),
  },
  'consent.majority_reached': {
    description:
      "Extension. A child whose record carried majorityAt turned 18 today: the parent's consent stands for the child she was; ask the new adult for her own consent (a new record)",
    emitted: true,
    data: z.looseObject({
      consentRecordId: z.uuid(),
      dataPrincipalHash: principalHash,
      noticeId: z.uuid(),
      majorityAt: described(z.iso.date(), 'The date the tenant gave (YYYY-MM-DD)'),
    }),
  },
  'retention.notice_due': {
    description:
      "Extension (rule 8(2)). A principal's data falls due for erasure at dueAt, at least the tenant's noticeHours from now: she must be told that it will be erased unless she logs in, contacts you or exercises a right (POST /api/v1/principals/activity then cancels it). One event per principal and notice; docs/retention.md",
    emitted: true,
    data: z.looseObject({
      dataPrincipalHash: principalHash,
      purposeIds: described(z.array(z.uuid()), 'The purposes whose data falls due'),
      dueAt: isoTime('When the data falls due for erasure'),
      noticeSentAt: isoTime('When the notice was issued'),
    }),
  },
  'retention.erasure_due': {
    description:
      "Extension (s.8(7), rule 8). The retention period ended for these principals and purposes: their consent for them has lapsed (consentState EXPIRED, or the purposes expired on the record); erase their personal data for those purposes unless a law requires it to be kept (the purpose's legalHold). One sweep run is one entry in the evidence log; its principals come in pages of at most 500, one event per page; docs/retention.md",
    emitted: true,
    data: z.looseObject({
      runId: described(z.uuid(), 'The sweep run; shared by its pages'),
      page: described(z.number().check(z.int(), z.gte(1)), 'This page, from 1'),
      pages: described(z.number().check(z.int(), z.gte(1)), "The run's pages"),
      purposeIds: described(z.array(z.uuid()), 'The purposes that lapsed for every principal of this page'),
      principalHashes: described(z.array(principalHashSchema).check(z.maxLength(500)), 'At most 500 principals'),
    }),
  },
  'log.checkpoint': {
    description:
      "Extension. The tenant's evidence log was signed at a new size (at most every 10 seconds while it grows). Keep the last note you received: each new one must extend it, which consistencyProof (from previousTreeSize) or GET /api/v1/consent/log/consistency proves, so the log cannot be rolled back or rewritten unnoticed by a copy the operator cannot reach (`node scripts/verify-receipt.mjs consistency` checks it offline)",
    emitted: true,
    data: z.looseObject({
      treeSize: described(z.number().check(z.int(), z.gte(1)), 'Entries (records, withdrawals and logged documents) the signed tree holds'),
      rootHash: described(hex32, 'RFC 9162 Merkle tree hash of those entries, hex'),
      note: described(z.string(), 'The signed checkpoint: a C2SP tlog-checkpoint (origin, size, base64 root) in a C2SP signed note, verifiable with GET /api/v1/consent/log/keys'),
      signedAt: isoTime('When the checkpoint was signed'),
      keyId: described(z.string(), 'kid of the signing key in GET /api/v1/consent/log/keys'),
      previousTreeSize: described(z.number().check(z.int(), z.gte(0)), 'Size of the checkpoint this one follows; 0 for the first'),
      consistencyProof: described(z.array(hex32), 'RFC 9162 §2.1.4 consistency proof from the tree of previousTreeSize to this one, hex; empty for the first'),
    }),
  },
} as const satisfies Record<string, EmittedEntry | NotYetEmittedEntry>;

type Catalogue = typeof eventCatalogue;

/** What a webhook may subscribe to: every type in the catalogue. */
export type SubscribableEvent = keyof Catalogue;

/** What the service emits today. */
export type EmittedEventType = { [T in SubscribableEvent]: Catalogue[T] extends EmittedEntry ? T : never }[SubscribableEvent];

/**
 * The `data` an emitter passes for `type`: the schema's input without the loose schema's index
 * signature, so a missing, wrongly typed or undocumented field is a compile error at the emitter.
 * Distributive, so a union of types takes the union of their payloads.
 */
export type EventData<T extends EmittedEventType> = T extends EmittedEventType ? z.input<z.ZodMiniObject<Catalogue[T]['data']['shape']>> : never;

/** The catalogue's keys as a non-empty tuple, in its order, ready for `z.enum`. */
export const subscribableEvents = Object.keys(eventCatalogue) as [SubscribableEvent, ...SubscribableEvent[]];

const isEmitted = (type: SubscribableEvent): type is EmittedEventType => eventCatalogue[type].emitted;

export const emittedEvents: EmittedEventType[] = subscribableEvents.filter(isEmitted);

/** Accepted in subscriptions so they can be made ahead, but never delivered yet. */
export const notYetEmittedEvents = subscribableEvents.filter((type) => !isEmitted(type));

/** The `data` schema of an emitted type. */
export const eventDataSchema = <T extends EmittedEventType>(type: T): Catalogue[T]['data'] => eventCatalogue[type].data;
