import * as z from 'zod';
import { principalHashSchema } from '../consent/schemas';
import { scheduledLanguageCodes, type LanguageCode } from '../i18n/languages';
import { intimationLabelKeys } from './mail-labels';

/**
 * The breach register's request and response schemas (routes: shared/http/routes/breaches.ts).
 * Times are ISO 8601 UTC; free texts are trimmed and bounded so that a breach item, a filed
 * document and an intimation's words each stay well inside DynamoDB's 400 KB item.
 */

const text = (max: number) => z.string().trim().min(1).max(max);
const instant = z.iso.datetime();
const nullableText = (max: number) => text(max).nullable();

export const breachStatuses = ['OPEN', 'CLOSED'] as const;
export const affectedScopes = ['ALL', 'NOTICES', 'PURPOSES', 'PRINCIPALS'] as const;
export const filingStages = ['INTIMATION', 'DETAILED_REPORT'] as const;
export type FilingStage = (typeof filingStages)[number];

/** At most this many principal hashes per call (create, or POST /breaches/:id/principals). */
export const maxListedPerCall = 10_000;

const principalHashes = z.array(principalHashSchema).min(1).max(maxListedPerCall);

const checkScope = (affected: { scope: string; noticeIds?: unknown[] | undefined; purposeIds?: unknown[] | undefined; principalHashes?: unknown[] | undefined }, context: z.RefinementCtx) => {
  const lists = { noticeIds: 'NOTICES', purposeIds: 'PURPOSES', principalHashes: 'PRINCIPALS' } as const;
  for (const [field, scope] of Object.entries(lists) as [keyof typeof lists, string][]) {
    const given = affected[field] !== undefined;
    if (given && affected.scope !== scope) context.addIssue({ code: 'custom', path: [field], message: `only with scope ${scope}` });
  }
};

const affectedFields = {
  scope: z.enum(affectedScopes).describe('ALL: every principal with a consent record; NOTICES / PURPOSES: those with a record of one of the notices, or granting one of the purposes; PRINCIPALS: the listed hashes'),
  noticeIds: z.array(z.uuid()).min(1).max(50).optional(),
  purposeIds: z.array(z.uuid()).min(1).max(100).optional(),
};

export const createAffected = z
  .strictObject({
    ...affectedFields,
    principalHashes: principalHashes.optional().describe('SHA-256 hex of each identifier (as dataPrincipalHash); at most 10,000 here, more through POST /breaches/:breachId/principals'),
  })
  .superRefine(checkScope);

/** A PUT may change the scope and its notices or purposes; hashes are only ever added (POST …/principals). */
export const updateAffected = z.strictObject(affectedFields).superRefine(checkScope);

/**
 * What a breach says about itself. The Board intimation needs all of these (Rule 7(2)(a): nature,
 * extent, timing, location, likely impact), so they are required from the start.
 */
const descriptionFields = {
  title: text(200),
  awareAt: instant.describe('When the tenant became aware of the breach; not in the future. Both clocks start here'),
  occurredAt: instant.describe('When the breach occurred, when known; not after awareAt'),
  nature: text(4000).describe('What happened'),
  extent: text(4000).describe('How much and whose data'),
  location: text(1000).describe('Where: systems, sites, processors'),
  likelyImpact: text(4000).describe('The likely impact on the principals'),
  dataCategories: z.array(text(100)).min(1).max(50),
  assetIds: z
    .array(z.uuid())
    .max(100)
    .describe("The data map's assets (GET /api/v1/data-assets) the breach touched: where it happened, named by the tenant's own map; each must be the tenant's, else 400 naming it"),
};

/** The detailed report's own items (Rule 7(2)(b)(ii) to (v)); (i) is the description, (vi) the intimation progress. */
export const reportFields = {
  factsAndReasons: nullableText(8000).describe('(ii) the facts, circumstances and reasons of the breach'),
  mitigationMeasures: nullableText(8000).describe('(iii) measures implemented or proposed to mitigate the risk'),
  causeFindings: nullableText(8000).describe('(iv) findings on the person who caused the breach, if any'),
  remedialMeasures: nullableText(8000).describe('(v) remedial measures taken to prevent its recurrence'),
};

export const createBreachBody = z.strictObject({
  ...descriptionFields,
  occurredAt: descriptionFields.occurredAt.optional(),
  assetIds: descriptionFields.assetIds.optional(),
  affected: createAffected,
});
export type CreateBreachInput = z.output<typeof createBreachBody>;

export const updateBreachBody = z
  .strictObject({
    title: descriptionFields.title.optional(),
    awareAt: descriptionFields.awareAt.optional(),
    occurredAt: descriptionFields.occurredAt.nullable().optional(),
    nature: descriptionFields.nature.optional(),
    extent: descriptionFields.extent.optional(),
    location: descriptionFields.location.optional(),
    likelyImpact: descriptionFields.likelyImpact.optional(),
    dataCategories: descriptionFields.dataCategories.optional(),
    assetIds: descriptionFields.assetIds.optional(),
    affected: updateAffected.optional(),
    factsAndReasons: reportFields.factsAndReasons.optional(),
    mitigationMeasures: reportFields.mitigationMeasures.optional(),
    causeFindings: reportFields.causeFindings.optional(),
    remedialMeasures: reportFields.remedialMeasures.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'at least one field to change' });
export type BreachChanges = z.output<typeof updateBreachBody>;

export const principalsBody = z.strictObject({ principalHashes });

