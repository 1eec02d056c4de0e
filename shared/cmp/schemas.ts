import * as z from 'zod/mini';
import { described } from '../described';
import { engineConfig } from '../config';
import { languageCodes, scheduledLanguageCodes } from '../i18n/languages';
import { bannerPositions } from './banner';
import { trackerKey } from './document';
import { maxTrackerNameLength, normaliseTrackerDomain } from './tracker-key';
import { bannerLabelKeys, labelStatuses } from './labels';
import { scanUrlProblem } from '../scanner/targets';
import { cookieCategory, printable, trackerView } from './visitor-schemas';

const lowerCodes = languageCodes.map((code) => code.toLowerCase()) as [string, ...string[]];
const lowerScheduled = scheduledLanguageCodes.map((code) => code.toLowerCase()) as [string, ...string[]];

/** A banner language: English or an Eighth Schedule language, either case, stored lower-case. */
export const bannerLanguage = /* @__PURE__ */ (() => z.pipe(z.string().check(z.trim(), z.toLowerCase()), z.enum(lowerCodes, { error: `one of ${lowerCodes.join(', ')} (either case)` })))();

/** A language labels can be machine-drafted into: every banner language but English. */
export const draftLanguage = /* @__PURE__ */ (() => z.pipe(z.string().check(z.trim(), z.toLowerCase()), z.enum(lowerScheduled, { error: `one of ${lowerScheduled.join(', ')} (either case)` })))();

const unique = <T>(values: T[]) => new Set(values).size === values.length;

const hexColour = /* @__PURE__ */ (() => z.pipe(z.string().check(z.regex(/^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'a CSS hex colour: #rgb, #rgba, #rrggbb or #rrggbbaa')), z.transform((colour) => colour.toLowerCase())))();

const categorySetting = /* @__PURE__ */ (() => z.strictObject({ enabled: z.optional(z.boolean()), toggleable: z.optional(z.boolean()) }))();

export const configBody = /* @__PURE__ */ z.lazy(() => z.strictObject({
  categories: z.optional(z.strictObject({
      NECESSARY: z.optional(z.strictObject({
          enabled: z.optional(z.literal(true, { error: 'NECESSARY is always enabled' })),
          toggleable: z.optional(z.literal(false, { error: 'NECESSARY is never toggleable' })),
        })),
      FUNCTIONAL: z.optional(categorySetting),
      ANALYTICS: z.optional(categorySetting),
      MARKETING: z.optional(categorySetting),
      UNCLASSIFIED: z.optional(categorySetting),
    })),
  defaultDeny: z.optional(z.boolean()),
  childDirected: z.optional(z.boolean()),
  bannerTheme: z.optional(z.strictObject({
      position: z.optional(z.enum(bannerPositions)),
      primaryColor: z.optional(hexColour),
      backgroundColor: z.optional(hexColour),
      textColor: z.optional(hexColour),
      borderRadius: z.optional(z.number().check(z.gte(0), z.lte(48))),
      showLogo: z.optional(z.boolean()),
    })),
  languages: z.optional(z.array(bannerLanguage).check(z.minLength(1), z.maxLength(22), z.refine(unique, 'languages must not repeat'))),
  reconsentDays: z.optional(z.number().check(z.int(), z.gte(30), z.lte(730))),
  scanEnabled: z.optional(z.boolean()),
  scanUrls: z.optional(z.array(
      z.url({ protocol: /^https?$/, error: 'an absolute https URL' }).check(z.maxLength(2000), z.superRefine((url, context) => {
          const problem = scanUrlProblem(url, engineConfig.isLocal);
          if (problem) context.addIssue({ code: 'custom', message: problem });
        })),
    ).check(z.maxLength(5), z.refine(unique, 'scanUrls must not repeat'))),
}));

/** A host name or IP address, in the one form the registry keeps (shared/cmp/tracker-key.ts): the scanner's finds are written the same way. */
const trackerDomain = /* @__PURE__ */ (() => z.pipe(z.string().check(z.maxLength(512)), z.transform((raw, context) => {
  const domain = normaliseTrackerDomain(raw);
  if (domain === null) {
    context.issues.push({ code: 'custom', message: 'a host name such as analytics.example.com, or an IP address', input: raw });
    return z.NEVER;
  }
  return domain;
})))();

