import * as z from 'zod';
import { config } from '../config';
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
export const bannerLanguage = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(lowerCodes, { error: `one of ${lowerCodes.join(', ')} (either case)` }));

/** A language labels can be machine-drafted into: every banner language but English. */
export const draftLanguage = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(lowerScheduled, { error: `one of ${lowerScheduled.join(', ')} (either case)` }));

const unique = <T>(values: T[]) => new Set(values).size === values.length;

const hexColour = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'a CSS hex colour: #rgb, #rgba, #rrggbb or #rrggbbaa')
  .transform((colour) => colour.toLowerCase());

const categorySetting = z.strictObject({ enabled: z.boolean().optional(), toggleable: z.boolean().optional() });

export const configBody = z.strictObject({
  categories: z
    .strictObject({
      NECESSARY: z
        .strictObject({
          enabled: z.literal(true, { error: 'NECESSARY is always enabled' }).optional(),
          toggleable: z.literal(false, { error: 'NECESSARY is never toggleable' }).optional(),
        })
        .optional(),
      FUNCTIONAL: categorySetting.optional(),
      ANALYTICS: categorySetting.optional(),
      MARKETING: categorySetting.optional(),
      UNCLASSIFIED: categorySetting.optional(),
    })
    .optional(),
  defaultDeny: z.boolean().optional(),
  childDirected: z.boolean().optional(),
  bannerTheme: z
    .strictObject({
      position: z.enum(bannerPositions).optional(),
      primaryColor: hexColour.optional(),
      backgroundColor: hexColour.optional(),
      textColor: hexColour.optional(),
      borderRadius: z.number().min(0).max(48).optional(),
      showLogo: z.boolean().optional(),
    })
    .optional(),
  languages: z.array(bannerLanguage).min(1).max(22).refine(unique, 'languages must not repeat').optional(),
  reconsentDays: z.number().int().min(30).max(730).optional(),
  scanEnabled: z.boolean().optional(),
  scanUrls: z
    .array(
      z
        .url({ protocol: /^https?$/, error: 'an absolute https URL' })
        .max(2000)
        .superRefine((url, context) => {
          const problem = scanUrlProblem(url, config.isLocal);
          if (problem) context.addIssue({ code: 'custom', message: problem });
        }),
    )
    .max(5)
    .refine(unique, 'scanUrls must not repeat')
    .optional(),
});

/** A host name or IP address, in the one form the registry keeps (shared/cmp/tracker-key.ts): the scanner's finds are written the same way. */
const trackerDomain = z.string().max(512).transform((raw, context) => {
  const domain = normaliseTrackerDomain(raw);
  if (domain === null) {
    context.addIssue({ code: 'custom', message: 'a host name such as analytics.example.com, or an IP address' });
    return z.NEVER;
  }
  return domain;
});

export const trackerInput = z.strictObject({
  domain: trackerDomain,
  cookieName: printable(maxTrackerNameLength).optional(),
  category: cookieCategory,
  vendor: printable(200).optional(),
  location: printable(500).optional(),
  declaredByAdmin: z.boolean().optional().describe('Ignored: a manual upsert always stores true'),
});

export const trackersBody = z.strictObject({
  trackers: z
    .array(trackerInput)
    .min(1)
    .max(200)
    .superRefine((trackers, context) => {
      const seen = new Set<string>();
      trackers.forEach((tracker, index) => {
        const key = trackerKey(tracker);
        if (seen.has(key)) context.addIssue({ code: 'custom', path: [index], message: 'repeats the domain and cookieName of an earlier tracker' });
        seen.add(key);
      });
    }),
});

export const trackerKeyBody = z.strictObject({ domain: trackerDomain, cookieName: printable(maxTrackerNameLength).optional() });

export const trackerUpsertResult = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  trackers: z.array(trackerView).describe('The whole registry after the upsert'),
});

export const labelsBody = z.strictObject({
  labels: z
    .strictObject(Object.fromEntries(bannerLabelKeys.map((key) => [key, z.string().trim().min(1).max(1000).optional()])))
    .refine((labels) => Object.keys(labels).length > 0, 'name at least one label'),
});

export const languageParams = z.strictObject({ language: bannerLanguage });

export const draftBody = z.strictObject({
  language: draftLanguage,
  replaceReviewed: z.boolean().optional().describe('Draft over labels a person reviewed; without it such a language is a 409 CONFLICT'),
});

export const draftAllResult = z.object({
  translator: z.string(),
  languages: z.array(z.object({ language: z.string(), status: z.enum(labelStatuses) })),
  keptReviewed: z.array(z.string()),
});

export const revisionParams = z.strictObject({ revision: z.coerce.number().int().min(1) });

const day = z.iso.date();

export const analyticsQuery = z
  .strictObject({
    from: day.optional().describe('First UTC day, YYYY-MM-DD; default 29 days before to'),
    to: day.optional().describe('Last UTC day, inclusive; default today'),
  });

const rates = {
  accept: z.number().describe('accept ÷ decisions: every optional category named in the decision was true'),
  reject: z.number().describe('reject ÷ decisions: every optional category named was false (or none was named)'),
  partial: z.number().describe('partial ÷ decisions: some true, some false'),
};

export const cmpAnalyticsView = z.object({
  from: day,
  to: day,
  totals: z.object({
    decisions: z.number().int().describe('COOKIE_CONSENT_GIVEN and COOKIE_CONSENT_UPDATED events'),
    accept: z.number().int(),
    reject: z.number().int(),
    partial: z.number().int(),
    withdrawals: z.number().int().describe('COOKIE_CONSENT_WITHDRAWN events'),
  }),
  rates: z.object(rates),
  categories: z.record(
    z.string(),
    z.object({
      seen: z.number().int().describe('decisions that named the category'),
      optedIn: z.number().int(),
      optInRate: z.number().describe('optedIn ÷ seen'),
    }),
  ),
  serverSide: z.object({ events: z.number().int(), fired: z.number().int(), suppressed: z.number().int(), firedWithoutConsent: z.number().int() }),
  daily: z.array(
    z.object({ date: day, decisions: z.number().int(), accept: z.number().int(), reject: z.number().int(), partial: z.number().int(), withdrawals: z.number().int() }),
  ),
});
