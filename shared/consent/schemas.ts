import * as z from 'zod/mini';
import { described } from '../described';
import { actorView } from '../users/schemas';
import { languageCode } from '../notices/schemas';
import { logView } from '../evidence/schemas';
import { slugSchema } from '../tenants/tenant';
import { attributionLevels, withdrawalAttributionMethods } from './attribution-levels';
import { erasableFields } from './erasure-binding';
import { consentStates, principalStatuses, verificationMethods } from './states';

/*
 * Each schema is built by an arrow called at once and annotated pure: evaluated as before, but
 * esbuild drops it from a bundle that reads it nowhere. esbuild cannot see by itself that zod/mini's
 * builders, `.check()` and `described()` have no side effects (it honours a function's no-side-effects
 * annotation only within its own file), so without this a group that imports one schema from here
 * carried them all (docs/bundles.md).
 */

export const principalHashSchema = /* @__PURE__ */ (() => z.string().check(z.regex(/^[0-9a-f]{64}$/, 'exactly 64 lower-case hex characters (SHA-256)')))();
const purposeDecisions = /* @__PURE__ */ (() => z.record(z.uuid(), z.boolean()))();
export const identifierSchema = /* @__PURE__ */ (() => z.string().check(z.trim(), z.minLength(1), z.maxLength(512)))();
export const reasonSchema = /* @__PURE__ */ (() => z.string().check(z.trim(), z.maxLength(500)))();
export const widgetPositions = ['bottom-right', 'bottom-left', 'bottom-center', 'top-center', 'api'] as const;

/** How a withdrawal by email at withdraw-public knows its principal (withdrawal-attribution.ts). */
export const withdrawalAttributionSchema = /* @__PURE__ */ (() => z.object({
  level: described(z.enum(['CLAIMED', 'VERIFIED']), 'CLAIMED: nobody verified that the sender is the principal; VERIFIED: your server vouched for it'),
  method: described(
    z.enum(withdrawalAttributionMethods),
    "PUBLIC_EMAIL_CLAIM: an email address sent to POST /consent/withdraw-public with the publishable key, which anyone can read off your pages (the spec's default, publicWithdrawal IMMEDIATE); SECRET_KEY: sent by your server with a secret key",
  ),
  attributedBy: described(z.string(), '`key:<keyId>`: the API key the call came with'),
  origin: described(z.nullable(z.string()), "The page origin the request stated (Origin, else the Referer's origin); null from a server"),
  ipHash: described(z.string().check(z.regex(/^[0-9a-f]{64}$/)), 'SHA-256 hex of `ip:<address>` of the request: the hash an IP-attributed record of that address is filed under'),
}))();

export const withdrawalMethods = ['DASHBOARD', 'WEB_PORTAL', 'PUBLIC_API', 'WIDGET', 'RIGHTS_REQUEST'] as const;

export const attributionSchema = /* @__PURE__ */ (() => described(z.enum(attributionLevels), 'Extension: VERIFIED (a secret key, a valid identifierSignature, or the dashboard), CLAIMED (an unsigned identifierHash from a publishable key) or IP (no identifier: the client address)'))();

export const consentStateSchema = /* @__PURE__ */ (() => described(z.enum(consentStates), 'Extension: ACTIVE is consent in force; AWAITING_GUARDIAN (a child\'s or guarded person\'s decision waiting for the parent or lawful guardian), GUARDIAN_REFUSED and GUARDIAN_EXPIRED are no consent, whatever consentGiven says; EXPIRED: the retention period of every purpose ended (expiredAt, expiryReason; docs/retention.md)'))();

export const guardianAttestationSchema = /* @__PURE__ */ (() => described(z.strictObject({
  guardianIdentifierHash: described(principalHashSchema, 'SHA-256 hex of the guardian email, trimmed and lower-cased: must equal the hash of guardianEmail'),
  issuedAt: described(z.number().check(z.int(), z.gte(0)), 'Unix seconds: accepted within 15 minutes of the service\'s clock, either way, as identifierSignedAt is'),
  signature: described(z.string().check(z.regex(/^[0-9a-f]{64}$/, 'lower-case hex HMAC-SHA256')), 'Lower-case hex HMAC-SHA256 of `<guardianIdentifierHash>.<issuedAt>`, keyed with a live secret key as issued'),
}), "TENANT_ATTESTED (rule 10(1)(a)): the tenant's server holds reliable identity and age details of this adult and vouches for them. Secret keys only"))();