export const trackerInput = /* @__PURE__ */ (() => z.strictObject({
  domain: trackerDomain,
  cookieName: z.optional(printable(maxTrackerNameLength)),
  category: cookieCategory,
  vendor: z.optional(printable(200)),
  location: z.optional(printable(500)),
  declaredByAdmin: described(z.optional(z.boolean()), 'Ignored: a manual upsert always stores true'),
}))();

export const trackersBody = /* @__PURE__ */ z.lazy(() => z.strictObject({
  trackers: z.array(trackerInput).check(z.minLength(1), z.maxLength(200), z.superRefine((trackers, context) => {
      const seen = new Set<string>();
      trackers.forEach((tracker, index) => {
        const key = trackerKey(tracker);
        if (seen.has(key)) context.addIssue({ code: 'custom', path: [index], message: 'repeats the domain and cookieName of an earlier tracker' });
        seen.add(key);
      });
    })),
}));

export const trackerKeyBody = /* @__PURE__ */ z.lazy(() => z.strictObject({ domain: trackerDomain, cookieName: z.optional(printable(maxTrackerNameLength)) }));

export const trackerUpsertResult = /* @__PURE__ */ z.lazy(() => z.object({
  created: z.number().check(z.int()),
  updated: z.number().check(z.int()),
  unchanged: z.number().check(z.int()),
  trackers: described(z.array(trackerView), 'The whole registry after the upsert'),
}));

export const labelsBody = /* @__PURE__ */ z.lazy(() => z.strictObject({
  labels: z.strictObject(Object.fromEntries(bannerLabelKeys.map((key) => [key, z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(1000)))]))).check(z.refine((labels) => Object.keys(labels).length > 0, 'name at least one label')),
}));

export const languageParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ language: bannerLanguage }));

export const draftBody = /* @__PURE__ */ z.lazy(() => z.strictObject({
  language: draftLanguage,
  replaceReviewed: described(z.optional(z.boolean()), 'Draft over labels a person reviewed; without it such a language is a 409 CONFLICT'),
}));

export const draftAllResult = /* @__PURE__ */ z.lazy(() => z.object({
  translator: z.string(),
  languages: z.array(z.object({ language: z.string(), status: z.enum(labelStatuses) })),
  keptReviewed: z.array(z.string()),
}));

export const revisionParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ revision: z.coerce.number().check(z.int(), z.gte(1)) }));

const day = /* @__PURE__ */ (() => z.iso.date())();

export const analyticsQuery = /* @__PURE__ */ z.lazy(() => z.strictObject({
    from: described(z.optional(day), 'First UTC day, YYYY-MM-DD; default 29 days before to'),
    to: described(z.optional(day), 'Last UTC day, inclusive; default today'),
  }));

const rates = {
  accept: described(z.number(), 'accept ÷ decisions: every optional category named in the decision was true'),
  reject: described(z.number(), 'reject ÷ decisions: every optional category named was false (or none was named)'),
  partial: described(z.number(), 'partial ÷ decisions: some true, some false'),
};

export const cmpAnalyticsView = /* @__PURE__ */ z.lazy(() => z.object({
  from: day,
  to: day,
  totals: z.object({
    decisions: described(z.number().check(z.int()), 'COOKIE_CONSENT_GIVEN and COOKIE_CONSENT_UPDATED events'),
    accept: z.number().check(z.int()),
    reject: z.number().check(z.int()),
    partial: z.number().check(z.int()),
    withdrawals: described(z.number().check(z.int()), 'COOKIE_CONSENT_WITHDRAWN events'),
  }),
  rates: z.object(rates),
  categories: z.record(
    z.string(),
    z.object({
      seen: described(z.number().check(z.int()), 'decisions that named the category'),
      optedIn: z.number().check(z.int()),
      optInRate: described(z.number(), 'optedIn ÷ seen'),
    }),
  ),
  serverSide: z.object({ events: z.number().check(z.int()), fired: z.number().check(z.int()), suppressed: z.number().check(z.int()), firedWithoutConsent: z.number().check(z.int()) }),
  daily: z.array(
    z.object({ date: day, decisions: z.number().check(z.int()), accept: z.number().check(z.int()), reject: z.number().check(z.int()), partial: z.number().check(z.int()), withdrawals: z.number().check(z.int()) }),
  ),
}));