const intimationText = (max: number) => text(max);
const labelOverrides = z
  .partialRecord(z.enum(intimationLabelKeys), text(500))
  .describe('Optional: the mail\'s own words (headings, subject) in this language, by label key; the built-in catalogue fills the rest');

const languageTexts = {
  consequences: intimationText(1000).describe('(b) the likely consequences for the principal'),
  mitigation: intimationText(1000).describe('(c) what has been and is being done to reduce the risk'),
  safetySteps: intimationText(1000).describe('(d) what she can do to protect herself'),
  whatHappened: intimationText(1000).optional().describe('Extension: (a) in plain words; without it the mail gives the breach\'s nature, extent, timing and location'),
  labels: labelOverrides.optional(),
};

export const intimationBody = z.strictObject({
  ...languageTexts,
  contact: intimationText(500).describe('(e) whom to contact: the DPO or person who answers questions about the breach'),
  translations: z
    .partialRecord(z.enum(scheduledLanguageCodes as [LanguageCode, ...LanguageCode[]]), z.strictObject(languageTexts))
    .optional()
    .describe('The same texts per scheduled language (upper-case code): a principal whose latest consent was given in one of them is written to in it, everyone else in English'),
});
export type IntimationText = z.output<typeof intimationBody>;

export const extensionBody = z.strictObject({
  grantedUntil: instant.describe("The new due time of the detailed report, as the Board allowed; later than the current one"),
  reference: text(200).describe("The Board's reference for the extension"),
});

export const emptyBody = z.strictObject({});

export const breachParams = z.strictObject({ breachId: z.uuid() });

export const listBreachesQuery = z.strictObject({
  status: z.enum(breachStatuses).optional(),
  overdue: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .describe('true: only breaches with a clock past due and its stage not filed'),
});

export const reportQuery = z.strictObject({
  stage: z.enum(filingStages).default('DETAILED_REPORT'),
  format: z.enum(['json', 'html']).default('json').describe('html: a printable, self-contained page (text/html)'),
});

const clock = z.object({
  dueAt: instant,
  lateAfter: instant.describe('Filed after this, the stage is late'),
  filedAt: instant.nullable(),
  late: z.boolean().nullable().describe('Frozen at filing; null until filed'),
  overdue: z.boolean().describe('Not filed and past lateAfter now'),
  documentId: z.string().nullable().describe('The filed document in the evidence log'),
});

export const progressView = z.object({
  total: z.number().int(),
  mailed: z.number().int(),
  viaTenant: z.number().int().describe('Principals with no known email, handed to the tenant in breach.principals events'),
  failed: z.number().int().describe('Principals whose stored contact could not be read; listed in the batch documents'),
});

export const intimationView = z.object({
  status: z.enum(['NOT_STARTED', 'RUNNING', 'DONE']),
  runs: z.number().int(),
  startedAt: instant.nullable(),
  finishedAt: instant.nullable(),
  progress: progressView,
});

const affectedView = z.object({
  scope: z.enum(affectedScopes),
  noticeIds: z.array(z.uuid()),
  purposeIds: z.array(z.uuid()),
  listedPrincipals: z.number().int().describe('Hashes listed so far (scope PRINCIPALS), duplicates across calls counted once only when intimated'),
});

export const breachSummaryView = z.object({
  breachId: z.uuid(),
  title: z.string(),
  status: z.enum(breachStatuses),
  awareAt: instant,
  boardIntimationDueAt: instant,
  detailedReportDueAt: instant,
  clocks: z.object({ boardIntimation: clock, detailedReport: clock }),
  affectedCount: z.number().int().nullable().describe('Principals resolved by intimation; before one, the listed hashes of a PRINCIPALS breach, else null'),
  intimation: intimationView,
  createdAt: instant,
  updatedAt: instant,
});

export const timelineEntry = z.object({
  at: instant,
  action: z.string().describe('created, updated, principals-listed, principal-intimation, intimation-completed, board-intimation, board-report, extension, closed'),
  by: z.object({ userId: z.string(), role: z.string(), email: z.string().nullable() }).nullable().describe('null: the service itself'),
  details: z.record(z.string(), z.unknown()),
  documentId: z.string().describe('Its entry in the tenant\'s evidence log'),
});

export const breachView = breachSummaryView.extend({
  occurredAt: instant.nullable(),
  nature: z.string(),
  extent: z.string(),
  location: z.string(),
  likelyImpact: z.string(),
  dataCategories: z.array(z.string()),
  assets: z.array(z.object({ assetId: z.uuid(), name: z.string(), system: z.string(), location: z.string() })).describe('The data map assets the breach touched, as the map names them now (an asset deleted since keeps only its id, with empty names)'),
  affected: affectedView,
  factsAndReasons: z.string().nullable(),
  mitigationMeasures: z.string().nullable(),
  causeFindings: z.string().nullable(),
  remedialMeasures: z.string().nullable(),
  extension: z.object({ grantedUntil: instant, reference: z.string(), at: instant }).nullable(),
  closedAt: instant.nullable(),
  timeline: z.array(timelineEntry),
});

export const filingView = z.object({
  breachId: z.uuid(),
  stage: z.enum(filingStages),
  filed: z.boolean(),
  filedAt: instant.nullable(),
  late: z.boolean().nullable(),
  documentId: z.string().nullable(),
  missing: z.record(z.string(), z.string()).describe('Each item the stage still needs, with why (empty once complete)'),
  document: z.record(z.string(), z.unknown()).describe('The frozen document once filed; otherwise a preview built from the breach as it stands'),
});