/** The fields a child's decision adds to sdk-record and POST /consent/record. */
export const childDecisionFields = /* @__PURE__ */ (() => ({
  principalStatus: z._default(described(z.enum(principalStatuses), 'Extension (s.9): ADULT (default), CHILD (under 18) or GUARDED (a person with a disability who has a lawful guardian). CHILD and GUARDED wait for the parent or guardian (consentState AWAITING_GUARDIAN)'), 'ADULT'),
  guardianEmail: described(z.optional(z.email().check(z.maxLength(320))), 'Required for CHILD and GUARDED: where the parent or lawful guardian is asked'),
  majorityAt: described(z.optional(z.iso.date()), 'A child\'s 18th birthday (YYYY-MM-DD): on that date consent.majority_reached is sent'),
}))();

export const recordBody = /* @__PURE__ */ (() => z.strictObject({
  noticeId: z.uuid(),
  dataPrincipalIdentifier: identifierSchema,
  consentGiven: purposeDecisions,
  ipAddress: z.optional(z.union([z.ipv4(), z.ipv6()])),
  userAgent: z.optional(z.string().check(z.maxLength(1000))),
  externalId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(256))),
  language: z._default(languageCode, 'EN'),
  positionShown: z._default(z.enum(widgetPositions), 'api'),
  ...childDecisionFields,
}))();

export const sdkRecordBody = /* @__PURE__ */ (() => z.strictObject({
  apiKey: z.string().check(z.maxLength(200)),
  status: z.enum(['ACCEPTED', 'REJECTED', 'PARTIAL']),
  purposes: purposeDecisions,
  userAgent: z.optional(z.string().check(z.maxLength(1000))),
  url: z.optional(z.url().check(z.maxLength(2000))),
  language: z._default(languageCode, 'EN'),
  positionShown: z._default(z.enum(widgetPositions), 'bottom-right'),
  noticeId: z.optional(z.uuid()),
  identifierHash: z.optional(principalHashSchema),
  identifierSignature: described(z.optional(z.string().check(z.regex(/^[0-9a-f]{64}$/, 'lower-case hex HMAC-SHA256 of `<identifierHash>.<identifierSignedAt>`, keyed with a secret key as issued'))), "Extension: the tenant server's signature of identifierHash at a time: lower-case hex HMAC-SHA256 of the text `<identifierHash>.<identifierSignedAt>`, keyed with one of the tenant's secret keys exactly as issued. Sent with identifierSignedAt, within 15 minutes of the service's clock either way; a valid one makes the record VERIFIED; an invalid or stale one, or one without identifierSignedAt, is 400 on identifierSignature."),
  identifierSignedAt: described(z.optional(z.number().check(z.int(), z.gte(0), z.lte(Number.MAX_SAFE_INTEGER))), 'Extension: when the tenant\'s server signed identifierSignature, integer Unix seconds. Only with identifierSignature (400 on identifierSignedAt otherwise); kept in the record\'s evidence.'),
  identifier: described(z.optional(identifierSchema), 'Raw email, phone or user id, hashed by the service. Secret keys only (server-to-server): with a publishable key it is 400 VALIDATION_ERROR.'),
  externalId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(256))),
  ...childDecisionFields,
  guardianAttestation: z.optional(guardianAttestationSchema),
}))();

export const recordResult = /* @__PURE__ */ (() => z.object({
  consentRecordId: z.uuid(),
  proofHash: z.string(),
  status: z.literal('recorded'),
  attribution: attributionSchema,
  receipt: described(z.string(), 'Extension: a compact JWS (EdDSA) over rid (record id), ph (proofHash), tid, nid, nv (notice version), att (attribution), iat, verifiable with GET /consent/log/keys; keep it to check the record against the log later'),
  consentState: consentStateSchema,
  guardianRequestId: described(z.nullable(z.uuid()), 'Extension: the guardian request a CHILD or GUARDED decision waits on; null otherwise'),
}))();

