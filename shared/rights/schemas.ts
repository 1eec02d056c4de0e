import * as z from 'zod';
import { logView } from '../evidence/schemas';
import { languageCode } from '../notices/schemas';
import { slugSchema } from '../tenants/tenant';
import { assetStates, loggedChannels, outcomes, requestChannels, requestStatuses, requestTypes } from './request';

const hash = z.string().regex(/^[0-9a-f]{64}$/);
const time = z.iso.datetime();
const details = z.string().trim().min(1).max(5000).describe('What the principal asks for, in their words');
const nominee = z.strictObject({
  name: z.string().trim().min(1).max(200),
  email: z.email().max(254),
  relationship: z.string().trim().min(1).max(100),
});

/** A nominee is what a NOMINATION is about, and nothing else carries one. */
const nomineeRule = (body: { type: string; nominee?: unknown }, context: z.RefinementCtx) => {
  if (body.type === 'NOMINATION' && !body.nominee) context.addIssue({ code: 'custom', path: ['nominee'], message: 'a NOMINATION names its nominee' });
  if (body.type !== 'NOMINATION' && body.nominee) context.addIssue({ code: 'custom', path: ['nominee'], message: 'only a NOMINATION names a nominee' });
};

export const publicRequestBody = z
  .strictObject({
    tenantSlug: slugSchema,
    type: z.enum(requestTypes),
    email: z.email().max(254).describe('Where the confirmation link, and later the answer, are mailed'),
    details,
    nominee: nominee.optional().describe('NOMINATION only (required there): the person who may exercise the principal\'s rights on death or incapacity (s.14)'),
    language: languageCode.default('EN').describe('Extension: the language of the request form; the principal\'s mails and link page use it where labels exist'),
  })
  .superRefine(nomineeRule);

export const publicRequestResult = z.object({ accepted: z.literal(true) });

export const loggedRequestBody = z
  .strictObject({
    type: z.enum(requestTypes),
    dataPrincipalIdentifier: z.string().trim().min(1).max(512).describe('Email or the tenant\'s identifier of the principal; only its hash is shown. An email also gets the acknowledgement and the answer by mail'),
    details,
    channel: z.enum(loggedChannels),
    nominee: nominee.optional(),
  })
  .superRefine(nomineeRule);

export const listRequestsQuery = z.object({
  status: z.enum(requestStatuses).optional(),
  type: z.enum(requestTypes).optional(),
  overdue: z.enum(['true', 'false']).optional().describe('true: open requests (SUBMITTED, IN_PROGRESS) past their due date only'),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  cursor: z.string().max(2000).optional().describe('The nextCursor of the previous page'),
});

export const requestParams = z.strictObject({ requestId: z.uuid() });
export const requestAssetParams = z.strictObject({ requestId: z.uuid(), assetId: z.uuid() });
export const publicTokenParams = z.strictObject({ token: z.string().min(20).max(100) });
export const tenantSlugParams = z.strictObject({ tenantSlug: slugSchema });

export const resolveBody = z.strictObject({
  outcome: z.enum(outcomes),
  response: z.string().trim().min(1).max(5000).describe('The answer to the principal, a rejection\'s reasons included'),
});

export const assetStateBody = z
  .strictObject({
    state: z.enum(['DONE', 'RETAINED']),
    note: z.string().trim().min(1).max(1000).optional().describe('Required for RETAINED: the law or purpose that requires keeping the data (s.12(3))'),
  })
  .superRefine((body, context) => {
    if (body.state === 'RETAINED' && !body.note) context.addIssue({ code: 'custom', path: ['note'], message: 'say which law or purpose requires keeping the data' });
  });

