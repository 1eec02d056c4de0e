import * as z from 'zod';
import { languageCode } from '../notices/schemas';
import { logView } from '../evidence/schemas';
import { slugSchema } from '../tenants/tenant';
import { attributionLevels } from './attribution-levels';

export const principalHashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'exactly 64 lower-case hex characters (SHA-256)');
const purposeDecisions = z.record(z.uuid(), z.boolean());
const identifier = z.string().trim().min(1).max(512);
export const reasonSchema = z.string().trim().max(500);
export const widgetPositions = ['bottom-right', 'bottom-left', 'bottom-center', 'top-center', 'api'] as const;

export const attributionSchema = z
  .enum(attributionLevels)
  .describe('Extension: VERIFIED (a secret key, a valid identifierSignature, or the dashboard), CLAIMED (an unsigned identifierHash from a publishable key) or IP (no identifier: the client address)');

export const recordBody = z.strictObject({
  noticeId: z.uuid(),
  dataPrincipalIdentifier: identifier,
  consentGiven: purposeDecisions,
  ipAddress: z.union([z.ipv4(), z.ipv6()]).optional(),
  userAgent: z.string().max(1000).optional(),
  externalId: z.string().trim().min(1).max(256).optional(),
  language: languageCode.default('EN'),
  positionShown: z.enum(widgetPositions).default('api'),
});

export const sdkRecordBody = z.strictObject({
  apiKey: z.string().max(200),
  status: z.enum(['ACCEPTED', 'REJECTED', 'PARTIAL']),
  purposes: purposeDecisions,
  userAgent: z.string().max(1000).optional(),
  url: z.url().max(2000).optional(),
  language: languageCode.default('EN'),
  positionShown: z.enum(widgetPositions).default('bottom-right'),
  noticeId: z.uuid().optional(),
  identifierHash: principalHashSchema.optional(),
  identifierSignature: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'lower-case hex HMAC-SHA256 of identifierHash, keyed with a secret key as issued')
    .optional()
    .describe("Extension: the tenant server's signature of identifierHash (lower-case hex HMAC-SHA256 of the 64-character hash as text, keyed with one of the tenant's secret keys exactly as issued). A valid one makes the record VERIFIED; an invalid one is 400."),
  identifier: identifier.optional().describe('Raw email, phone or user id, hashed by the service. Secret keys only (server-to-server): with a publishable key it is 400 VALIDATION_ERROR.'),
  externalId: z.string().trim().min(1).max(256).optional(),
});

export const recordResult = z.object({
  consentRecordId: z.uuid(),
  proofHash: z.string(),
  status: z.literal('recorded'),
  attribution: attributionSchema,
  receipt: z
    .string()
    .describe('Extension: a compact JWS (EdDSA) over rid (record id), ph (proofHash), tid, nid, nv (notice version), att (attribution), iat, verifiable with GET /consent/log/keys; keep it to check the record against the log later'),
});

export const sdkRecordResult = recordResult.extend({
  withdrawalKey: z
    .string()
    .describe('Extension: 256 random bits (base64url), the proof of possession POST /consent/sdk-withdraw asks for. Returned only here, stored only as its SHA-256, never shown again: keep it with the record id (the widget keeps it in localStorage).'),
});

export const hashParams = z.strictObject({ hash: principalHashSchema });
export const externalIdParams = z.strictObject({ externalId: z.string().min(1).max(256) });
export const recordIdParams = z.strictObject({ id: z.uuid() });

export const listRecordsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  search: z.email().optional().describe('A full email address; hashed and matched against dataPrincipalHash. Partial search is not supported.'),
  status: z.enum(['active', 'partial', 'withdrawn']).optional(),
  sortBy: z.enum(['createdAt', 'withdrawnAt']).default('createdAt'),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
  cursor: z.string().max(2000).optional().describe('Extension: the nextCursor of the previous page; cheap at any depth. page is ignored when given.'),
});

const statusFields = {
  attribution: attributionSchema.nullable().describe('Extension: how the record knows its principal (VERIFIED, CLAIMED or IP); null for records made before attribution was recorded (proof formats 1 and 2)'),
  isWithdrawn: z.boolean(),
  withdrawnAt: z.iso.datetime().nullable(),
  withdrawnPurposes: z.array(z.uuid()),
  isPartiallyWithdrawn: z.boolean(),
  createdAt: z.iso.datetime(),
  noticeId: z.uuid(),
  noticeTitle: z.string(),
};