export const sdkRecordResult = /* @__PURE__ */ z.lazy(() => z.extend(recordResult, {
  withdrawalKey: described(z.string(), 'Extension: 256 random bits (base64url), the proof of possession POST /consent/sdk-withdraw asks for. Returned only here, stored only as its SHA-256, never shown again: keep it with the record id (the widget keeps it in localStorage).'),
}));

export const hashParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ hash: principalHashSchema }));
export const externalIdParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ externalId: z.string().check(z.minLength(1), z.maxLength(256)) }));
export const recordIdParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ id: z.uuid() }));

/* The dashboard routes' request schemas are z.lazy: a cold start builds those of the route it serves, on its first request (as in notices/schemas.ts). */
export const listRecordsQuery = /* @__PURE__ */ z.lazy(() => z.object({
  page: z._default(z.coerce.number().check(z.int(), z.gte(1)), 1),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(50)), 20),
  search: described(z.optional(z.email()), 'A full email address; hashed and matched against dataPrincipalHash. Partial search is not supported.'),
  status: z.optional(z.enum(['active', 'partial', 'withdrawn'])),
  sortBy: z._default(z.enum(['createdAt', 'withdrawnAt']), 'createdAt'),
  sortOrder: z._default(z.enum(['asc', 'desc']), 'desc'),
  cursor: described(z.optional(z.string().check(z.maxLength(2000))), 'Extension: the nextCursor of the previous page; cheap at any depth. page is ignored when given.'),
}));

const guardianVerificationSchema = () =>
  described(z.nullable(z.object({ attribution: z.literal('GUARDIAN_VERIFIED'), method: z.enum(verificationMethods), verifiedAt: z.iso.datetime() })), "Extension: on a child's or guarded person's record the parent or lawful guardian approved, how the adult was verified (rule 10(1)); null otherwise");

/** A record's state, as the status views show it; a function, built with each view (all z.lazy) that holds it. */
const statusFields = () => ({
  consentState: consentStateSchema,
  guardianVerification: guardianVerificationSchema(),
  attribution: described(z.nullable(attributionSchema), 'Extension: how the record knows its principal (VERIFIED, CLAIMED or IP); null for records made before attribution was recorded (proof formats 1 and 2)'),
  isWithdrawn: z.boolean(),
  withdrawnAt: z.nullable(z.iso.datetime()),
  withdrawnPurposes: z.array(z.uuid()),
  isPartiallyWithdrawn: z.boolean(),
  expiredPurposes: described(z.array(z.uuid()), "Extension (s.8(7), rule 8): purposes whose retention period ended for this record: no consent, as a withdrawn purpose is not; all of them: consentState EXPIRED (docs/retention.md)"),
  expiredAt: described(z.nullable(z.iso.datetime()), 'Extension: when purposes of the record last expired; null if none did'),
  expiryReason: described(z.nullable(z.string()), 'Extension: why (RETENTION_PERIOD_ENDED and the sweep run); null if none expired'),
  createdAt: z.iso.datetime(),
  noticeId: z.uuid(),
  noticeTitle: z.string(),
});

export const statusItem = /* @__PURE__ */ z.lazy(() => z.object({
  consentRecordId: z.uuid(),
  noticeVersion: z.number().check(z.int()),
  consentGiven: z.record(z.string(), z.boolean()),
  proofHash: z.string(),
  ...statusFields(),
}));

const externalIdShape = () => ({
  id: z.uuid(),
  dataPrincipalHash: z.string(),
  externalId: z.nullable(z.string()),
  consentGiven: z.record(z.string(), z.boolean()),
  noticeVersionNumber: z.number().check(z.int()),
  currentNoticeVersion: z.number().check(z.int()),
  ...statusFields(),
});

