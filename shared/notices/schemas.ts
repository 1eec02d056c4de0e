import * as z from 'zod';
import { languageCodes, scheduledLanguageCodes, type LanguageCode } from '../i18n/languages';
import { noticeStatuses } from './notice';

/** Language codes are upper case; lower case is accepted and normalised. */
export const languageCode = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.enum(languageCodes, { error: `one of ${languageCodes.join(', ')}` }));

export const translatableLanguage = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.enum(scheduledLanguageCodes as [LanguageCode, ...LanguageCode[]], { error: `one of ${scheduledLanguageCodes.join(', ')}` }));

const httpsOrHttpUrl = z.url({ protocol: /^https?$/ }).max(2000);

export const noticeFields = {
  title: z.string().trim().min(3).max(200),
  introText: z.string().trim().min(20).max(1000),
  contactEmail: z.email().max(254),
  contactUrl: httpsOrHttpUrl,
  rightsText: z.string().trim().min(20).max(500),
  complaintText: z.string().trim().min(20).max(500),
  withdrawalUrl: httpsOrHttpUrl,
  purposeIds: z.array(z.uuid()).min(1).max(100),
  purposeConfig: z
    .array(
      z.strictObject({
        purposeId: z.uuid(),
        isRequired: z.boolean(),
        displayOrder: z.number().int().min(0).max(1000),
      }),
    )
    .max(100),
};

/** Translated text may run longer than English in other scripts, so only the upper bounds are wider. */
export const translationFields = {
  title: z.string().trim().min(1).max(400).optional(),
  introText: z.string().trim().min(1).max(3000).optional(),
  rightsText: z.string().trim().min(1).max(1500).optional(),
  complaintText: z.string().trim().min(1).max(1500).optional(),
  purposes: z
    .record(
      z.uuid(),
      z.strictObject({ name: z.string().trim().min(1).max(400).optional(), description: z.string().trim().min(1).max(3000).optional() }),
    )
    .optional(),
};

export const translationInput = z.strictObject(translationFields);

export const createNoticeBody = z.strictObject({
  title: noticeFields.title,
  introText: noticeFields.introText,
  contactEmail: noticeFields.contactEmail,
  contactUrl: noticeFields.contactUrl.optional(),
  rightsText: noticeFields.rightsText,
  complaintText: noticeFields.complaintText,
  withdrawalUrl: noticeFields.withdrawalUrl.optional(),
  purposeIds: noticeFields.purposeIds,
  purposeConfig: noticeFields.purposeConfig.optional(),
  translations: z.partialRecord(translatableLanguage, translationInput).optional(),
});

export const updateNoticeBody = createNoticeBody
  .partial()
  .extend({ contactUrl: noticeFields.contactUrl.nullable().optional(), withdrawalUrl: noticeFields.withdrawalUrl.nullable().optional() })
  .refine((body) => Object.keys(body).length > 0, 'at least one field is required');

export const noticeIdParams = z.strictObject({ id: z.uuid() });
export const translationParams = z.strictObject({ id: z.uuid(), lang: translatableLanguage });

export const listNoticesQuery = z.object({
  includeArchived: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
});

export const publishBody = z.strictObject({ changeNote: z.string().trim().max(500).optional() });

export const diffQuery = z
  .object({
    from: z.coerce.number().int().min(1),
    to: z.coerce.number().int().min(1),
  })
  .refine((query) => query.from < query.to, { message: 'from must be lower than to', path: ['from'] });

export const previewQuery = z.object({ lang: languageCode.default('EN') });

export const addTranslationBody = z.strictObject({ language: translatableLanguage, ...translationFields });
export const updateTranslationBody = translationInput.refine((body) => Object.keys(body).length > 0, 'at least one field is required');

export const withdrawalUrlBody = z.strictObject({ withdrawalUrl: noticeFields.withdrawalUrl.nullable().optional() });

const change = z.object({
  field: z.string(),
  type: z.enum(['added', 'removed', 'modified']),
  isMaterial: z.boolean(),
  oldValue: z.unknown().optional(),
  newValue: z.unknown().optional(),
});

export const translationView = z.object({
  title: z.string().optional(),
  introText: z.string().optional(),
  rightsText: z.string().optional(),
  complaintText: z.string().optional(),
  purposes: z.record(z.string(), z.object({ name: z.string().optional(), description: z.string().optional() })).optional(),
  source: z.enum(['MANUAL', 'MACHINE_DRAFTED', 'NEEDS_TRANSLATION']),
  updatedAt: z.iso.datetime(),
});

/** The notice's own text, as every view of a notice or version shows it. */
const noticeTextView = {
  title: z.string(),
  introText: z.string(),
  contactEmail: z.string(),
  contactUrl: z.string().nullable(),
  rightsText: z.string(),
  complaintText: z.string(),
  withdrawalUrl: z.string().nullable(),
};

