import type { Mail } from '../mail/outbox';
import { isViolation, type Finding, type ScanRun } from './run';

const describe = (finding: Finding): string => {
  const what = finding.name === null ? `requests to ${finding.domain}` : `${finding.kind.toLowerCase().replace('_', ' ')} "${finding.name}" (${finding.domain})`;
  const vendor = finding.vendor ? `, ${finding.vendor}` : '';
  const violation = isViolation(finding) ? ' - FIRES BEFORE CONSENT' : '';
  return `- ${what}: ${finding.category}${vendor}${violation}\n  seen on ${finding.pages[0] ?? '(no page)'}${finding.pages.length > 1 ? ` and ${finding.pages.length - 1} more` : ''}`;
};

/** The DPO's alert: the new undeclared trackers of a run, with category, page and fire-before-consent violations. */
export const newTrackersMail = (to: string, run: ScanRun, fresh: Finding[]): Mail => {
  const violations = fresh.filter(isViolation).length;
  return {
    to,
    subject: `Tracker scan: ${fresh.length} new undeclared tracker${fresh.length === 1 ? '' : 's'}${violations > 0 ? `, ${violations} firing before consent` : ''}`,
    text: [
      `The tracker scan ${run.scanRunId} of ${run.urls.join(', ')} found trackers that were not in your registry.`,
      'They have been added to it as found by the scanner (declaredByAdmin false); review their categories in the dashboard.',
      '',
      ...fresh.map(describe),
      '',
      `Pages scanned: ${run.pagesScanned}. Full report: GET /api/v1/cmp/scan-runs/${run.scanRunId}`,
      ...(run.failedPages?.length
        ? ['', 'Pages that could not be scanned to their end (what they showed before that is included):', ...run.failedPages.map((page) => `- ${page.url}: ${page.reason}`)]
        : []),
    ].join('\n'),
  };
};
