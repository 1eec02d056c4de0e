import * as z from 'zod/mini';
import { described } from '../described';
import { cookieCategory } from '../cmp/visitor-schemas';
import { classifiers, findingKinds } from './finding';
import { scanStatuses, scanTriggers } from './run';

export const scanNowResult = /* @__PURE__ */ z.lazy(() => z.object({ scanRunId: z.uuid(), status: z.literal('QUEUED') }));

export const scanRunView = /* @__PURE__ */ (() => z.object({
  scanRunId: z.uuid(),
  status: z.enum(scanStatuses),
  trigger: z.enum(scanTriggers),
  createdAt: z.iso.datetime(),
  startedAt: z.nullable(z.iso.datetime()),
  completedAt: z.nullable(z.iso.datetime()),
  urls: described(z.array(z.string()), 'The scan URLs the run started from'),
  pagesScanned: z.number().check(z.int()),
  trackersFound: z.number().check(z.int()),
  newUndeclared: described(z.number().check(z.int()), 'Trackers found that were not in the registry before this run'),
  violations: described(z.number().check(z.int()), 'Trackers other than NECESSARY seen before consent was given'),
  error: described(z.nullable(z.string()), 'Why a FAILED run failed'),
  failedPages: described(z.array(z.object({ url: z.string(), reason: z.string(), afterConsent: z.boolean() })), 'Extension. Pages the run could not scan to their end (a page that stopped responding or crashed the browser), and why; what they showed before that, and every other page, is in the report. A run with some failed pages still COMPLETES; one where none could be scanned is FAILED.'),
}))();

export const findingView = /* @__PURE__ */ (() => z.object({
  kind: z.enum(findingKinds),
  name: described(z.nullable(z.string()), 'Cookie name or storage key; null for a request'),
  domain: z.string(),
  category: cookieCategory,
  vendor: z.nullable(z.string()),
  firstParty: described(z.boolean(), "On the scanned page's own site (registrable domain)"),
  pages: described(z.array(z.string()), 'Full URLs of the pages where it was seen'),
  setBeforeConsent: described(z.boolean(), 'Seen before consent; with a category other than NECESSARY this is a violation'),
  declared: described(z.boolean(), 'In the registry before this run'),
  classifiedBy: z.enum(classifiers),
}))();

export const scanReportView = /* @__PURE__ */ z.lazy(() => z.extend(scanRunView, { findings: z.array(findingView) }));

export const scanRunParams = /* @__PURE__ */ z.lazy(() => z.strictObject({ scanRunId: z.uuid() }));
