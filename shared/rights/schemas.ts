import * as z from 'zod/mini';
import { described } from '../described';
import { logView } from '../evidence/schemas';
import { legalBases } from '../notices/notice';
import { languageCode } from '../notices/schemas';
import { slugSchema } from '../tenants/tenant';
import { actorView } from '../users/schemas';
import { assetStates, loggedChannels, outcomes, requestChannels, requestStatuses, requestTypes } from './request';

const hash = /* @__PURE__ */ (() => z.string().check(z.regex(/^[0-9a-f]{64}$/)))();
const time = /* @__PURE__ */ (() => z.iso.datetime())();
const details = /* @__PURE__ */ (() => described(z.string().check(z.trim(), z.minLength(1), z.maxLength(5000)), 'What the principal asks for, in their words'))();
const nominee = /* @__PURE__ */ (() => z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  email: z.email().check(z.maxLength(254)),
  relationship: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
}))();

/** A nominee is what a NOMINATION is about, and nothing else carries one. */
const nomineeRule = (body: { type: string; nominee?: unknown }, context: z.core.$RefinementCtx) => {
  if (body.type === 'NOMINATION' && !body.nominee) context.addIssue({ code: 'custom', path: ['nominee'], message: 'a NOMINATION names its nominee' });
  if (body.type !== 'NOMINATION' && body.nominee) context.addIssue({ code: 'custom', path: ['nominee'], message: 'only a NOMINATION names a nominee' });
};

export const publicRequestBody = /* @__PURE__ */ z.lazy(() => z.strictObject({
    tenantSlug: slugSchema,
    type: z.enum(requestTypes),
    email: described(z.email().check(z.maxLength(254)), 'Where the confirmation link, and later the answer, are mailed'),
    details,
    nominee: described(z.optional(nominee), 'NOMINATION only (required there): the person who may exercise the principal\'s rights on death or incapacity (s.14)'),
    language: described(z._default(languageCode, 'EN'), 'Extension: the language of the request form; the principal\'s mails and link page use it where labels exist'),
  }).check(z.superRefine(nomineeRule)));

export const publicRequestResult = /* @__PURE__ */ z.lazy(() => z.object({ accepted: z.literal(true) }));

export const loggedRequestBody = /* @__PURE__ */ z.lazy(() => z.strictObject({
    type: z.enum(requestTypes),
    dataPrincipalIdentifier: described(z.string().check(z.trim(), z.minLength(1), z.maxLength(512)), 'Email or the tenant\'s identifier of the principal; only its hash is shown. An email also gets the acknowledgement and the answer by mail'),
    details: described(details, 'What the principal asks, in their words: the principal reads it back on their request page'),
    teamNote: described(z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(5000))), 'Extension: the team\'s own note (who took the call, what was checked); kept with the request and never shown to the principal'),
    channel: z.enum(loggedChannels),
    nominee: z.optional(nominee),
  }).check(z.superRefine(nomineeRule)));

export const listRequestsQuery = /* @__PURE__ */ z.lazy(() => z.object({
  status: z.optional(z.enum(requestStatuses)),
  type: z.optional(z.enum(requestTypes)),
  overdue: described(z.optional(z.enum(['true', 'false'])), 'true: open requests (SUBMITTED, IN_PROGRESS) past their due date only'),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(50)), 20),
  cursor: described(z.optional(z.string().check(z.maxLength(2000))), 'The nextCursor of the previous page'),
}));

export const requestParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ requestId: z.uuid() }));
export const requestAssetParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ requestId: z.uuid(), assetId: z.uuid() }));
export const publicTokenParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ token: z.string().check(z.minLength(20), z.maxLength(100)) }));
export const tenantSlugParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ tenantSlug: slugSchema }));

export const resolveBody = /* @__PURE__ */ z.lazy(() => z.strictObject({
  outcome: z.enum(outcomes),
  response: described(z.string().check(z.trim(), z.minLength(1), z.maxLength(5000)), 'The answer to the principal, a rejection\'s reasons included'),
}));

