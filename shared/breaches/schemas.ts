import * as z from 'zod/mini';
import { described } from '../described';
import { documentFormat } from '../documents/schemas';
import { principalHashSchema } from '../consent/schemas';
import { scheduledLanguageCodes, type LanguageCode } from '../i18n/languages';
import { intimationLabelKeys } from './mail-labels';

/**
 * The breach register's request and response schemas (routes: shared/http/routes/breaches.ts).
 * Times are ISO 8601 UTC; free texts are trimmed and bounded so that a breach item, a filed
 * document and an intimation's words each stay well inside DynamoDB's 400 KB item.
 */

const text = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));
const instant = /* @__PURE__ */ (() => z.iso.datetime())();
const nullableText = (max: number) => z.nullable(text(max));

export const breachStatuses = ['OPEN', 'CLOSED'] as const;
export const affectedScopes = ['ALL', 'NOTICES', 'PURPOSES', 'PRINCIPALS'] as const;
export const filingStages = ['INTIMATION', 'DETAILED_REPORT'] as const;
export type FilingStage = (typeof filingStages)[number];

/** At most this many principal hashes per call (create, or POST /breaches/:id/principals). */
export const maxListedPerCall = 10_000;

const principalHashes = /* @__PURE__ */ (() => z.array(principalHashSchema).check(z.minLength(1), z.maxLength(maxListedPerCall)))();

const checkScope = (affected: { scope: string; noticeIds?: unknown[] | undefined; purposeIds?: unknown[] | undefined; principalHashes?: unknown[] | undefined }, context: z.core.$RefinementCtx) => {
  const lists = { noticeIds: 'NOTICES', purposeIds: 'PURPOSES', principalHashes: 'PRINCIPALS' } as const;
  for (const [field, scope] of Object.entries(lists) as [keyof typeof lists, string][]) {
    const given = affected[field] !== undefined;
    if (given && affected.scope !== scope) context.addIssue({ code: 'custom', path: [field], message: `only with scope ${scope}` });
  }
};

const affectedFields = {
  scope: described(z.enum(affectedScopes), 'ALL: every principal with a consent record; NOTICES / PURPOSES: those with a record of one of the notices, or granting one of the purposes; PRINCIPALS: the listed hashes'),
  noticeIds: z.optional(z.array(z.uuid()).check(z.minLength(1), z.maxLength(50))),
  purposeIds: z.optional(z.array(z.uuid()).check(z.minLength(1), z.maxLength(100))),
};

export const createAffected = /* @__PURE__ */ (() => z.strictObject({
    ...affectedFields,
    principalHashes: described(z.optional(principalHashes), 'SHA-256 hex of each identifier (as dataPrincipalHash); at most 10,000 here, more through POST /breaches/:breachId/principals'),
  }).check(z.superRefine(checkScope)))();

/** A PUT may change the scope and its notices or purposes; hashes are only ever added (POST …/principals). */
export const updateAffected = /* @__PURE__ */ (() => z.strictObject(affectedFields).check(z.superRefine(checkScope)))();

/**
 * What a breach says about itself. The Board intimation needs all of these (Rule 7(2)(a): nature,
 * extent, timing, location, likely impact), so they are required from the start.
 */
const descriptionFields = {
  title: text(200),
  awareAt: described(instant, 'When the tenant became aware of the breach; not in the future. Both clocks start here'),
  occurredAt: described(instant, 'When the breach occurred, when known; not after awareAt'),
  nature: described(text(4000), 'What happened'),
  extent: described(text(4000), 'How much and whose data'),
  location: described(text(1000), 'Where: systems, sites, processors'),
  likelyImpact: described(text(4000), 'The likely impact on the principals'),
  dataCategories: z.array(text(100)).check(z.minLength(1), z.maxLength(50)),
  assetIds: described(z.array(z.uuid()).check(z.maxLength(100)), "The data map's assets (GET /api/v1/data-assets) the breach touched: where it happened, named by the tenant's own map; each must be the tenant's, else 400 naming it"),
};

/** The detailed report's own items (Rule 7(2)(b)(ii) to (v)); (i) is the description, (vi) the intimation progress. */
export const reportFields = {
  factsAndReasons: described(nullableText(8000), '(ii) the facts, circumstances and reasons of the breach'),
  mitigationMeasures: described(nullableText(8000), '(iii) measures implemented or proposed to mitigate the risk'),
  causeFindings: described(nullableText(8000), '(iv) findings on the person who caused the breach, if any'),
  remedialMeasures: described(nullableText(8000), '(v) remedial measures taken to prevent its recurrence'),
};

export const createBreachBody = /* @__PURE__ */ z.lazy(() => z.strictObject({
  ...descriptionFields,
  occurredAt: z.optional(descriptionFields.occurredAt),
  assetIds: z.optional(descriptionFields.assetIds),
  affected: createAffected,
}));
export type CreateBreachInput = z.output<typeof createBreachBody>;

