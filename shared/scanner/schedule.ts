import { clock, dayMs, nowIso } from '../clock';
import { AppError } from '../errors';
import { log } from '../log';
import { scanBudget } from './budget';
import { startScan } from './service';
import { dueTenants, writeSchedule } from './store';

const later = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();

/** A scan that could not start for a passing reason (one is running, or just ran) is tried again in an hour. */
const passing = new Set(['SCAN_ALREADY_RUNNING', 'SCAN_RATE_LIMIT']);

/**
 * Starts a SCHEDULED run for each tenant whose next scan is due, found through the sparse due-date
 * index (never a Scan). The next date is written before the run starts, so a tenant whose scan
 * cannot start (no URLs, plan changed) is not retried at every tick. Returns how many were due.
 */
export const startDueScans = async (): Promise<number> => {
  const due = await dueTenants(nowIso(), 25);
  for (const tenantId of due) {
    await writeSchedule(tenantId, later(scanBudget.scheduleIntervalDays * dayMs));
    try {
      await startScan(tenantId, 'SCHEDULED');
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (passing.has(error.code)) await writeSchedule(tenantId, later(60 * 60_000));
      log.warn('scheduled tracker scan not started', { tenantId, code: error.code });
    }
  }
  return due.length;
};
