import * as z from 'zod/mini';
import { principalStatuses } from '../consent/states';
import { described } from '../described';
import { bannerPositions, cookieCategories } from './banner';
import { bannerLabelKeys, labelStatuses } from './labels';
import { cookieEvents } from './visitor';

/**
 * What the visitor-facing routes (the cmp-public function) take and answer: the banner's public
 * document, web events, consent status and server events. Apart from the dashboard's schemas
 * (schemas.ts), so that function does not carry the configuration's validation (scan URLs through
 * the address policy, tracker domains, languages).
 */

export const cookieCategory = /* @__PURE__ */ (() => z.enum(cookieCategories))();

const categoryView = /* @__PURE__ */ (() => z.object({ enabled: z.boolean(), toggleable: z.boolean() }))();

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
  reconsentDays: z.number().check(z.int()),
  scanEnabled: z.boolean(),
  scanUrls: z.array(z.string()),
  showPoweredBy: z.boolean(),
  brandName: z.nullable(z.string()),
  logoUrl: z.nullable(z.string()),
  revision: described(z.number().check(z.int()), 'Extension: increases on every change to the configuration, trackers or labels'),
  updatedAt: z.nullable(z.iso.datetime()),
};

export const configView = /* @__PURE__ */ (() => z.object(configFields))();

export const printable = (max: number) =>
  z.string().check(z.trim(), z.minLength(1), z.maxLength(max), z.regex(/^[^\p{Cc}]*$/u, 'must not contain control characters'));

export const trackerView = /* @__PURE__ */ z.lazy(() => z.object({
  domain: z.string(),
  cookieName: z.optional(z.string()),
  category: cookieCategory,
  vendor: z.optional(z.string()),
  location: z.optional(z.string()),
  declaredByAdmin: z.boolean(),
}));

export const labelSetView = /* @__PURE__ */ (() => z.object({
  language: z.string(),
  status: z.enum(labelStatuses),
  labels: z.object(Object.fromEntries(bannerLabelKeys.map((key) => [key, z.string()]))),
  updatedAt: z.nullable(z.iso.datetime()),
}))();

export const publicConfigView = /* @__PURE__ */ z.lazy(() => z.extend(configView, {
  trackers: z.array(trackerView),
  labelSets: z.record(z.string(), z.omit(labelSetView, { language: true })),
  languageNames: described(z.record(z.string(), z.string()), 'Extension: English and each of languages named in itself (HI: हिन्दी), for the language switcher. A configuration last changed before this field was added carries none until its next change; the widget then names a language by its code unless the public notice names it'),
}));

export const publicConfigParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ tenantId: z.uuid() }));

export const webEventBody = /* @__PURE__ */ z.lazy(() => z.strictObject({
  tenantId: z.uuid(),
  consentRecordId: described(z.optional(z.uuid()), 'The visitor id cookie; absent on a first visit, when one is generated and returned'),
  event: z.enum(cookieEvents),
  categories: z.record(
      z.pipe(z.string().check(z.trim(), z.regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'a category key such as ANALYTICS')), z.transform((key) => key.toUpperCase())),
      z.boolean(),
    ).check(z.refine((categories) => Object.keys(categories).length <= 20, 'at most 20 categories')),
  widgetVersion: z.optional(printable(50)),
  principalStatus: described(z.optional(z.enum(principalStatuses)), "Extension (s.9): CHILD or GUARDED when the visitor told the widget she is under 18 (or has a lawful guardian). Her state then grants no optional category in GET /cmp/consent-status (tracking and behavioural monitoring are barred for children, s.9(3); nothing else is approved by a parent here), and her choices are not counted in the analytics"),
}));

export const webEventResult = /* @__PURE__ */ z.lazy(() => z.object({ recorded: z.literal(true), consentRecordId: z.uuid() }));

export const consentStatusQuery = /* @__PURE__ */ z.lazy(() => z.strictObject({ visitorId: z.uuid() }));

export const consentStatusView = /* @__PURE__ */ z.lazy(() => z.object({
  visitorId: z.uuid(),
  found: z.boolean(),
  categories: z.record(z.string(), z.boolean()),
  lastUpdated: z.nullable(z.iso.datetime()),
  withdrawn: z.boolean(),
  principalStatus: described(z.optional(z.enum(principalStatuses)), 'Extension: present for a child or guarded visitor, whose optional categories all read false'),
}));

export const serverEventBody = /* @__PURE__ */ z.lazy(() => z.strictObject({
  visitorId: z.uuid(),
  trackerName: printable(200),
  fired: z.boolean(),
  category: cookieCategory,
}));

export const serverEventView = /* @__PURE__ */ z.lazy(() => z.object({
  id: z.string(),
  visitorId: z.uuid(),
  trackerName: z.string(),
  fired: z.boolean(),
  category: cookieCategory,
  allowed: described(z.boolean(), "Whether the visitor's consent state allowed this category when the call was logged"),
  firedWithoutConsent: described(z.boolean(), 'fired while the category was not allowed: evidence of a tracker running without consent'),
  createdAt: z.iso.datetime(),
}));