export const externalIdItem = /* @__PURE__ */ z.lazy(() => z.object(externalIdShape()));

const listItem = () => z.object({
  ...externalIdShape(),
  consentGiven: described(z.boolean(), 'true when the principal granted at least one purpose in this record'),
  languageShown: z.string(),
  positionShown: z.string(),
  proofHash: z.string(),
});

export const recordPage = /* @__PURE__ */ z.lazy(() => z.object({
  items: z.array(listItem()),
  total: z.number().check(z.int()),
  page: z.number().check(z.int()),
  limit: z.number().check(z.int()),
  nextCursor: z.nullable(z.string()),
  countsAsOf: described(z.nullable(z.iso
    .datetime()), 'Extension: total comes from counters that count a new record when the evidence log sequences it, seconds after it is written; this is when they last counted (null for a search, which counts the records themselves)'),
}));

export const proofView = /* @__PURE__ */ z.lazy(() => z.object({
  recordId: z.uuid(),
  proofVersion: described(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]), '4: format 3\'s evidence plus salt, 16 random bytes (base64url) of this record, which keys the hashes of its values once retention erases them (and is erased with them); 3: the evidence with its attribution (attribution, attributionMethod, attributedBy; and identifierSignedAt on SIGNED_HASH records whose signature carried a time); 2: the evidence alone; 1: records of the hash-chain era, whose evidence also holds chainSeq and prevProofHash'),
  algorithm: z.string(),
  canonicalPayload: described(z.string(), 'The RFC 8785 canonical JSON that was hashed'),
  payload: z.record(z.string(), z.unknown()),
  attributedByActor: described(z.nullable(actorView), 'Extension: the team member a DASHBOARD record names by id in attributedBy, as the team list reads now (the evidence keeps only the id); null for any other attribution'),
  proofHash: z.string(),
  recomputedHash: described(z.string(), 'What canonicalPayload hashes to (SHA-256). The proofHash itself, unless retention erased values of the evidence (erasure)'),
  matches: described(z.boolean(), 'The evidence stands for proofHash: recomputedHash equals it or, once retention erased values of it, the binding logged by retention.erased holds'),
  erasure: described(
    z.nullable(z.object({
      documentId: z.string(),
      at: described(z.iso.datetime(), 'When the values were erased'),
      runId: described(z.nullable(z.string()), 'The retention run that erased them'),
      erasedFields: described(z.partialRecord(z.enum(erasableFields.record), z.string()), 'Each erased field (externalId, userAgent, ipAddress; salt in proof format 4) and its hash, as the binding holds them; the payload shows each as `{ sha256 }`. Proof format 4: the SHA-256 of the RFC 8785 form of { salt, value }, the salt\'s own the SHA-256 of its text; older formats: the SHA-256 of the value'),
      evidenceSha256: z.string(),
      document: described(z.object({ documentId: z.string(), canonical: described(z.string(), "The logged retention.erased, RFC 8785 canonical JSON: content.recordBindings holds the binding (recordId, proofHash, <field>Sha256 of each erased field, evidenceSha256; content.externalIds in erasures logged before user agents and IP addresses were erased), content.runId the retention run, at when"), hash: described(z.string(), 'SHA-256 of canonical, the entry\'s leaf data') }), 'The erasure as logged'),
      log: described(z.object({
        status: z.enum(['INTEGRATED', 'PENDING']),
        leafIndex: z.nullable(z.number().check(z.int())),
        inclusionProof: z.array(z.string()),
      }), 'The erasure\'s place in the log, against the same checkpoint as `log` (PENDING until that checkpoint covers it)'),
    })),
    "Extension (retention, s.8(7)): once the principal's consent lapsed for every purpose, the record's external id, user agent and IP address (and in proof format 4 its salt) are erased: the payload holds each as `{ sha256 }` and stands for proofHash by the binding in the logged retention.erased documentId (the hash of each value, keyed by the salt in format 4, and the SHA-256 of the payload's RFC 8785 form), given here as logged with its inclusion proof so the binding can be checked, not trusted (the dashboard's Proof check and scripts/verify-receipt.mjs do). Whoever holds the clear values (and in format 4 the salt) can put them back in place of `{ sha256 }` and hash the payload to proofHash. null otherwise",
  ),
  log: logView,
  lastWithdrawal: described(
    z.nullable(
      z.object({
        withdrawalId: z.uuid(),
        withdrawnAt: z.iso.datetime(),
        method: z.enum(withdrawalMethods),
        reason: described(z.nullable(z.string()), 'The reason she gave; null when she gave none, or once retention erased it (reasonSha256)'),
        reasonSha256: described(z.nullable(z.string()), "Extension (retention, s.8(7)): once the principal's consent lapsed for every purpose, the reason she gave is erased; the withdrawal's evidence keeps its SHA-256 (of the RFC 8785 form of { salt, value } on a withdrawal whose evidence has a salt, erased with the reason), bound to the withdrawal's hash by the logged retention.erased. null otherwise"),
        isFullWithdrawal: z.boolean(),
        purposeIds: z.array(z.string()),
        attribution: described(z.nullable(withdrawalAttributionSchema), 'Set for a withdrawal by email at POST /consent/withdraw-public (PUBLIC_EMAIL_CLAIM: unverified); null otherwise'),
      }),
    ),
    'Extension: the withdrawal that last changed this record, as its WithdrawalRecord holds it (part of the tenant\'s log); null while none did',
  ),
  receipt: described(z.string(), 'Extension: the record\'s receipt, the compact JWS record returned (issued again; Ed25519 signatures are deterministic), verifiable with GET /consent/log/keys'),
  consentState: consentStateSchema,
  guardianVerification: guardianVerificationSchema(),
  guardianRequestId: described(z.nullable(z.uuid()), "Extension: the guardian request of a child's or guarded person's decision (GET /children/guardian-requests/:requestId holds its logged decision); null otherwise"),
}));