export const updateBreachBody = /* @__PURE__ */ z.lazy(() => z.strictObject({
    title: z.optional(descriptionFields.title),
    awareAt: z.optional(descriptionFields.awareAt),
    occurredAt: z.optional(z.nullable(descriptionFields.occurredAt)),
    nature: z.optional(descriptionFields.nature),
    extent: z.optional(descriptionFields.extent),
    location: z.optional(descriptionFields.location),
    likelyImpact: z.optional(descriptionFields.likelyImpact),
    dataCategories: z.optional(descriptionFields.dataCategories),
    assetIds: z.optional(descriptionFields.assetIds),
    affected: z.optional(updateAffected),
    factsAndReasons: z.optional(reportFields.factsAndReasons),
    mitigationMeasures: z.optional(reportFields.mitigationMeasures),
    causeFindings: z.optional(reportFields.causeFindings),
    remedialMeasures: z.optional(reportFields.remedialMeasures),
  }).check(z.refine((body) => Object.keys(body).length > 0, { message: 'at least one field to change' })));
export type BreachChanges = z.output<typeof updateBreachBody>;

export const principalsBody = /* @__PURE__ */ z.lazy(() => z.strictObject({ principalHashes }));

const intimationText = (max: number) => text(max);
const labelOverrides = /* @__PURE__ */ (() => described(z.partialRecord(z.enum(intimationLabelKeys), text(500)), 'Optional: the mail\'s own words (headings, subject) in this language, by label key; the built-in catalogue fills the rest'))();

const languageTexts = {
  consequences: described(intimationText(1000), '(b) the likely consequences for the principal'),
  mitigation: described(intimationText(1000), '(c) what has been and is being done to reduce the risk'),
  safetySteps: described(intimationText(1000), '(d) what she can do to protect herself'),
  whatHappened: described(intimationText(1000), '(a) what happened, written for the principals: nature, extent and where, in plain words. The register\'s own description (its nature, extent and location: internal systems, buckets, regions) is never sent to principals; the mail adds only when it occurred and when the tenant became aware'),
  labels: z.optional(labelOverrides),
};

export const intimationBody = /* @__PURE__ */ (() => z.strictObject({
  ...languageTexts,
  contact: described(intimationText(500), '(e) whom to contact: the DPO or person who answers questions about the breach'),
  translations: described(z.optional(z.partialRecord(z.enum(scheduledLanguageCodes as [LanguageCode, ...LanguageCode[]]), z.strictObject(languageTexts))), 'The same texts per scheduled language (upper-case code): a principal whose latest consent was given in one of them is written to in it, everyone else in English'),
}))();
export type IntimationText = z.output<typeof intimationBody>;

/** The intimation's texts as they would be sent, and which language's mail to show. */
export const intimationPreviewBody = /* @__PURE__ */ z.lazy(() => z.extend(intimationBody, {
  previewLanguage: described(z._default(z.enum(['EN', ...scheduledLanguageCodes] as [LanguageCode, ...LanguageCode[]]), 'EN'), 'The mail of a principal whose latest consent was in this language (English where the texts have none in it)'),
}));

export const intimationPreview = /* @__PURE__ */ z.lazy(() => z.object({
  language: described(z.string(), 'The language the mail is in: previewLanguage when the texts have it, else EN'),
  subject: z.string(),
  text: described(z.string(), 'The plain-text part, exactly as a principal receives it (with the tenant\'s labels of the moment)'),
}));

export const extensionBody = /* @__PURE__ */ z.lazy(() => z.strictObject({
  grantedUntil: described(instant, "The new due time of the detailed report, as the Board allowed; later than the current one"),
  reference: described(text(200), "The Board's reference for the extension"),
}));

export const emptyBody = /* @__PURE__ */ z.lazy(() => z.strictObject({}));

export const breachParams = /* @__PURE__ */ (() => z.strictObject({ breachId: z.uuid() }))();

export const listBreachesQuery = /* @__PURE__ */ z.lazy(() => z.strictObject({
  status: z.optional(z.enum(breachStatuses)),
  overdue: described(z.optional(z.pipe(z.enum(['true', 'false']), z.transform((value) => value === 'true'))), 'true: only breaches with a clock past due and its stage not filed'),
}));

const filingStage = /* @__PURE__ */ (() => z._default(z.enum(filingStages), 'DETAILED_REPORT'))();
export const reportQuery = /* @__PURE__ */ z.lazy(() => z.strictObject({ stage: filingStage, format: documentFormat }));
/** The printed filing's query (`/board-report/pdf`): the stage alone. */
export const printedReportQuery = /* @__PURE__ */ (() => z.strictObject({ stage: filingStage }))();