export const statusItem = z.object({
  consentRecordId: z.uuid(),
  noticeVersion: z.number().int(),
  consentGiven: z.record(z.string(), z.boolean()),
  proofHash: z.string(),
  ...statusFields,
});

export const externalIdItem = z.object({
  id: z.uuid(),
  dataPrincipalHash: z.string(),
  externalId: z.string().nullable(),
  consentGiven: z.record(z.string(), z.boolean()),
  noticeVersionNumber: z.number().int(),
  currentNoticeVersion: z.number().int(),
  ...statusFields,
});

export const listItem = externalIdItem.extend({
  consentGiven: z.boolean().describe('true when the principal granted at least one purpose in this record'),
  languageShown: z.string(),
  positionShown: z.string(),
  proofHash: z.string(),
});

export const recordPage = z.object({
  items: z.array(listItem),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  nextCursor: z.string().nullable(),
  countsAsOf: z.iso
    .datetime()
    .nullable()
    .describe('Extension: total comes from counters that count a new record when the evidence log sequences it, seconds after it is written; this is when they last counted (null for a search, which counts the records themselves)'),
});

export const proofView = z.object({
  recordId: z.uuid(),
  proofVersion: z
    .union([z.literal(1), z.literal(2), z.literal(3)])
    .describe('3: the evidence with its attribution (attribution, attributionMethod, attributedBy); 2: the evidence alone; 1: records of the hash-chain era, whose evidence also holds chainSeq and prevProofHash'),
  algorithm: z.string(),
  canonicalPayload: z.string().describe('The RFC 8785 canonical JSON that was hashed'),
  payload: z.record(z.string(), z.unknown()),
  proofHash: z.string(),
  recomputedHash: z.string(),
  matches: z.boolean(),
  log: logView,
  receipt: z.string().describe('Extension: the record\'s receipt, the compact JWS record returned (issued again; Ed25519 signatures are deterministic), verifiable with GET /consent/log/keys'),
});

export const analyticsView = z.object({
  totalConsents: z.number().int().describe('Consent records ever written'),
  countsAsOf: z.iso.datetime().nullable().describe('Extension: when the counters last counted; a new record is counted when the evidence log sequences it, seconds after it is written'),
  consentGiven: z.number().int().describe('Records not fully withdrawn (active or partially withdrawn)'),
  consentWithdrawn: z.number().int().describe('Records fully withdrawn'),
  withdrawalRate: z.number().describe('consentWithdrawn / totalConsents × 100, two decimals; 0 when there are no records'),
  recentConsents: z.number().int().describe('Records written in the last 7 days (today and the 6 days before, UTC)'),
  consentsLast30Days: z.number().int().describe('Extension: records written in the last 30 days (today and the 29 days before, UTC)'),
  daily: z
    .array(z.object({ date: z.string().describe('UTC day, YYYY-MM-DD'), consents: z.number().int() }))
    .describe('Extension: records written per UTC day, the last 30 days, oldest first (days without records are 0)'),
  byPurpose: z.array(z.object({ purposeId: z.uuid(), name: z.string(), given: z.number().int(), withdrawn: z.number().int() })),
});

export const withdrawBody = z.strictObject({
  dataPrincipalIdentifier: identifier,
  noticeId: z.uuid(),
  reason: reasonSchema.optional(),
});

export const withdrawalTokenBody = z.strictObject({
  dataPrincipalIdentifier: identifier,
  noticeId: z.uuid(),
});

export const tokenParams = z.strictObject({ token: z.string().min(20).max(100) });

export const portalWithdrawBody = z
  .strictObject({
    purposeIds: z.array(z.uuid()).max(100).optional(),
    withdrawAll: z.boolean().default(true),
    reason: reasonSchema.optional(),
  })
  .refine((body) => body.withdrawAll || (body.purposeIds?.length ?? 0) > 0, {
    message: 'name the purposes to withdraw when withdrawAll is false',
    path: ['purposeIds'],
  })
  // Both at once is ambiguous (withdraw everything, or only these?): refused rather than guessed.
  .refine((body) => !body.withdrawAll || body.purposeIds === undefined, {
    message: 'purposeIds names a partial withdrawal: send it with withdrawAll false (withdrawAll defaults to true, everything)',
    path: ['purposeIds'],
  });

