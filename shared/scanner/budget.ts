/**
 * The scanner's bounds, in one place: the crawl, the Lambda timeout (infra) and the stale-lock
 * rule all derive from them.
 */
export const scanBudget = {
  /** Links followed from each scan URL: same site only. */
  linksPerUrl: 10,
  pagesPerRun: 30,
  pageMs: 30_000,
  runMs: 10 * 60_000,
  /**
   * The most JavaScript heap a page may use (V8's --max-old-space-size). The bundled Chromium runs
   * --single-process, so a renderer-process limit means nothing there: a page past this crashes the
   * browser, which the crawl restarts for the next page (crawl.ts), and the Lambda's 2,048 MB stays
   * the hard bound for everything else. Popups and new windows are refused outright, so one page
   * cannot multiply itself (200 of them once took 2.5 GB).
   */
  pageHeapMb: 256,
  /** After the run budget, Chromium's close and the final writes still need a moment. */
  lambdaTimeoutSeconds: 12 * 60,
  /**
   * An active lock this old belongs to a run whose message is gone (dead-lettered after its
   * scanner died twice): the next scan-now closes that run FAILED. Generous, because a QUEUED run
   * may wait behind a backlog of scheduled scans at the scanner's capped concurrency.
   */
  staleLockSeconds: 24 * 60 * 60,
  /** Scanners running at once in AWS (reserved concurrency and the queue's maximum concurrency). */
  concurrency: 2,
  /** Scheduled scans come round this often for tenants with scanEnabled. */
  scheduleIntervalDays: 30,
} as const;