const clock = /* @__PURE__ */ (() => z.object({
  dueAt: instant,
  lateAfter: described(instant, 'Filed after this, the stage is late'),
  filedAt: z.nullable(instant),
  late: described(z.nullable(z.boolean()), 'Frozen at filing; null until filed'),
  overdue: described(z.boolean(), 'Not filed and past lateAfter now'),
  documentId: described(z.nullable(z.string()), 'The filed document in the evidence log'),
}))();

export const progressView = /* @__PURE__ */ z.lazy(() => z.object({
  total: z.number().check(z.int()),
  mailed: z.number().check(z.int()),
  viaTenant: described(z.number().check(z.int()), 'Principals with no known email, handed to the tenant in breach.principals events, whose page a webhook of the tenant acknowledged (answered 2xx): reached'),
  awaitingTenant: described(z.number().check(z.int()), 'Principals with no known email, handed to the tenant in breach.principals events that no webhook has acknowledged yet: not reached (none ever will be while no webhook is subscribed to breach.principals)'),
  failed: described(z.number().check(z.int()), 'Principals whose stored contact could not be read; listed in the batch documents'),
}));

export const intimationView = /* @__PURE__ */ (() => z.object({
  status: z.enum(['NOT_STARTED', 'RUNNING', 'DONE']),
  runs: z.number().check(z.int()),
  startedAt: z.nullable(instant),
  finishedAt: z.nullable(instant),
  progress: progressView,
  reached: described(z.number().check(z.int()), 'mailed + viaTenant: the principals who were told'),
  handoff: described(
    z.object({ webhookSubscribed: z.boolean() }),
    'Whether an active webhook of the tenant is subscribed to breach.principals: without one, principals with no known email are never reached through the service',
  ),
}))();

const affectedView = /* @__PURE__ */ (() => z.object({
  scope: z.enum(affectedScopes),
  noticeIds: z.array(z.uuid()),
  purposeIds: z.array(z.uuid()),
  listedPrincipals: described(z.number().check(z.int()), 'Hashes listed so far (scope PRINCIPALS), duplicates across calls counted once only when intimated'),
}))();

export const breachSummaryView = /* @__PURE__ */ (() => z.object({
  breachId: z.uuid(),
  title: z.string(),
  status: z.enum(breachStatuses),
  awareAt: instant,
  boardIntimationDueAt: instant,
  detailedReportDueAt: instant,
  clocks: z.object({ boardIntimation: clock, detailedReport: clock }),
  affectedCount: described(z.nullable(z.number().check(z.int())), 'Principals resolved by intimation; before one, the listed hashes of a PRINCIPALS breach, else null'),
  intimation: intimationView,
  createdAt: instant,
  updatedAt: instant,
}))();

export const timelineEntry = /* @__PURE__ */ (() => z.object({
  at: instant,
  action: described(z.string(), 'created, updated, principals-listed, principal-intimation, intimation-completed, board-intimation, board-report, extension, closed'),
  by: described(z.nullable(z.object({ userId: z.string(), role: z.string(), email: z.nullable(z.string()) })), 'null: the service itself'),
  details: z.record(z.string(), z.unknown()),
  documentId: described(z.string(), 'Its entry in the tenant\'s evidence log'),
}))();

export const breachView = /* @__PURE__ */ z.lazy(() => z.extend(breachSummaryView, {
  occurredAt: z.nullable(instant),
  nature: z.string(),
  extent: z.string(),
  location: z.string(),
  likelyImpact: z.string(),
  dataCategories: z.array(z.string()),
  assets: described(z.array(z.object({ assetId: z.uuid(), name: z.string(), system: z.string(), location: z.string() })), 'The data map assets the breach touched, as the map names them now (an asset deleted since keeps only its id, with empty names)'),
  affected: affectedView,
  factsAndReasons: z.nullable(z.string()),
  mitigationMeasures: z.nullable(z.string()),
  causeFindings: z.nullable(z.string()),
  remedialMeasures: z.nullable(z.string()),
  extension: z.nullable(z.object({ grantedUntil: instant, reference: z.string(), at: instant })),
  closedAt: z.nullable(instant),
  timeline: z.array(timelineEntry),
}));

export const filingView = /* @__PURE__ */ z.lazy(() => z.object({
  breachId: z.uuid(),
  stage: z.enum(filingStages),
  filed: z.boolean(),
  filedAt: z.nullable(instant),
  late: z.nullable(z.boolean()),
  documentId: z.nullable(z.string()),
  missing: described(z.record(z.string(), z.string()), 'Each item the stage still needs, with why (empty once complete)'),
  document: described(z.record(z.string(), z.unknown()), 'The frozen document once filed; otherwise a preview built from the breach as it stands'),
}));
