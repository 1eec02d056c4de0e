import { clock, dayMs } from '../clock';
import { listPurposes } from '../purposes/store';
import { counterNames, dailyBuckets, readStats } from './store';

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Read from counters kept by every record and withdrawal: the stats item, the tenant's purposes
 * (for names) and the last thirty daily buckets (the last seven give recentConsents). Three reads
 * whatever the number of records.
 */
export const consentAnalytics = async (tenantId: string) => {
  const now = clock.now();
  const dates = Array.from({ length: 30 }, (_, index) => day(new Date(now.getTime() - (29 - index) * dayMs)));
  const [stats, purposes, buckets] = await Promise.all([
    readStats(tenantId),
    listPurposes(tenantId),
    dailyBuckets(tenantId, dates[0]!, dates[29]!),
  ]);
  const givenOn = new Map(buckets.map((item) => [String(item.SK).slice('DAILY#'.length), Number(item.given ?? 0)]));
  const daily = dates.map((date) => ({ date, consents: givenOn.get(date) ?? 0 }));
  const given = stats.active + stats.partial;
  return {
    totalConsents: stats.total,
    countsAsOf: stats.asOf,
    consentGiven: given,
    consentWithdrawn: stats.withdrawn,
    withdrawalRate: stats.total === 0 ? 0 : Math.round((stats.withdrawn / stats.total) * 10_000) / 100,
    recentConsents: daily.slice(-7).reduce((sum, item) => sum + item.consents, 0),
    consentsLast30Days: daily.reduce((sum, item) => sum + item.consents, 0),
    daily,
    byPurpose: purposes.map((purpose) => ({
      purposeId: purpose.purposeId,
      name: purpose.name,
      given: stats.counters[counterNames.purposeGiven(purpose.purposeId)] ?? 0,
      withdrawn: stats.counters[counterNames.purposeWithdrawn(purpose.purposeId)] ?? 0,
    })),
  };
};