export const analyticsView = /* @__PURE__ */ z.lazy(() => z.object({
  totalConsents: described(z.number().check(z.int()), 'Consent records ever written'),
  countsAsOf: described(z.nullable(z.iso.datetime()), 'Extension: when the counters last counted; a new record is counted when the evidence log sequences it, seconds after it is written'),
  consentGiven: described(z.number().check(z.int()), 'Records not fully withdrawn (active or partially withdrawn)'),
  consentWithdrawn: described(z.number().check(z.int()), 'Records fully withdrawn'),
  withdrawalRate: described(z.number(), 'consentWithdrawn / totalConsents × 100, two decimals; 0 when there are no records'),
  recentConsents: described(z.number().check(z.int()), 'Records written in the last 7 days (today and the 6 days before, UTC)'),
  consentsLast30Days: described(z.number().check(z.int()), 'Extension: records written in the last 30 days (today and the 29 days before, UTC)'),
  daily: described(z.array(z.object({ date: described(z.string(), 'UTC day, YYYY-MM-DD'), consents: z.number().check(z.int()) })), 'Extension: records written per UTC day, the last 30 days, oldest first (days without records are 0)'),
  byPurpose: z.array(z.object({ purposeId: z.uuid(), name: z.string(), given: z.number().check(z.int()), withdrawn: z.number().check(z.int()) })),
}));

export const withdrawBody = /* @__PURE__ */ (() => z.strictObject({
  dataPrincipalIdentifier: identifierSchema,
  noticeId: z.uuid(),
  reason: z.optional(reasonSchema),
}))();

export const withdrawalTokenBody = /* @__PURE__ */ (() => z.strictObject({
  dataPrincipalIdentifier: identifierSchema,
  noticeId: z.uuid(),
}))();

export const tokenParams = /* @__PURE__ */ (() => z.strictObject({ token: z.string().check(z.minLength(20), z.maxLength(100)) }))();

