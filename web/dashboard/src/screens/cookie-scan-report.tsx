import { api } from '../session';
import type { DataOf } from '../api';
import { ErrorText, Heading, Link, Loading, formatDateTime, useData } from '../ui';
import { notConfigured } from './cookie-data';
import { StatusBadge, unfinished, usePolling } from './cookie-scans';

type Finding = DataOf<'getCmpScanRun'>['findings'][number];

/** A tracker other than NECESSARY seen before consent: it fired before the visitor could choose. */
const isViolation = (finding: Finding) => finding.setBeforeConsent && finding.category !== 'NECESSARY';

const classifiedBy: Record<Finding['classifiedBy'], string> = {
  REGISTRY: 'from your registry',
  OPEN_COOKIE_DATABASE: 'by the Open Cookie Database',
  THIRD_PARTY_WEB: 'by third-party-web',
  NONE: 'not classified',
};

const Findings = ({ findings, caption, id }: { findings: Finding[]; caption: string; id: string }) => (
  <table class="findings" id={id}>
    <caption>{caption}</caption>
    <thead>
      <tr>
        <th scope="col">Tracker</th>
        <th scope="col">Kind</th>
        <th scope="col">Category</th>
        <th scope="col">Before consent</th>
        <th scope="col">In registry</th>
        <th scope="col">Pages</th>
      </tr>
    </thead>
    <tbody>
      {findings.map((finding, index) => (
        <tr key={index} class={isViolation(finding) ? 'violation' : undefined}>
          <th scope="row">
            {finding.name ?? finding.domain}
            {finding.name ? <span class="hint">{finding.domain}</span> : null}
            {finding.vendor ? <span class="hint">{finding.vendor}</span> : null}
          </th>
          <td>{finding.kind.toLowerCase().replace('_', ' ')}</td>
          <td>
            {finding.category}
            <span class="hint">{classifiedBy[finding.classifiedBy]}</span>
          </td>
          <td>{isViolation(finding) ? <strong class="badge withdrawn">Violation: fired before consent</strong> : finding.setBeforeConsent ? 'Yes' : 'No'}</td>
          <td>{finding.declared ? 'Yes' : 'No, added by this scan'}</td>
          <td>
            <ul class="pages">
              {finding.pages.map((page) => (
                <li key={page}>
                  <code>{page}</code>
                </li>
              ))}
            </ul>
          </td>
        </tr>
      ))}
    </tbody>
  </table>
);

export default function CookieScanReport({ params }: { params: Record<string, string> }) {
  const report = useData(() => api.call('getCmpScanRun', { params: { scanRunId: params.scanRunId ?? '' } }), [params.scanRunId]);
  const run = report.data;
  usePolling(!!run && unfinished(run), report.reload);
  const violations = run?.findings.filter(isViolation) ?? [];
  return (
    <>
      <p class="crumbs">
        <Link to="/cookie-consent">Cookie consent</Link>
      </p>
      <Heading title="Scan report">Scan report</Heading>
      {report.loading && !run ? <Loading what="the report" /> : null}
      {notConfigured(report.error) ? <p>Cookie consent is not on your organisation's plan (collect-only), so there are no scans.</p> : <ErrorText error={report.error} />}
      {run ? (
        <>
          <dl class="pairs">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={run.status} />
              {run.error ? ` ${run.error}` : null}
            </dd>
            <dt>Started</dt>
            <dd>{formatDateTime(run.startedAt ?? run.createdAt)}</dd>
            <dt>Finished</dt>
            <dd>{formatDateTime(run.completedAt)}</dd>
            <dt>Scan URLs</dt>
            <dd>{run.urls.join(', ')}</dd>
            <dt>Pages scanned</dt>
            <dd>{run.pagesScanned}</dd>
            <dt>Trackers found</dt>
            <dd>{run.trackersFound}</dd>
            <dt>New, not yet declared</dt>
            <dd>{run.newUndeclared}</dd>
            <dt>Violations</dt>
            <dd id="report-violations">{run.violations}</dd>
          </dl>
          {unfinished(run) ? (
            <p role="status" class="muted">
              The scan is still going; the findings appear when it ends.
            </p>
          ) : null}
          {run.failedPages.length ? (
            <section aria-labelledby="failed-pages-heading">
              <h2 id="failed-pages-heading">Pages that could not be scanned to the end</h2>
              <p>What these pages showed before that is in the findings below; every other page was scanned in full.</p>
              <ul id="failed-pages">
                {run.failedPages.map((page) => (
                  <li key={`${page.url} ${page.afterConsent}`}>
                    {page.url}
                    {page.afterConsent ? ' (after consent)' : ''}: {page.reason}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {violations.length ? (
            <section aria-labelledby="violations-heading" class="violations">
              <h2 id="violations-heading">Fired before consent</h2>
              <p class="warning">These trackers were set or loaded before the visitor chose. Block them until their category is granted (see the widget's blocking attributes) or classify them as necessary if they are.</p>
              <Findings findings={violations} caption="Violations" id="violation-findings" />
            </section>
          ) : !unfinished(run) ? (
            <p>No tracker fired before consent.</p>
          ) : null}
          {run.findings.length ? (
            <section aria-labelledby="findings-heading">
              <h2 id="findings-heading">All findings</h2>
              <Findings findings={run.findings} caption="Every tracker the scan saw" id="all-findings" />
            </section>
          ) : null}
        </>
      ) : null}
    </>
  );
}
