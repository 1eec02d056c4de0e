import { nowIso } from '../clock';
import { readDocument } from '../cmp/store';
import { requireCmpTenant } from '../cmp/service';
import { engineConfig, limitConfig } from '../config';
import { AppError, NotFoundError } from '../errors';
import { newTimeOrderedId } from '../ids';
import { sendToQueue } from '../queue/sqs';
import { scanBudget } from './budget';
import { scanUrlProblem } from './targets';
import { createRun, finishRun, listRuns, readLock, readReport, readRun } from './store';
import type { ScanRun, ScanTrigger } from './run';

export class NoScanUrlsError extends AppError {
  constructor(reason: string) {
    super('NO_SCAN_URLS', `Nothing to scan: ${reason}`);
  }
}

/** What a scan-now message carries: the run says everything else. */
export interface ScanMessage {
  tenantId: string;
  scanRunId: string;
}

const scanQueueUrl = (): string => {
  const url = engineConfig.scanQueueUrl;
  if (!url) throw new Error('SCAN_QUEUE_URL is not configured');
  return url;
};

/** The configured scan URLs, else the tenant's website; none usable is NO_SCAN_URLS. */
const urlsToScan = async (tenantId: string): Promise<string[]> => {
  const tenant = await requireCmpTenant(tenantId);
  const scanUrls = (await readDocument(tenantId))?.scanUrls ?? [];
  const urls = scanUrls.length > 0 ? scanUrls : tenant.website ? [tenant.website] : [];
  if (urls.length === 0) throw new NoScanUrlsError('scanUrls is empty and the tenant has no website');
  const usable = urls.filter((url) => scanUrlProblem(url, engineConfig.isLocal) === null);
  if (usable.length === 0) throw new NoScanUrlsError(`${urls.join(', ')} may not be scanned: ${scanUrlProblem(urls[0]!, engineConfig.isLocal)}`);
  return usable;
};

/**
 * A lock still active past its time belongs to a run whose scanner died and whose message is gone
 * (dead-lettered): that run is closed FAILED, so it never shows as QUEUED or RUNNING forever.
 */
const closeAbandonedRun = async (tenantId: string, now: string) => {
  const lock = await readLock(tenantId);
  if (!lock?.active || lock.activeUntil >= now) return;
  const abandoned = await readRun(tenantId, lock.scanRunId);
  if (abandoned) await finishRun({ ...abandoned, status: 'FAILED', completedAt: now, error: 'The scanner stopped before finishing this run' }, []);
};

/**
 * Creates a QUEUED run under the tenant's scan lock, then queues it. If queueing fails, the run
 * ends FAILED at once (releasing the lock) rather than waiting as QUEUED for a message that
 * never comes.
 */
export const startScan = async (tenantId: string, trigger: ScanTrigger): Promise<{ scanRunId: string; status: 'QUEUED' }> => {
  const urls = await urlsToScan(tenantId);
  const createdAt = nowIso();
  await closeAbandonedRun(tenantId, createdAt);
  const run: ScanRun = {
    tenantId,
    scanRunId: newTimeOrderedId(new Date(createdAt)),
    status: 'QUEUED',
    trigger,
    createdAt,
    startedAt: null,
    completedAt: null,
    urls,
    pagesScanned: 0,
    trackersFound: 0,
    newUndeclared: 0,
    violations: 0,
    error: null,
  };
  // N scans per window are spaced evenly (one every window ÷ N): the lock remembers only the last start.
  const { limit, windowSeconds } = limitConfig.limits.scanNowPerTenant;
  await createRun(run, { minGapSeconds: windowSeconds / Math.max(1, limit), activeForSeconds: scanBudget.staleLockSeconds });
  try {
    await sendToQueue(scanQueueUrl(), { tenantId, scanRunId: run.scanRunId } satisfies ScanMessage);
  } catch (error) {
    await finishRun({ ...run, status: 'FAILED', completedAt: nowIso(), error: 'The scan could not be queued' }, []);
    throw error;
  }
  return { scanRunId: run.scanRunId, status: 'QUEUED' };
};

/** A run as the API shows it: the tenant is the caller's own. */
const viewOf = ({ tenantId: _tenantId, ...run }: ScanRun) => ({ ...run, failedPages: run.failedPages ?? [] });

/** The spec's list: runs newest first (the 50 latest). */
export const scanRuns = async (tenantId: string) => {
  await requireCmpTenant(tenantId);
  return (await listRuns(tenantId, 50)).map(viewOf);
};

export const scanRunReport = async (tenantId: string, scanRunId: string) => {
  await requireCmpTenant(tenantId);
  const run = await readRun(tenantId, scanRunId);
  if (!run) throw new NotFoundError(`Scan run ${scanRunId}`);
  return { ...viewOf(run), findings: await readReport(tenantId, scanRunId) };
};