/** A purpose as the widget shows it. */
const publicPurposeView = z.object({ id: z.uuid(), name: z.string(), description: z.string(), required: z.boolean(), dataCategories: z.array(z.string()) });

export const noticeView = z.object({
  id: z.uuid(),
  lineageId: z.uuid(),
  status: z.enum(noticeStatuses),
  versionNumber: z.number().int().nullable(),
  ...noticeTextView,
  purposeIds: z.array(z.uuid()),
  purposeConfig: z.array(z.object({ purposeId: z.uuid(), isRequired: z.boolean(), displayOrder: z.number().int() })),
  translations: z.record(z.string(), translationView),
  consentCount: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  publishedAt: z.iso.datetime().nullable(),
  archivedAt: z.iso.datetime().nullable(),
});

export const noticeDetailView = noticeView.extend({
  purposes: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      description: z.string(),
      dataCategories: z.array(z.string()),
      legalBasis: z.string(),
      isRequired: z.boolean(),
      displayOrder: z.number().int(),
    }),
  ),
});

export const publishResult = z.object({
  id: z.uuid(),
  status: z.literal('PUBLISHED'),
  versionNumber: z.number().int(),
  materialChangeDetected: z.boolean(),
  materialChanges: z.array(change.pick({ field: true, type: true, isMaterial: true, newValue: true })),
  fromVersionNumber: z.number().int().nullable().describe('Version compared against: the notice this publish replaced, else the previous version of the lineage; null for a first publish'),
  toVersionNumber: z.number().int(),
});

export const archiveResult = z.object({
  action: z.enum(['ARCHIVED', 'DELETED']),
  noticeId: z.uuid(),
  consentCount: z.number().int(),
  message: z.string(),
});

export const versionView = z.object({
  versionNumber: z.number().int(),
  noticeId: z.uuid(),
  changeNote: z.string().nullable(),
  publishedAt: z.iso.datetime(),
  publishedBy: z.string(),
  ...noticeTextView,
  purposes: z.array(publicPurposeView.extend({ legalBasis: z.string(), displayOrder: z.number().int() })),
  translations: z.record(z.string(), translationView),
});

export const diffResult = z.object({
  from: z.number().int(),
  to: z.number().int(),
  hasMaterialChange: z.boolean().describe('True exactly when a purpose was added or removed, or a purpose’s data categories or legal basis changed: re-consent is needed'),
  totalChanges: z.number().int(),
  changes: z.array(change),
});

export const previewView = z.object({
  id: z.uuid(),
  language: z.string(),
  title: z.string(),
  introText: z.string(),
  rightsText: z.string(),
  complaintText: z.string(),
  contactEmail: z.string(),
  contactUrl: z.string().nullable(),
  withdrawalUrl: z.string().nullable(),
  purposes: z.array(publicPurposeView),
  fallbackFields: z.array(z.string()).describe('Fields shown in English because this language has no text for them'),
});

export const publicNoticeView = z.object({
  id: z.uuid(),
  title: z.string(),
  description: z.string(),
  privacyPolicyUrl: z.string().nullable(),
  contactEmail: z.string(),
  complaintText: z.string(),
  rightsText: z.string().optional().describe("Extension: the principal's rights, which the widget shows (absent on notices published before it existed)"),
  withdrawalUrl: z.string().nullable(),
  purposes: z.array(publicPurposeView),
  translations: z.record(
    z.string(),
    z.object({
      title: z.string(),
      introText: z.string(),
      rightsText: z.string().optional().describe('Extension'),
      complaintText: z.string().optional().describe('Extension'),
      purposes: z.record(z.string(), z.object({ name: z.string(), description: z.string() })),
    }),
  ),
  availableLanguages: z.array(z.string()),
  versionNumber: z.number().int().optional().describe('Extension: the version of this notice'),
  materialVersion: z
    .number()
    .int()
    .optional()
    .describe(
      'Extension: the version that last changed materially (a purpose added or removed, or its data categories or legal basis changed, as the version diff decides). Consent given to it still covers this version; a widget asks again only when materialNoticeId differs from the one consented to.',
    ),
  materialNoticeId: z.uuid().optional().describe('Extension: the notice id of materialVersion (version numbers count per lineage; this is unique)'),
  labels: z
    .record(z.string(), z.record(z.string(), z.string()))
    .describe(
      "Extension: the notice banner's words (buttons, headings, Privacy choices, the GPC note, the withdrawal link) from the tenant's words (GET /words): EN complete, and each of availableLanguages with the words principals are shown in it (reviewed, or machine drafts when the tenant shows them); a key a language lacks is read in English, marked lang=\"en\". Read with the notice, so the widget needs no other request.",
    ),
});
