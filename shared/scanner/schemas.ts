import * as z from 'zod';
import { cookieCategory } from '../cmp/visitor-schemas';
import { classifiers, findingKinds } from './finding';
import { scanStatuses, scanTriggers } from './run';

export const scanNowResult = z.object({ scanRunId: z.uuid(), status: z.literal('QUEUED') });

export const scanRunView = z.object({
  scanRunId: z.uuid(),
  status: z.enum(scanStatuses),
  trigger: z.enum(scanTriggers),
  createdAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  completedAt: z.iso.datetime().nullable(),
  urls: z.array(z.string()).describe('The scan URLs the run started from'),
  pagesScanned: z.number().int(),
  trackersFound: z.number().int(),
  newUndeclared: z.number().int().describe('Trackers found that were not in the registry before this run'),
  violations: z.number().int().describe('Trackers other than NECESSARY seen before consent was given'),
  error: z.string().nullable().describe('Why a FAILED run failed'),
  failedPages: z
    .array(z.object({ url: z.string(), reason: z.string(), afterConsent: z.boolean() }))
    .describe(
      'Extension. Pages the run could not scan to their end (a page that stopped responding or crashed the browser), and why; what they showed before that, and every other page, is in the report. A run with some failed pages still COMPLETES; one where none could be scanned is FAILED.',
    ),
});

export const findingView = z.object({
  kind: z.enum(findingKinds),
  name: z.string().nullable().describe('Cookie name or storage key; null for a request'),
  domain: z.string(),
  category: cookieCategory,
  vendor: z.string().nullable(),
  firstParty: z.boolean().describe("On the scanned page's own site (registrable domain)"),
  pages: z.array(z.string()).describe('Full URLs of the pages where it was seen'),
  setBeforeConsent: z.boolean().describe('Seen before consent; with a category other than NECESSARY this is a violation'),
  declared: z.boolean().describe('In the registry before this run'),
  classifiedBy: z.enum(classifiers),
});

export const scanReportView = scanRunView.extend({ findings: z.array(findingView) });

export const scanRunParams = z.strictObject({ scanRunId: z.uuid() });
