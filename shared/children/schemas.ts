import * as z from 'zod/mini';
import { described } from '../described';
import { languageCode } from '../notices/schemas';
import { reasonSchema } from '../consent/schemas';
import { consentStates, principalStatuses, verificationMethods } from '../consent/states';
import { partAClassIds, partBPurposeIds } from './fourth-schedule';

/* Built by arrows called at once and annotated pure, as in consent/schemas.ts: a bundle that reads none of them carries none. */

export const audiences = ['ADULTS', 'MIXED', 'CHILD_DIRECTED'] as const;
export type Audience = (typeof audiences)[number];

export const requestStatuses = ['PENDING', 'VERIFIED', 'REFUSED', 'EXPIRED'] as const;
export type RequestStatus = (typeof requestStatuses)[number];

const httpsUrl = /* @__PURE__ */ (() => z.url({ protocol: /^https?$/ }).check(z.maxLength(2000)))();

export const tokenIssuerSchema = /* @__PURE__ */ (() => z.strictObject({
  issuer: described(z.string().check(z.minLength(1), z.maxLength(500)), 'The `iss` the issuer puts in its tokens, compared exactly'),
  jwksUrl: described(httpsUrl, "The issuer's JSON Web Key Set, fetched through the address policy (never a private or loopback address in AWS)"),
  ageClaim: described(z.string().check(z.regex(/^[A-Za-z0-9_.:-]{1,100}$/, '1-100 letters, digits or _ . : -')), 'The claim that must be true: the holder is an adult (18 or over)'),
}))();

export const purposeExemptionSchema = /* @__PURE__ */ (() => z.strictObject({
  purposeId: z.uuid(),
  exemption: described(z.enum(partBPurposeIds), 'A purpose of Part B of the Fourth Schedule'),
}))();

const settingsFields = () => ({
  audience: described(z.enum(audiences), 'ADULTS: a child\'s decision is refused (400); MIXED or CHILD_DIRECTED: it waits for the parent'),
  askAge: described(z.boolean(), 'Whether the widget asks the visitor whether they are under 18'),
  methods: described(z.array(z.enum(verificationMethods)).check(z.maxLength(3)), 'The verification methods accepted for the parent (rule 10(1))'),
  tokenIssuers: z.array(tokenIssuerSchema).check(z.maxLength(5)),
  fourthScheduleClass: described(z.nullable(z.enum(partAClassIds)), 'The Part A class of the Fourth Schedule the tenant is in, or null'),
  purposeExemptions: z.array(purposeExemptionSchema).check(z.maxLength(50)),
});

export const childrenSettingsBody = /* @__PURE__ */ z.lazy(() => {
  const settings = settingsFields();
  return z.strictObject({
    audience: z.optional(settings.audience),
    askAge: z.optional(settings.askAge),
    methods: z.optional(settings.methods),
    tokenIssuers: z.optional(settings.tokenIssuers),
    fourthScheduleClass: z.optional(settings.fourthScheduleClass),
    purposeExemptions: z.optional(settings.purposeExemptions),
  });
});

export const childrenSettingsView = /* @__PURE__ */ z.lazy(() => z.object({
  ...settingsFields(),
  childProhibitedPurposes: described(z.array(z.uuid()), 'Purposes marked childProhibited (tracking, behavioural monitoring or targeted advertising, s.9(3)), read-only here: set on the purpose'),
  updatedAt: z.nullable(z.iso.datetime()),
  updatedBy: z.nullable(z.string()),
}));

/** The schedule as data, for the dashboard and the docs. */
export const fourthScheduleView = /* @__PURE__ */ z.lazy(() => z.object({
  partA: z.array(z.object({ id: z.string(), serial: z.number(), class: z.string(), condition: z.string() })),
  partB: z.array(z.object({ id: z.string(), serial: z.number(), purpose: z.string(), condition: z.string() })),
  sources: z.record(z.string(), z.object({ title: z.string(), url: z.string() })),
}));

export const guardianTokenParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ token: z.string().check(z.regex(/^g[0-9a-f]{32}[A-Za-z0-9_-]{43}$/, 'not a guardian link')) }));
export const guardianRequestParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ requestId: z.uuid() }));

