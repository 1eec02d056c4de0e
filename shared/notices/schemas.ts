import * as z from 'zod/mini';
import { described } from '../described';
import { languageCodes, scheduledLanguageCodes, type LanguageCode } from '../i18n/languages';
import { noticeStatuses } from './notice';
import { retentionStarts } from '../retention/starts';

/*
 * Each schema is built by an arrow called at once and annotated pure: evaluated as before, but
 * esbuild drops it from a bundle that reads it nowhere. esbuild cannot see by itself that zod/mini's
 * builders, `.check()` and `described()` have no side effects (it honours a function's no-side-effects
 * annotation only within its own file), so without this a group that imports one schema from here
 * carried them all (docs/bundles.md).
 */

/** Language codes are upper case; lower case is accepted and normalised. */
export const languageCode = /* @__PURE__ */ (() => z.pipe(z.string().check(z.trim(), z.toUpperCase()), z.enum(languageCodes, { error: `one of ${languageCodes.join(', ')}` })))();

export const translatableLanguage = /* @__PURE__ */ (() => z.pipe(z.string().check(z.trim(), z.toUpperCase()), z.enum(scheduledLanguageCodes as [LanguageCode, ...LanguageCode[]], { error: `one of ${scheduledLanguageCodes.join(', ')}` })))();

const httpsOrHttpUrl = /* @__PURE__ */ (() => z.url({ protocol: /^https?$/ }).check(z.maxLength(2000)))();

/*
 * The routes' request schemas are z.lazy too: a cold start builds those of the one route it serves,
 * on its first request, not every notice route's. Fields several share are functions.
 */
const noticeFields = () => ({
  title: z.string().check(z.trim(), z.minLength(3), z.maxLength(200)),
  introText: z.string().check(z.trim(), z.minLength(20), z.maxLength(1000)),
  contactEmail: z.email().check(z.maxLength(254)),
  contactUrl: httpsOrHttpUrl,
  rightsText: z.string().check(z.trim(), z.minLength(20), z.maxLength(500)),
  complaintText: z.string().check(z.trim(), z.minLength(20), z.maxLength(500)),
  withdrawalUrl: httpsOrHttpUrl,
  purposeIds: z.array(z.uuid()).check(z.minLength(1), z.maxLength(100)),
  purposeConfig: z.array(
      z.strictObject({
        purposeId: z.uuid(),
        isRequired: z.boolean(),
        displayOrder: z.number().check(z.int(), z.gte(0), z.lte(1000)),
      }),
    ).check(z.maxLength(100)),
});

/** Translated text may run longer than English in other scripts, so only the upper bounds are wider. */
const translationFields = () => ({
  title: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(400))),
  introText: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(3000))),
  rightsText: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(1500))),
  complaintText: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(1500))),
  purposes: z.optional(z.record(
      z.uuid(),
      z.strictObject({ name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(400))), description: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(3000))) }),
    )),
});

const translationObject = () => z.strictObject(translationFields());

export const translationInput = /* @__PURE__ */ z.lazy(translationObject);

const createNoticeObject = () => {
  const fields = noticeFields();
  return z.strictObject({
    title: fields.title,
    introText: fields.introText,
    contactEmail: fields.contactEmail,
    contactUrl: z.optional(fields.contactUrl),
    rightsText: fields.rightsText,
    complaintText: fields.complaintText,
    withdrawalUrl: z.optional(fields.withdrawalUrl),
    purposeIds: fields.purposeIds,
    purposeConfig: z.optional(fields.purposeConfig),
    translations: z.optional(z.partialRecord(translatableLanguage, translationObject())),
  });
};

export const createNoticeBody = /* @__PURE__ */ z.lazy(createNoticeObject);

export const updateNoticeBody = /* @__PURE__ */ z.lazy(() => z.extend(z.partial(createNoticeObject()), { contactUrl: z.optional(z.nullable(httpsOrHttpUrl)), withdrawalUrl: z.optional(z.nullable(httpsOrHttpUrl)) }).check(z.refine((body) => Object.keys(body).length > 0, 'at least one field is required')));

export const noticeIdParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ id: z.uuid() }));
export const translationParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ id: z.uuid(), lang: translatableLanguage }));

export const listNoticesQuery = /* @__PURE__ */ z.lazy(() => z.object({
  includeArchived: z.pipe(z._default(z.enum(['true', 'false']), 'false'), z.transform((value) => value === 'true')),
}));

export const publishBody = /* @__PURE__ */ z.lazy(() => z.strictObject({ changeNote: z.optional(z.string().check(z.trim(), z.maxLength(500))) }));