export const assetStateBody = /* @__PURE__ */ z.lazy(() => z.strictObject({
    state: z.enum(['DONE', 'RETAINED']),
    note: described(z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(1000))), 'Required for RETAINED: the law or purpose that requires keeping the data (s.12(3))'),
  }).check(z.superRefine((body, context) => {
    if (body.state === 'RETAINED' && !body.note) context.addIssue({ code: 'custom', path: ['note'], message: 'say which law or purpose requires keeping the data' });
  })));

export const settingsBody = /* @__PURE__ */ z.lazy(() => z.strictObject({
    grievanceResponseDays: z.optional(z.number().check(z.int(), z.gte(1), z.lte(90))),
    requestResponseDays: z.optional(z.number().check(z.int(), z.gte(1), z.lte(90))),
    identifiersRequired: z.optional(z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))).check(z.minLength(1), z.maxLength(20))),
  }).check(z.refine((body) => Object.keys(body).length > 0, 'at least one field is required')));

export const settingsView = /* @__PURE__ */ z.lazy(() => z.object({
  grievanceResponseDays: described(z.number().check(z.int()), 'Days to answer a grievance (s.13; at most 90, Rule 14(3))'),
  requestResponseDays: described(z.number().check(z.int()), 'Days to answer any other request'),
  identifiersRequired: described(z.array(z.string()), 'What a principal must give to be identified (Rule 14(1)), e.g. ["email"]'),
  updatedAt: z.nullable(time),
}));

const requestAsset = /* @__PURE__ */ (() => z.object({
  assetId: z.uuid(),
  name: z.string(),
  system: z.string(),
  state: described(z.nullable(z.enum(assetStates)), 'ERASURE, CORRECTION, COMPLETION and UPDATING only; null for the other types'),
  note: z.nullable(z.string()),
  updatedAt: z.nullable(time),
  updatedBy: z.nullable(z.string()),
  updatedByActor: z.nullable(actorView),
}))();

const requestFields = {
  requestId: z.uuid(),
  type: z.enum(requestTypes),
  status: z.enum(requestStatuses),
  channel: described(z.enum(requestChannels), 'WEB: the public request form; the others: logged by the team'),
  principalHash: described(hash, 'SHA-256 hex of the principal\'s identifier (emails lower-cased), as on consent records'),
  createdAt: time,
  submittedAt: z.nullable(time),
  dueAt: described(z.nullable(time), 'Submission plus the response period of its type'),
  daysLeft: described(z.nullable(z.number().check(z.int())), 'Whole days until dueAt, negative once overdue; null unless open'),
  overdue: z.boolean(),
  outcome: z.nullable(z.enum(outcomes)),
  resolvedAt: z.nullable(time),
};

export const requestListItem = /* @__PURE__ */ (() => z.object(requestFields))();
export const requestPage = /* @__PURE__ */ (() => z.object({ items: z.array(requestListItem), nextCursor: z.nullable(z.string()) }))();

const closureView = /* @__PURE__ */ (() => described(z.object({
    receipt: described(z.string(), 'Compact JWS (typ rights-closure+jwt) by the receipt key over rid (request), rt (type), out (outcome), rat (resolvedAt), tid (tenant), dh (the resolution document\'s hash), iat'),
    document: z.object({ documentId: z.uuid(), canonical: described(z.string(), 'The logged resolution, RFC 8785 canonical JSON'), hash }),
    log: logView,
  }), 'GRIEVANCE resolved: the signed closure receipt and the logged resolution it names, with its place in the tenant\'s Merkle log; `node scripts/verify-receipt.mjs --closure` checks all of it offline'))();

export const requestView = /* @__PURE__ */ z.lazy(() => z.object({
  ...requestFields,
  details: described(z.string(), 'What the principal asked, in their words: shown to them on their request page'),
  teamNote: described(z.nullable(z.string()), 'Extension: the team\'s own note on a logged request; never shown to the principal'),
  nominee: z.nullable(nominee),
  response: z.nullable(z.string()),
  timeline: z.array(z.object({ at: time, status: z.enum(requestStatuses), by: described(z.string(), 'principal, user:<userId> or system'), actor: z.nullable(actorView) })),
  assets: described(z.array(requestAsset), 'The assets of the purposes the principal consented to, when the request was submitted'),
  loggedBy: z.nullable(z.string()),
  withdrawalId: described(z.nullable(z.uuid()), 'ERASURE fulfilled: the withdrawal of all the principal\'s consent (method RIGHTS_REQUEST)'),
  documents: described(z.array(z.object({ documentId: z.uuid(), documentType: z.string(), at: time, hash })), 'The request\'s entries in the tenant\'s Merkle log: its submission and resolution'),
  closure: z.nullable(closureView),
}));