export const portalWithdrawBody = /* @__PURE__ */ (() => z.strictObject({
    purposeIds: z.optional(z.array(z.uuid()).check(z.maxLength(100))),
    withdrawAll: z._default(z.boolean(), true),
    reason: z.optional(reasonSchema),
  }).check(z.refine((body) => body.withdrawAll || (body.purposeIds?.length ?? 0) > 0, {
    message: 'name the purposes to withdraw when withdrawAll is false',
    path: ['purposeIds'],
  }), z.refine((body) => !body.withdrawAll || body.purposeIds === undefined, {
    message: 'purposeIds names a partial withdrawal: send it with withdrawAll false (withdrawAll defaults to true, everything)',
    path: ['purposeIds'],
  })))();

/** The public withdrawal page's request (extension): which tenant, and where to mail the link. */
export const portalLinkBody = /* @__PURE__ */ (() => z.strictObject({
  tenantSlug: slugSchema,
  email: z.email().check(z.maxLength(254)),
}))();

export const portalLinkResult = /* @__PURE__ */ z.lazy(() => z.object({ accepted: z.literal(true) }));

export const withdrawPublicBody = /* @__PURE__ */ (() => z.strictObject({
  apiKey: z.string().check(z.maxLength(200)),
  email: z.email().check(z.maxLength(254)),
  purposeIds: z._default(z.array(z.uuid()).check(z.maxLength(100)), []),
  withdrawalReason: z.optional(reasonSchema),
}))();

export const sdkWithdrawBody = /* @__PURE__ */ (() => z.strictObject({
  apiKey: z.string().check(z.maxLength(200)),
  consentRecordId: z.uuid(),
  withdrawalKey: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'the withdrawalKey sdk-record returned with this record')),
  purposeIds: described(z.optional(z.array(z.uuid()).check(z.minLength(1), z.maxLength(100))), 'The purposes to withdraw; omit to withdraw all'),
  reason: z.optional(reasonSchema),
}))();

const withdrawalFields = /* @__PURE__ */ (() => ({
  withdrawnAt: z.iso.datetime(),
  withdrawnCount: z.number().check(z.int()),
  isFullWithdrawal: z.boolean(),
  purposesWithdrawn: z.array(z.uuid()),
  tenant: z.object({ name: z.string(), slug: z.string() }),
}))();

export const publicWithdrawalResult = /* @__PURE__ */ z.lazy(() => z.object({
  withdrawalId: z.nullable(z.uuid()),
  ...withdrawalFields,
  confirmationRequired: described(z.boolean(), 'Extension: true when the tenant\'s publicWithdrawal setting is CONFIRM_BY_EMAIL: nothing was withdrawn yet; a single-use link was mailed to the address if it has consent (the answer is the same either way)'),
}));

export const publicWithdrawalModes = ['IMMEDIATE', 'CONFIRM_BY_EMAIL'] as const;
export type PublicWithdrawalMode = (typeof publicWithdrawalModes)[number];

/** PUT merges: the settings not sent keep their value. */
export const consentSettingsBody = /* @__PURE__ */ z.lazy(() => z.strictObject({
    requireVerifiedIdentity: z.optional(z.boolean()),
    publicWithdrawal: z.optional(z.enum(publicWithdrawalModes)),
  }).check(z.refine((body) => body.requireVerifiedIdentity !== undefined || body.publicWithdrawal !== undefined, { message: 'send at least one setting', path: ['requireVerifiedIdentity'] })));

export const consentSettingsView = /* @__PURE__ */ z.lazy(() => z.object({
  requireVerifiedIdentity: described(z.boolean(), 'sdk-record refuses records that are not VERIFIED (an unsigned identifierHash, or no identifier): 400 VALIDATION_ERROR naming identifierSignature'),
  publicWithdrawal: described(z.enum(publicWithdrawalModes), 'IMMEDIATE: withdraw-public withdraws at once (the spec). CONFIRM_BY_EMAIL: it mails the address a single-use withdrawal link instead, and answers the same for every address'),
  updatedAt: z.nullable(z.iso.datetime()),
  updatedBy: described(z.nullable(z.string()), 'user:<userId> of the last change; null while the defaults stand'),
}));

