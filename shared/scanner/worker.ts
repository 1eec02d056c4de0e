import { BrowserStartError } from '../browser/launch';
import { nowIso } from '../clock';
import { addFoundTrackers, listTrackers } from '../cmp/service';
import { engineConfig } from '../config';
import { describeError, log } from '../log';
import { named } from '../db/transact';
import { mailPut } from '../mail/outbox';
import { requireTenant } from '../tenants/store';
import { newTrackersMail } from './alert';
import { openCookieDatabase } from './cookie-database';
import { crawl, type CrawlOptions } from './crawl';
import { buildFindings, trackerOf, undeclared } from './report';
import { isViolation, type Finding, type ScanRun } from './run';
import type { ScanMessage } from './service';
import { finishRun, markRunning, readRun } from './store';

const failed = (run: ScanRun, error: string, findings: Finding[] = []) =>
  finishRun({ ...run, status: 'FAILED', completedAt: nowIso(), error }, findings);

/**
 * Why a run failed, in words its DPO can act on: what happened, that nothing of it was kept, and
 * what to do (start it again; if that fails too, who to tell, with the run's id, under which the
 * service's log holds the details). Never the error's own text: it may name internals.
 */
export const failureReason = (error: unknown, scanRunId: string): string => {
  const next = `Start the scan again ("Scan now")${error instanceof BrowserStartError && error.timedOut ? ' in a few minutes' : ''}; if it fails again, tell the service's operator, quoting run ${scanRunId}.`;
  if (error instanceof BrowserStartError) return `${error.message} Nothing was scanned. ${next}`;
  return `The scanner stopped on an internal error before it could finish; nothing of this run was kept. ${next}`;
};

/**
 * Runs one queued scan to its end. A run found already RUNNING was started by a delivery that
 * died (out of memory, timeout): it ends FAILED rather than running twice or staying RUNNING.
 * The registry as it stood before the crawl decides what is new; the run, its report and the DPO's
 * alert are written together, once.
 */
export const runScan = async (message: ScanMessage, options: Pick<CrawlOptions, 'budget' | 'launch'> = {}): Promise<void> => {
  const queued = await readRun(message.tenantId, message.scanRunId);
  if (!queued || queued.status === 'COMPLETED' || queued.status === 'FAILED') return;
  if (queued.status === 'RUNNING' || !(await markRunning(queued.tenantId, queued.scanRunId, nowIso()))) {
    await failed(queued, 'The scanner stopped before finishing this run');
    return;
  }
  const run: ScanRun = { ...queued, status: 'RUNNING', startedAt: nowIso() };
  try {
    const registry = await listTrackers(run.tenantId);
    const result = await crawl(run.urls, { allowLocal: engineConfig.isLocal, ...options });
    const findings = buildFindings(result.observations, registry, openCookieDatabase());
    const counted: ScanRun = {
      ...run,
      pagesScanned: result.pages.length,
      trackersFound: findings.length,
      newUndeclared: undeclared(findings).length,
      violations: findings.filter(isViolation).length,
      completedAt: nowIso(),
      failedPages: result.failedPages,
    };
    // What the pages scanned before the run stopped found stays in the report either way.
    if (result.stoppedEarly) {
      await failed(counted, result.stoppedEarly, findings);
      return;
    }
    const scannedToEnd = result.pages.filter((url) => !result.failedPages.some((page) => page.url === url && !page.afterConsent));
    if (scannedToEnd.length === 0) {
      await failed(counted, 'No page could be scanned to its end (see failedPages)', findings);
      return;
    }
    const fresh = undeclared(findings);
    const additions = fresh.flatMap((finding) => trackerOf(finding) ?? []);
    if (additions.length > 0) await addFoundTrackers(run.tenantId, additions);
    const { dpoEmail } = await requireTenant(run.tenantId);
    const alert = fresh.length > 0 && dpoEmail ? [named('DPO alert', mailPut(run.tenantId, newTrackersMail(dpoEmail, counted, fresh)))] : [];
    const completed: ScanRun = { ...counted, status: 'COMPLETED' };
    await finishRun(completed, findings, alert);
    log.info('tracker scan completed', { tenantId: run.tenantId, scanRunId: run.scanRunId, pages: result.pages.length, findings: findings.length, refused: result.refused.length });
  } catch (error) {
    log.error('tracker scan failed', { scanRunId: run.scanRunId, ...describeError(error) });
    await failed(run, failureReason(error, run.scanRunId));
  }
};