/* What only approveBody holds is a function, so a cold start builds it with that route's schema. */
const guardianship = () => described(z.strictObject({
  authority: described(z.string().check(z.trim(), z.minLength(2), z.maxLength(200)), 'The court or designated authority that appointed the guardian (rule 11)'),
  orderReference: described(z.string().check(z.trim(), z.minLength(1), z.maxLength(200)), 'The order or certificate number'),
}), 'GUARDED only, required there: the appointment of the lawful guardian');

const approvalCommon = () => ({
  consentGiven: described(z.optional(z.record(z.uuid(), z.boolean())), 'Purposes to switch off (false); a purpose the child did not grant cannot be switched on'),
  guardianship: z.optional(guardianship()),
});

export const approveBody = /* @__PURE__ */ z.lazy(() => z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('TENANT_ATTESTED'), ...approvalCommon() }),
  z.strictObject({
    method: z.literal('SELF_DECLARED'),
    name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
    birthYear: z.number().check(z.int(), z.gte(1900), z.lte(2100)),
    declaration: described(z.literal(true), 'I am the parent or lawful guardian of this person'),
    ...approvalCommon(),
  }),
  z.strictObject({
    method: z.literal('VIRTUAL_TOKEN'),
    token: described(z.string().check(z.minLength(10), z.maxLength(8000)), 'A compact JWS from a configured issuer (rule 10(1)(b)(ii)): iss, aud (the tenant id), exp and the age claim are checked'),
    ...approvalCommon(),
  }),
]));

export const refuseBody = /* @__PURE__ */ z.lazy(() => z.strictObject({ reason: z.optional(reasonSchema) }));

export const listRequestsQuery = /* @__PURE__ */ z.lazy(() => z.strictObject({
  status: z._default(z.enum(requestStatuses), 'PENDING'),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(50)), 20),
  cursor: z.optional(z.string().check(z.maxLength(2000))),
}));

export const requestItemView = /* @__PURE__ */ z.lazy(() => z.object({
  requestId: z.uuid(),
  consentRecordId: z.uuid(),
  status: z.enum(requestStatuses),
  method: z.nullable(z.enum(verificationMethods)),
  principalStatus: z.enum(principalStatuses),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  decidedAt: z.nullable(z.iso.datetime()),
  linksSent: described(z.number().check(z.int()), 'Links mailed so far: 1, plus one per resend'),
}));

export const requestPage = /* @__PURE__ */ z.lazy(() => z.object({ items: z.array(requestItemView), nextCursor: z.nullable(z.string()) }));

export const guardianPurposeView = /* @__PURE__ */ z.lazy(() => z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  required: z.boolean(),
  granted: described(z.boolean(), 'What the child chose'),
  exempt: z.boolean(),
}));

export const guardianView = /* @__PURE__ */ z.lazy(() => z.object({
  tenant: z.object({ name: z.string() }),
  principalStatus: z.enum(['CHILD', 'GUARDED']),
  language: languageCode,
  notice: z.object({ id: z.uuid(), title: z.string(), introText: z.string(), versionNumber: z.number(), contactEmail: z.nullable(z.string()), rightsText: z.nullable(z.string()), complaintText: z.nullable(z.string()) }),
  purposes: z.array(guardianPurposeView),
  methods: z.array(z.enum(verificationMethods)),
  issuers: described(z.array(z.string()), 'VIRTUAL_TOKEN: the issuers whose tokens are accepted'),
  requestedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  words: described(z.object({ language: z.string(), words: z.record(z.string(), z.string()), english: z.array(z.string()) }), "The page's words in the child's language from the tenant's label sets, slots ({tenant}, {expiresAt}, {reason}) unfilled; english lists the keys shown in English"),
}));

export const guardianDecisionView = /* @__PURE__ */ z.lazy(() => z.object({
  requestId: z.uuid(),
  consentRecordId: z.uuid(),
  status: z.enum(requestStatuses),
  consentState: z.enum(consentStates),
  decidedAt: z.iso.datetime(),
  consentGiven: z.record(z.string(), z.boolean()),
}));

export const resendView = /* @__PURE__ */ z.lazy(() => z.object({ requestId: z.uuid(), expiresAt: z.iso.datetime(), linksSent: z.number() }));

export const guardianEvidenceView = /* @__PURE__ */ z.lazy(() => z.object({
  request: requestItemView,
  documents: z.array(z.object({ documentId: z.uuid(), documentType: z.string(), at: z.iso.datetime(), hash: z.string(), canonical: z.string() })),
}));