/** The public withdrawal page's request (extension): which tenant, and where to mail the link. */
export const portalLinkBody = z.strictObject({
  tenantSlug: slugSchema,
  email: z.email().max(254),
});

export const portalLinkResult = z.object({ accepted: z.literal(true) });

export const withdrawPublicBody = z.strictObject({
  apiKey: z.string().max(200),
  email: z.email().max(254),
  purposeIds: z.array(z.uuid()).max(100).default([]),
  withdrawalReason: reasonSchema.optional(),
});

export const sdkWithdrawBody = z.strictObject({
  apiKey: z.string().max(200),
  consentRecordId: z.uuid(),
  withdrawalKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'the withdrawalKey sdk-record returned with this record'),
  purposeIds: z.array(z.uuid()).min(1).max(100).optional().describe('The purposes to withdraw; omit to withdraw all'),
  reason: reasonSchema.optional(),
});

const withdrawalFields = {
  withdrawnAt: z.iso.datetime(),
  withdrawnCount: z.number().int(),
  isFullWithdrawal: z.boolean(),
  purposesWithdrawn: z.array(z.uuid()),
  tenant: z.object({ name: z.string(), slug: z.string() }),
};

export const publicWithdrawalResult = z.object({
  withdrawalId: z.uuid().nullable(),
  ...withdrawalFields,
  confirmationRequired: z
    .boolean()
    .describe('Extension: true when the tenant\'s publicWithdrawal setting is CONFIRM_BY_EMAIL: nothing was withdrawn yet; a single-use link was mailed to the address if it has consent (the answer is the same either way)'),
});

export const publicWithdrawalModes = ['IMMEDIATE', 'CONFIRM_BY_EMAIL'] as const;
export type PublicWithdrawalMode = (typeof publicWithdrawalModes)[number];

/** PUT merges: the settings not sent keep their value. */
export const consentSettingsBody = z
  .strictObject({
    requireVerifiedIdentity: z.boolean().optional(),
    publicWithdrawal: z.enum(publicWithdrawalModes).optional(),
  })
  .refine((body) => body.requireVerifiedIdentity !== undefined || body.publicWithdrawal !== undefined, { message: 'send at least one setting', path: ['requireVerifiedIdentity'] });

export const consentSettingsView = z.object({
  requireVerifiedIdentity: z.boolean().describe('sdk-record refuses records that are not VERIFIED (an unsigned identifierHash, or no identifier): 400 VALIDATION_ERROR naming identifierSignature'),
  publicWithdrawal: z
    .enum(publicWithdrawalModes)
    .describe('IMMEDIATE: withdraw-public withdraws at once (the spec). CONFIRM_BY_EMAIL: it mails the address a single-use withdrawal link instead, and answers the same for every address'),
  updatedAt: z.iso.datetime().nullable(),
  updatedBy: z.string().nullable().describe('user:<userId> of the last change; null while the defaults stand'),
});

export const withdrawalResult = z.object({
  withdrawalId: z.uuid(),
  ...withdrawalFields,
  complianceTask: z.object({ taskId: z.uuid(), dueAt: z.iso.datetime() }).describe('The 7-day task to stop the processing'),
});

export const withdrawalTokenResult = z.object({
  token: z.string(),
  portalUrl: z.string(),
  expiresAt: z.iso.datetime(),
});

const portalTextFields = {
  title: z.string(),
  rightsText: z.string().nullable(),
  complaintText: z.string().nullable(),
};

export const portalViewResult = z.object({
  tenant: z.object({ name: z.string(), slug: z.string() }),
  notice: z.object({
    id: z.uuid(),
    versionNumber: z.number().int(),
    contactEmail: z.string().nullable(),
    contactUrl: z.string().nullable(),
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
});

export const taskQuery = z.object({ status: z.enum(['OPEN', 'DONE', 'OVERDUE']).optional() });
export const taskParams = z.strictObject({ id: z.uuid() });
export const taskView = z.object({
  taskId: z.uuid(),
  withdrawalId: z.uuid(),
  status: z.enum(['OPEN', 'DONE', 'OVERDUE']),
  dueAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
  completedBy: z.string().nullable(),
  description: z.string(),
});
