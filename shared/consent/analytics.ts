import { clock, dayMs } from '../clock';
import { listPurposes } from '../purposes/store';
import { counterNames, dailyBuckets, readStats } from './store';

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Read from counters kept by every record and withdrawal: the stats item, the tenant's purposes
 * (for names) and the last seven daily buckets. Three reads whatever the number of records.
 */
export const consentAnalytics = async (tenantId: string) => {
  const now = clock.now();
  const weekAgo = new Date(now.getTime() - 6 * dayMs);
  const [stats, purposes, days] = await Promise.all([
    readStats(tenantId),
    listPurposes(tenantId),
    dailyBuckets(tenantId, day(weekAgo), day(now)),
  ]);
  const given = stats.active + stats.partial;
  return {
    totalConsents: stats.total,
    countsAsOf: stats.asOf,
    consentGiven: given,
    consentWithdrawn: stats.withdrawn,
    withdrawalRate: stats.total === 0 ? 0 : Math.round((stats.withdrawn / stats.total) * 10_000) / 100,
    recentConsents: days.reduce((sum, item) => sum + Number(item.given ?? 0), 0),
    byPurpose: purposes.map((purpose) => ({
      purposeId: purpose.purposeId,
      name: purpose.name,
      given: stats.counters[counterNames.purposeGiven(purpose.purposeId)] ?? 0,
      withdrawn: stats.counters[counterNames.purposeWithdrawn(purpose.purposeId)] ?? 0,
    })),
  };
};
