import * as z from 'zod';
import { bannerPositions, cookieCategories } from './banner';
import { bannerLabelKeys, labelStatuses } from './labels';
import { cookieEvents } from './visitor';

/**
 * What the visitor-facing routes (the cmp-public function) take and answer: the banner's public
 * document, web events, consent status and server events. Apart from the dashboard's schemas
 * (schemas.ts), so that function does not carry the configuration's validation (scan URLs through
 * the address policy, tracker domains, languages).
 */

export const cookieCategory = z.enum(cookieCategories);

const categoryView = z.object({ enabled: z.boolean(), toggleable: z.boolean() });

const configFields = {
  tenantId: z.uuid(),
  categories: z.object(Object.fromEntries(cookieCategories.map((category) => [category, categoryView])) as Record<(typeof cookieCategories)[number], typeof categoryView>),
  defaultDeny: z.boolean(),
  childDirected: z.boolean(),
  bannerTheme: z.object({
    position: z.enum(bannerPositions),
    primaryColor: z.string(),
    backgroundColor: z.string(),
    textColor: z.string(),
    borderRadius: z.number(),
    showLogo: z.boolean(),
  }),
  languages: z.array(z.string()),
  reconsentDays: z.number().int(),
  scanEnabled: z.boolean(),
  scanUrls: z.array(z.string()),
  showPoweredBy: z.boolean(),
  brandName: z.string().nullable(),
  logoUrl: z.string().nullable(),
  revision: z.number().int().describe('Extension: increases on every change to the configuration, trackers or labels'),
  updatedAt: z.iso.datetime().nullable(),
};

export const configView = z.object(configFields);

export const printable = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(/^[^\p{Cc}]*$/u, 'must not contain control characters');

export const trackerView = z.object({
  domain: z.string(),
  cookieName: z.string().optional(),
  category: cookieCategory,
  vendor: z.string().optional(),
  location: z.string().optional(),
  declaredByAdmin: z.boolean(),
});

export const labelSetView = z.object({
  language: z.string(),
  status: z.enum(labelStatuses),
  labels: z.object(Object.fromEntries(bannerLabelKeys.map((key) => [key, z.string()]))),
  updatedAt: z.iso.datetime().nullable(),
});

export const publicConfigView = configView.extend({
  trackers: z.array(trackerView),
  labelSets: z.record(z.string(), labelSetView.omit({ language: true })),
});

export const publicConfigParams = z.strictObject({ tenantId: z.uuid() });

export const webEventBody = z.strictObject({
  tenantId: z.uuid(),
  consentRecordId: z.uuid().optional().describe('The visitor id cookie; absent on a first visit, when one is generated and returned'),
  event: z.enum(cookieEvents),
  categories: z
    .record(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'a category key such as ANALYTICS')
        .transform((key) => key.toUpperCase()),
      z.boolean(),
    )
    .refine((categories) => Object.keys(categories).length <= 20, 'at most 20 categories'),
  widgetVersion: printable(50).optional(),
});

export const webEventResult = z.object({ recorded: z.literal(true), consentRecordId: z.uuid() });

export const consentStatusQuery = z.strictObject({ visitorId: z.uuid() });

export const consentStatusView = z.object({
  visitorId: z.uuid(),
  found: z.boolean(),
  categories: z.record(z.string(), z.boolean()),
  lastUpdated: z.iso.datetime().nullable(),
  withdrawn: z.boolean(),
});

export const serverEventBody = z.strictObject({
  visitorId: z.uuid(),
  trackerName: printable(200),
  fired: z.boolean(),
  category: cookieCategory,
});

export const serverEventView = z.object({
  id: z.string(),
  visitorId: z.uuid(),
  trackerName: z.string(),
  fired: z.boolean(),
  category: cookieCategory,
  allowed: z.boolean().describe("Whether the visitor's consent state allowed this category when the call was logged"),
  firedWithoutConsent: z.boolean().describe('fired while the category was not allowed: evidence of a tracker running without consent'),
  createdAt: z.iso.datetime(),
});