export const consentSettingsChange = /* @__PURE__ */ z.lazy(() => z.object({
  documentId: described(z.uuid(), 'The logged document (its id in the tenant\'s evidence log)'),
  at: z.iso.datetime(),
  by: described(z.string(), 'user:<userId> who saved'),
  revision: described(z.number().check(z.int()), 'Counts the saves of the settings: each change replaced what the save before it left'),
  changes: described(
    z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
    'Each setting whose value changed: its value before and after',
  ),
  hash: described(z.string(), 'SHA-256 hex of the document\'s RFC 8785 form: its leaf data in the log'),
}));

export const withdrawalResult = /* @__PURE__ */ z.lazy(() => z.object({
  withdrawalId: z.uuid(),
  ...withdrawalFields,
  complianceTask: described(z.object({ taskId: z.uuid(), dueAt: z.iso.datetime() }), 'The 7-day task to stop the processing'),
}));

export const withdrawalTokenResult = /* @__PURE__ */ z.lazy(() => z.object({
  token: z.string(),
  portalUrl: z.string(),
  expiresAt: z.iso.datetime(),
}));

const portalTextFields = /* @__PURE__ */ (() => ({
  title: z.string(),
  rightsText: z.nullable(z.string()),
  complaintText: z.nullable(z.string()),
}))();

export const portalViewResult = /* @__PURE__ */ z.lazy(() => z.object({
  tenant: z.object({ name: z.string(), slug: z.string() }),
  notice: z.object({
    id: z.uuid(),
    versionNumber: z.number().check(z.int()),
    contactEmail: z.nullable(z.string()),
    contactUrl: z.nullable(z.string()),
    ...portalTextFields,
  }),
  consentRecordId: z.uuid(),
  consentedAt: z.iso.datetime(),
  isWithdrawn: z.boolean(),
  isPartiallyWithdrawn: z.boolean(),
  purposes: z.array(z.object({ id: z.uuid(), name: z.string(), description: z.string(), required: z.boolean(), granted: z.boolean(), withdrawn: z.boolean() })),
  availableLanguages: z.array(z.string()),
  translations: z.record(
    z.string(),
    z.object({ ...portalTextFields, purposes: z.record(z.uuid(), z.object({ name: z.string(), description: z.string() })) }),
  ),
  expiresAt: z.iso.datetime(),
}));

export const taskQuery = /* @__PURE__ */ z.lazy(() => z.object({ status: z.optional(z.enum(['OPEN', 'DONE', 'OVERDUE'])) }));
export const taskParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ id: z.uuid() }));
export const taskView = /* @__PURE__ */ z.lazy(() => z.object({
  taskId: z.uuid(),
  withdrawalId: z.uuid(),
  status: z.enum(['OPEN', 'DONE', 'OVERDUE']),
  dueAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  completedAt: z.nullable(z.iso.datetime()),
  completedBy: z.nullable(z.string()),
  description: z.string(),
  withdrawalMethod: described(z.nullable(z.enum(withdrawalMethods)), 'Extension: how the withdrawal was made (the withdrawalMethod of its consent.withdrawn events); null for tasks made before it was kept'),
  withdrawalAttribution: described(z.nullable(withdrawalAttributionSchema), 'Extension: set for a withdrawal by email at POST /consent/withdraw-public: how far it knows its principal (PUBLIC_EMAIL_CLAIM: unverified); null otherwise'),
}));

const exportDay = /* @__PURE__ */ (() => z.iso.date())();

export const exportRecordsQuery = /* @__PURE__ */ (() => z.strictObject({
  from: described(z.optional(exportDay), 'First UTC day of creation, YYYY-MM-DD, inclusive; default: the first record'),
  to: described(z.optional(exportDay), 'Last UTC day of creation, inclusive; default: today'),
  format: described(z._default(z.enum(['jsonl', 'csv']), 'jsonl'), 'jsonl: one JSON object per line; csv: RFC 4180 with a header row on the first page'),
  limit: described(z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(5000)), 5000), 'Records per page at most; a page also ends at about 4 MB'),
  cursor: described(z.optional(z.string().check(z.maxLength(2000))), 'The X-Next-Cursor header of the previous page'),
}))();