const named = /* @__PURE__ */ (() => z.object({ purposeId: z.uuid(), name: z.string() }))();

export const accessSummary = /* @__PURE__ */ (() => described(z.object({
    principalHash: hash,
    generatedAt: time,
    tenant: z.object({ name: z.string() }),
    dpoContact: z.nullable(z.string()),
    records: z.array(
      z.object({
        consentRecordId: z.uuid(),
        noticeId: z.uuid(),
        noticeTitle: z.string(),
        noticeVersion: z.number().check(z.int()),
        language: z.string(),
        givenAt: time,
        purposesGranted: z.array(named),
        purposesWithdrawn: z.array(named),
        fullyWithdrawn: z.boolean(),
        withdrawnAt: z.nullable(time),
      }),
    ),
    purposes: z.array(
      z.object({
        purposeId: z.uuid(),
        name: z.string(),
        lawfulBasis: described(z.enum(legalBases), 'CONSENT: the principal consented and has not withdrawn; LEGITIMATE_USE: used under a legitimate use (s.7), not consent'),
        dataCategories: z.array(z.string()),
        assets: z.array(z.object({ assetId: z.uuid(), name: z.string(), system: z.string(), location: z.string(), dataCategories: z.array(z.string()), retentionDays: z.nullable(z.number().check(z.int())) })),
      }),
    ),
    sharedWith: z.array(
      z.object({
        processorId: z.uuid(),
        name: z.string(),
        role: z.enum(['PROCESSOR', 'FIDUCIARY']),
        country: z.string(),
        contactEmail: z.nullable(z.string()),
        dataCategories: described(z.array(z.string()), 'The categories of the assets through which the data is shared'),
      }),
    ),
    nominees: z.array(z.object({ name: z.string(), relationship: z.string(), nominatedAt: time })),
  }), 'The s.11 summary: the consent records, per purpose the data is used for now (consent given and not withdrawn, or another lawful basis, stated) the data categories and the assets that process them, every processor and fiduciary the data is shared with (except disclosures to authorities under s.11(2)), and the nominees'))();

export const publicRequestView = /* @__PURE__ */ z.lazy(() => z.object({
  tenant: z.object({ name: z.string(), slug: z.string() }),
  requestId: z.uuid(),
  type: z.enum(requestTypes),
  status: z.enum(requestStatuses),
  details: z.string(),
  nominee: z.nullable(z.object({ name: z.string(), relationship: z.string() })),
  createdAt: time,
  confirmBy: described(z.nullable(time), 'UNVERIFIED: confirm before this, or the request expires'),
  submittedAt: z.nullable(time),
  dueAt: z.nullable(time),
  daysLeft: z.nullable(z.number().check(z.int())),
  overdue: z.boolean(),
  outcome: z.nullable(z.enum(outcomes)),
  response: z.nullable(z.string()),
  resolvedAt: z.nullable(time),
  language: z.string(),
  dpoContact: described(z.nullable(z.string()), 'Whom to contact about this request (Rule 9)'),
  linkValidUntil: described(z.nullable(time), 'The link shows the answer until 90 days after the resolution'),
  summary: described(z.nullable(accessSummary), 'ACCESS fulfilled: the summary as it was answered'),
  closure: z.nullable(closureView),
}));

export const meansView = /* @__PURE__ */ z.lazy(() => z.object({
  tenant: z.object({ name: z.string(), slug: z.string() }),
  rights: described(z.array(z.enum(requestTypes)), 'The rights a principal can exercise here'),
  identifiersRequired: z.array(z.string()),
  requestResponseDays: z.number().check(z.int()),
  grievanceResponseDays: z.number().check(z.int()),
  dpoContact: z.nullable(z.string()),
  requestPageUrl: described(z.nullable(z.string()), 'The public request page (the tenant\'s page of the portal), null without a configured portal'),
}));