export const diffQuery = /* @__PURE__ */ z.lazy(() => z.object({
    from: z.coerce.number().check(z.int(), z.gte(1)),
    to: z.coerce.number().check(z.int(), z.gte(1)),
  }).check(z.refine((query) => query.from < query.to, { message: 'from must be lower than to', path: ['from'] })));

export const previewQuery = /* @__PURE__ */ z.lazy(() => z.object({ lang: z._default(languageCode, 'EN') }));

export const addTranslationBody = /* @__PURE__ */ z.lazy(() => z.strictObject({ language: translatableLanguage, ...translationFields() }));
export const updateTranslationBody = /* @__PURE__ */ z.lazy(() => translationObject().check(z.refine((body) => Object.keys(body).length > 0, 'at least one field is required')));

export const withdrawalUrlBody = /* @__PURE__ */ z.lazy(() => z.strictObject({ withdrawalUrl: z.optional(z.nullable(httpsOrHttpUrl)) }));

/** A field's change between versions; a function, built only with the views that hold it. */
const change = () => z.object({
  field: z.string(),
  type: z.enum(['added', 'removed', 'modified']),
  isMaterial: z.boolean(),
  oldValue: z.optional(z.unknown()),
  newValue: z.optional(z.unknown()),
});

/**
 * The views below are z.lazy (built when OpenAPI is generated, never on a cold start: no handler
 * validates its answers); the fields several share are functions, built with each view that holds them.
 */
const translationShape = () => ({
  title: z.optional(z.string()),
  introText: z.optional(z.string()),
  rightsText: z.optional(z.string()),
  complaintText: z.optional(z.string()),
  purposes: z.optional(z.record(z.string(), z.object({ name: z.optional(z.string()), description: z.optional(z.string()) }))),
  source: z.enum(['MANUAL', 'MACHINE_DRAFTED', 'NEEDS_TRANSLATION']),
  updatedAt: z.iso.datetime(),
});

export const translationView = /* @__PURE__ */ z.lazy(() => z.object(translationShape()));

/** A translation with its language, as the translation routes answer it. */
export const languageTranslationView = /* @__PURE__ */ z.lazy(() => z.object({ ...translationShape(), language: z.string() }));

/** The notice's own text, as every view of a notice or version shows it. */
const noticeTextShape = () => ({
  title: z.string(),
  introText: z.string(),
  contactEmail: z.string(),
  contactUrl: z.nullable(z.string()),
  rightsText: z.string(),
  complaintText: z.string(),
  withdrawalUrl: z.nullable(z.string()),
});

/** A purpose as the widget shows it. */
const publicPurposeShape = () => ({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  required: z.boolean(),
  dataCategories: z.array(z.string()),
  retention: described(
    z.optional(z.nullable(z.object({ period: z.string(), from: z.enum(retentionStarts), legalHold: z.optional(z.string()) }))),
    "Extension (s.8(7)): the purpose's retention as this version was published (POST /purposes `retention`); null: none",
  ),
  retentionWords: described(
    z.optional(z.record(z.string(), z.string())),
    "Extension: the retention in words, per language of labels (\"Kept for 3 years after your last activity.\"), from the label sets' notice.retention.* words; English where a language lacks one",
  ),
});

const noticeShape = () => ({
  id: z.uuid(),
  lineageId: z.uuid(),
  status: z.enum(noticeStatuses),
  versionNumber: z.nullable(z.number().check(z.int())),
  ...noticeTextShape(),
  purposeIds: z.array(z.uuid()),
  purposeConfig: z.array(z.object({ purposeId: z.uuid(), isRequired: z.boolean(), displayOrder: z.number().check(z.int()) })),
  translations: z.record(z.string(), translationView),
  consentCount: z.number().check(z.int()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  publishedAt: z.nullable(z.iso.datetime()),
  archivedAt: z.nullable(z.iso.datetime()),
});

export const noticeView = /* @__PURE__ */ z.lazy(() => z.object(noticeShape()));

export const noticeDetailView = /* @__PURE__ */ z.lazy(() => z.object({
  ...noticeShape(),
  purposes: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      description: z.string(),
      dataCategories: z.array(z.string()),
      legalBasis: z.string(),
      isRequired: z.boolean(),
      displayOrder: z.number().check(z.int()),
    }),
  ),
}));

