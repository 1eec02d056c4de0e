import { AppError, RateLimitError } from '../errors';
import type { CookieCategory } from '../cmp/banner';
import type { classifiers, FindingKind } from './finding';

export const scanStatuses = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'] as const;
export type ScanStatus = (typeof scanStatuses)[number];
export const scanTriggers = ['MANUAL', 'SCHEDULED'] as const;
export type ScanTrigger = (typeof scanTriggers)[number];

/** One tracker in a run's report. */
export interface Finding {
  kind: FindingKind;
  name: string | null;
  domain: string;
  category: CookieCategory;
  vendor: string | null;
  firstParty: boolean;
  /** Full URLs of the pages where it was seen. */
  pages: string[];
  /** Seen before any consent was given (pass 1). */
  setBeforeConsent: boolean;
  /** Was in the tenant's registry before this run. */
  declared: boolean;
  classifiedBy: (typeof classifiers)[number];
}

/** A page the run could not scan to its end (it hung, crashed the browser): what it showed before that is in the report. */
export interface FailedPage {
  url: string;
  reason: string;
  /** In pass 2, after the scanner's "accept all"; its pass 1 findings stand. */
  afterConsent: boolean;
}

export interface ScanRun {
  tenantId: string;
  scanRunId: string;
  status: ScanStatus;
  trigger: ScanTrigger;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  urls: string[];
  pagesScanned: number;
  trackersFound: number;
  newUndeclared: number;
  violations: number;
  error: string | null;
  /** Runs written before this field existed have none. */
  failedPages?: FailedPage[];
}

/** A finding that is a fire-before-consent violation: seen without consent and not strictly necessary. */
export const isViolation = (finding: Finding): boolean => finding.setBeforeConsent && finding.category !== 'NECESSARY';

export class ScanAlreadyRunningError extends AppError {
  constructor(scanRunId: string) {
    super('SCAN_ALREADY_RUNNING', `Scan run ${scanRunId} of this tenant is queued or running`);
  }
}

export class ScanRateLimitError extends RateLimitError {
  constructor(retryAfterSeconds: number) {
    super('SCAN_RATE_LIMIT', retryAfterSeconds, 'One scan per tenant per 10 minutes');
  }
}
