import { clock, dayMs } from '../clock';
import { ValidationError } from '../errors';
import { optionalCategories } from './banner';
import { requireCmpTenant } from './service';
import { readDailyCounters } from './store';
import { dailyCounter } from './visitor';

export const maxAnalyticsRangeDays = 365;
const defaultRangeDays = 30;

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
const ratio = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);

/**
 * Rates and a daily series from the per-day counters each event updated: one Query of at most
 * 366 small items, whatever the number of events.
 */
export const cmpAnalytics = async (tenantId: string, query: { from?: string; to?: string }) => {
  await requireCmpTenant(tenantId);
  const to = query.to ?? dayOf(clock.now().getTime());
  const from = query.from ?? dayOf(Date.parse(to) - (defaultRangeDays - 1) * dayMs);
  const span = (Date.parse(to) - Date.parse(from)) / dayMs;
  if (span < 0) throw new ValidationError({ from: 'must not be after to' });
  if (span > maxAnalyticsRangeDays) throw new ValidationError({ to: `the range is at most ${maxAnalyticsRangeDays} days` });

  const counters = await readDailyCounters(tenantId, from, to);
  const sum = (name: string) => [...counters.values()].reduce((total, day) => total + (day[name] ?? 0), 0);
  const totals = { decisions: sum('decisions'), accept: sum('accept'), reject: sum('reject'), partial: sum('partial'), withdrawals: sum('withdrawals') };
  const daily = Array.from({ length: span + 1 }, (_, index) => {
    const date = dayOf(Date.parse(from) + index * dayMs);
    const day = counters.get(date) ?? {};
    return { date, decisions: day.decisions ?? 0, accept: day.accept ?? 0, reject: day.reject ?? 0, partial: day.partial ?? 0, withdrawals: day.withdrawals ?? 0 };
  });
  return {
    from,
    to,
    totals,
    rates: { accept: ratio(totals.accept, totals.decisions), reject: ratio(totals.reject, totals.decisions), partial: ratio(totals.partial, totals.decisions) },
    categories: Object.fromEntries(
      optionalCategories.map((category) => {
        const seen = sum(dailyCounter.seen(category));
        const optedIn = sum(dailyCounter.optIn(category));
        return [category, { seen, optedIn, optInRate: ratio(optedIn, seen) }];
      }),
    ),
    serverSide: { events: sum('serverEvents'), fired: sum('serverFired'), suppressed: sum('serverSuppressed'), firedWithoutConsent: sum('serverFiredWithoutConsent') },
    daily,
  };
};