export const publishResult = /* @__PURE__ */ z.lazy(() => z.object({
  id: z.uuid(),
  status: z.literal('PUBLISHED'),
  versionNumber: z.number().check(z.int()),
  materialChangeDetected: z.boolean(),
  materialChanges: z.array(z.pick(change(), { field: true, type: true, isMaterial: true, newValue: true })),
  fromVersionNumber: described(z.nullable(z.number().check(z.int())), 'Version compared against: the notice this publish replaced, else the previous version of the lineage; null for a first publish'),
  toVersionNumber: z.number().check(z.int()),
}));

export const archiveResult = /* @__PURE__ */ z.lazy(() => z.object({
  action: z.enum(['ARCHIVED', 'DELETED']),
  noticeId: z.uuid(),
  consentCount: z.number().check(z.int()),
  message: z.string(),
}));

export const versionView = /* @__PURE__ */ z.lazy(() => z.object({
  versionNumber: z.number().check(z.int()),
  noticeId: z.uuid(),
  changeNote: z.nullable(z.string()),
  publishedAt: z.iso.datetime(),
  publishedBy: z.string(),
  ...noticeTextShape(),
  purposes: z.array(z.object({ ...publicPurposeShape(), legalBasis: z.string(), displayOrder: z.number().check(z.int()) })),
  translations: z.record(z.string(), translationView),
}));

export const diffResult = /* @__PURE__ */ z.lazy(() => z.object({
  from: z.number().check(z.int()),
  to: z.number().check(z.int()),
  hasMaterialChange: described(z.boolean(), 'True exactly when a purpose was added or removed, or a purpose’s data categories or legal basis changed: re-consent is needed'),
  totalChanges: z.number().check(z.int()),
  changes: z.array(change()),
}));

export const previewView = /* @__PURE__ */ z.lazy(() => z.object({
  id: z.uuid(),
  language: z.string(),
  title: z.string(),
  introText: z.string(),
  rightsText: z.string(),
  complaintText: z.string(),
  contactEmail: z.string(),
  contactUrl: z.nullable(z.string()),
  withdrawalUrl: z.nullable(z.string()),
  purposes: z.array(z.object(publicPurposeShape())),
  fallbackFields: described(z.array(z.string()), 'Fields shown in English because this language has no text for them'),
}));

/** The public notice as a function, for the views that derive from it (the widget's bootstrap). */
export const publicNoticeObject = () => z.object({
  id: z.uuid(),
  title: z.string(),
  description: z.string(),
  privacyPolicyUrl: z.nullable(z.string()),
  contactEmail: z.string(),
  complaintText: z.string(),
  rightsText: described(z.optional(z.string()), "Extension: the principal's rights, which the widget shows (absent on notices published before it existed)"),
  withdrawalUrl: z.nullable(z.string()),
  purposes: z.array(z.object(publicPurposeShape())),
  translations: z.record(
    z.string(),
    z.object({
      title: z.string(),
      introText: z.string(),
      rightsText: described(z.optional(z.string()), 'Extension'),
      complaintText: described(z.optional(z.string()), 'Extension'),
      purposes: z.record(z.string(), z.object({ name: z.string(), description: z.string() })),
    }),
  ),
  availableLanguages: z.array(z.string()),
  versionNumber: described(z.optional(z.number().check(z.int())), 'Extension: the version of this notice'),
  materialVersion: described(z.optional(z.number().check(z.int())), 'Extension: the version that last changed materially (a purpose added or removed, or its data categories or legal basis changed, as the version diff decides). Consent given to it still covers this version; a widget asks again only when materialNoticeId differs from the one consented to.'),
  materialNoticeId: described(z.optional(z.uuid()), 'Extension: the notice id of materialVersion (version numbers count per lineage; this is unique)'),
  children: described(z.optional(z.object({ askAge: z.boolean(), prohibited: z.array(z.uuid()) })), "Extension (s.9): present unless the tenant's children audience is ADULTS. askAge: the widget asks whether the visitor is under 18 (and then the parent's or guardian's email); prohibited: purposes marked childProhibited, never offered to a child"),
  languageNames: described(z.record(z.string(), z.string()), 'Extension: each of availableLanguages named in itself (HI: हिन्दी), for the language switcher'),
  labels: described(z.record(z.string(), z.record(z.string(), z.string())), "Extension: the notice banner's words (buttons, headings, Privacy choices, the GPC note, the withdrawal link) from the tenant's words (GET /words): EN complete, and each of availableLanguages with the words principals are shown in it (reviewed, or machine drafts when the tenant shows them); a key a language lacks is read in English, marked lang=\"en\". Read with the notice, so the widget needs no other request."),
});

export const publicNoticeView = /* @__PURE__ */ z.lazy(publicNoticeObject);