export const settingsBody = z
  .strictObject({
    grievanceResponseDays: z.number().int().min(1).max(90).optional(),
    requestResponseDays: z.number().int().min(1).max(90).optional(),
    identifiersRequired: z.array(z.string().trim().min(1).max(100)).min(1).max(20).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'at least one field is required');

export const settingsView = z.object({
  grievanceResponseDays: z.number().int().describe('Days to answer a grievance (s.13; at most 90, Rule 14(3))'),
  requestResponseDays: z.number().int().describe('Days to answer any other request'),
  identifiersRequired: z.array(z.string()).describe('What a principal must give to be identified (Rule 14(1)), e.g. ["email"]'),
  updatedAt: time.nullable(),
});

const requestAsset = z.object({
  assetId: z.uuid(),
  name: z.string(),
  system: z.string(),
  state: z.enum(assetStates).nullable().describe('ERASURE, CORRECTION, COMPLETION and UPDATING only; null for the other types'),
  note: z.string().nullable(),
  updatedAt: time.nullable(),
  updatedBy: z.string().nullable(),
});

const requestFields = {
  requestId: z.uuid(),
  type: z.enum(requestTypes),
  status: z.enum(requestStatuses),
  channel: z.enum(requestChannels).describe('WEB: the public request form; the others: logged by the team'),
  principalHash: hash.describe('SHA-256 hex of the principal\'s identifier (emails lower-cased), as on consent records'),
  createdAt: time,
  submittedAt: time.nullable(),
  dueAt: time.nullable().describe('Submission plus the response period of its type'),
  daysLeft: z.number().int().nullable().describe('Whole days until dueAt, negative once overdue; null unless open'),
  overdue: z.boolean(),
  outcome: z.enum(outcomes).nullable(),
  resolvedAt: time.nullable(),
};

export const requestListItem = z.object(requestFields);
export const requestPage = z.object({ items: z.array(requestListItem), nextCursor: z.string().nullable() });

const closureView = z
  .object({
    receipt: z.string().describe('Compact JWS (typ rights-closure+jwt) by the receipt key over rid (request), rt (type), out (outcome), rat (resolvedAt), tid (tenant), dh (the resolution document\'s hash), iat'),
    document: z.object({ documentId: z.uuid(), canonical: z.string().describe('The logged resolution, RFC 8785 canonical JSON'), hash }),
    log: logView,
  })
  .describe('GRIEVANCE resolved: the signed closure receipt and the logged resolution it names, with its place in the tenant\'s Merkle log; `node scripts/verify-receipt.mjs --closure` checks all of it offline');

export const requestView = z.object({
  ...requestFields,
  details: z.string(),
  nominee: nominee.nullable(),
  response: z.string().nullable(),
  timeline: z.array(z.object({ at: time, status: z.enum(requestStatuses), by: z.string().describe('principal, user:<userId> or system') })),
  assets: z.array(requestAsset).describe('The assets of the purposes the principal consented to, when the request was submitted'),
  loggedBy: z.string().nullable(),
  withdrawalId: z.uuid().nullable().describe('ERASURE fulfilled: the withdrawal of all the principal\'s consent (method RIGHTS_REQUEST)'),
  documents: z.array(z.object({ documentId: z.uuid(), documentType: z.string(), at: time, hash })).describe('The request\'s entries in the tenant\'s Merkle log: its submission and resolution'),
  closure: closureView.nullable(),
});

const named = z.object({ purposeId: z.uuid(), name: z.string() });

export const accessSummary = z
  .object({
    principalHash: hash,
    generatedAt: time,
    tenant: z.object({ name: z.string() }),
    dpoContact: z.string().nullable(),
    records: z.array(
      z.object({
        consentRecordId: z.uuid(),
        noticeId: z.uuid(),
        noticeTitle: z.string(),
        noticeVersion: z.number().int(),
        language: z.string(),
        givenAt: time,
        purposesGranted: z.array(named),
        purposesWithdrawn: z.array(named),
        fullyWithdrawn: z.boolean(),
        withdrawnAt: time.nullable(),
      }),
    ),
    purposes: z.array(
      z.object({
        purposeId: z.uuid(),
        name: z.string(),
        dataCategories: z.array(z.string()),
        assets: z.array(z.object({ assetId: z.uuid(), name: z.string(), system: z.string(), location: z.string(), dataCategories: z.array(z.string()), retentionDays: z.number().int().nullable() })),
      }),
    ),
    sharedWith: z.array(
      z.object({
        processorId: z.uuid(),
        name: z.string(),
        role: z.enum(['PROCESSOR', 'FIDUCIARY']),
        country: z.string(),
        contactEmail: z.string().nullable(),
        dataCategories: z.array(z.string()).describe('The categories of the assets through which the data is shared'),
      }),
    ),
    nominees: z.array(z.object({ name: z.string(), relationship: z.string(), nominatedAt: time })),
  })
  .describe('The s.11 summary: the consent records, per purpose consented to the data categories and the assets that process them, every processor and fiduciary the data is shared with (except disclosures to authorities under s.11(2)), and the nominees');

export const publicRequestView = z.object({
  tenant: z.object({ name: z.string(), slug: z.string() }),
  requestId: z.uuid(),
  type: z.enum(requestTypes),
  status: z.enum(requestStatuses),
  details: z.string(),
  nominee: z.object({ name: z.string(), relationship: z.string() }).nullable(),
  createdAt: time,
  confirmBy: time.nullable().describe('UNVERIFIED: confirm before this, or the request expires'),
  submittedAt: time.nullable(),
  dueAt: time.nullable(),
  daysLeft: z.number().int().nullable(),
  overdue: z.boolean(),
  outcome: z.enum(outcomes).nullable(),
  response: z.string().nullable(),
  resolvedAt: time.nullable(),
  language: z.string(),
  dpoContact: z.string().nullable().describe('Whom to contact about this request (Rule 9)'),
  linkValidUntil: time.nullable().describe('The link shows the answer until 90 days after the resolution'),
  summary: accessSummary.nullable().describe('ACCESS fulfilled: the summary as it was answered'),
  closure: closureView.nullable(),
});

export const meansView = z.object({
  tenant: z.object({ name: z.string(), slug: z.string() }),
  rights: z.array(z.enum(requestTypes)).describe('The rights a principal can exercise here'),
  identifiersRequired: z.array(z.string()),
  requestResponseDays: z.number().int(),
  grievanceResponseDays: z.number().int(),
  dpoContact: z.string().nullable(),
  requestPageUrl: z.string().nullable().describe('The public request page (the tenant\'s page of the portal), null without a configured portal'),
});
