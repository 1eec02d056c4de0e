import { randomBytes } from 'node:crypto';
import { recordConsent } from '../../shared/consent/recording';
import type { BenchTenant } from '../fixtures';
import { randomIp, requireRoute } from '../invoke';
import { describeAccesses, describeCalls } from '../meter';
import { printTable } from '../report';
import type { Settings } from '../settings';
import { measureRequests, type RequestWork } from './work';

export interface GrowthResult {
  small: number;
  large: number;
  deepPage: number;
  seedPerSecond: number;
  at: { small: { analytics: RequestWork; recordsPage1: RequestWork }; large: { analytics: RequestWork; recordsPage1: RequestWork; recordsDeepPage: RequestWork } };
  /** Ratios of p50 latency. */
  ratios: { analyticsLargeToSmall: number; recordsPage1LargeToSmall: number; recordsDeepPageToPage1: number };
}

/** Adds records to the tenant's chain with the domain function the endpoints use, several in flight. */
const seed = async (tenant: BenchTenant, count: number) => {
  const [required, optional] = tenant.purposeIds as [string, string];
  let remaining = count;
  const writer = async () => {
    while (remaining > 0) {
      remaining -= 1;
      await recordConsent({
        tenantId: tenant.tenantId,
        // As a tenant's server with a secret key would send it (nothing checks the bench's key id here).
        principal: { by: 'apiKey', keyId: 'bench', keyKind: 'secret', ip: randomIp(), identifierHash: randomBytes(32).toString('hex') },
        consentGiven: { [required]: true, [optional]: Math.random() < 0.5 },
        ipAddress: randomIp(),
        userAgent: 'cms-bench',
        language: 'EN',
        position: 'bottom-right',
        channel: 'SDK',
        decision: 'ACCEPTED',
        countsAgainstMonthlyLimit: false,
        issueWithdrawalKey: true,
      });
    }
  };
  // A few in flight overlap each append's reads with the previous append's write; appends to one chain are serialized, so more gain nothing.
  await Promise.all(Array.from({ length: 4 }, writer));
};

/** Dashboard reads with few and with many records in one tenant, and a deep page of the records list (default limit, 20). */
export const measureGrowth = async (tenant: BenchTenant, settings: Settings): Promise<GrowthResult> => {
  const analyticsRoute = requireRoute('GET', '/api/v1/consent/analytics');
  const recordsRoute = requireRoute('GET', '/api/v1/consent/records');
  const { small, large, deepPage, samples } = settings.growth;
  const analytics = () => measureRequests('analytics', analyticsRoute, () => ({ bearer: tenant.token }), samples);
  const records = (page: number) => measureRequests(`records page ${page}`, recordsRoute, () => ({ bearer: tenant.token, query: { page: String(page) } }), samples);

  await seed(tenant, small);
  const atSmall = { analytics: await analytics(), recordsPage1: await records(1) };
  const seedStarted = performance.now();
  await seed(tenant, large - small);
  const seedPerSecond = (large - small) / ((performance.now() - seedStarted) / 1000);
  const atLarge = { analytics: await analytics(), recordsPage1: await records(1), recordsDeepPage: await records(deepPage) };

  const p50 = (work: RequestWork) => work.p50Ms ?? Number.NaN;
  const result: GrowthResult = {
    small,
    large,
    deepPage,
    seedPerSecond,
    at: { small: atSmall, large: atLarge },
    ratios: {
      analyticsLargeToSmall: p50(atLarge.analytics) / p50(atSmall.analytics),
      recordsPage1LargeToSmall: p50(atLarge.recordsPage1) / p50(atSmall.recordsPage1),
      recordsDeepPageToPage1: p50(atLarge.recordsDeepPage) / p50(atLarge.recordsPage1),
    },
  };
  const row = (count: number, work: RequestWork) => [work.name, count, work.p50Ms, work.p99Ms, describeCalls(work.work!), work.work!.rru, work.failures];
  printTable(
    `6. Growth: dashboard reads by records in the tenant (${samples} sequential requests each; records seeded through the chain at ${seedPerSecond.toFixed(0)}/s)`,
    ['request', 'records', 'p50 ms', 'p99 ms', 'DynamoDB calls', 'RRU', 'failures'],
    [
      row(small, atSmall.analytics),
      row(large, atLarge.analytics),
      row(small, atSmall.recordsPage1),
      row(large, atLarge.recordsPage1),
      row(large, atLarge.recordsDeepPage),
    ],
    [
      `p50 ratios: analytics ${large} / ${small} records ${result.ratios.analyticsLargeToSmall.toFixed(2)}×, records page 1 ${result.ratios.recordsPage1LargeToSmall.toFixed(2)}×, page ${deepPage} / page 1 ${result.ratios.recordsDeepPageToPage1.toFixed(2)}×.`,
      `Accesses of records page ${deepPage}: ${describeAccesses(atLarge.recordsDeepPage.work!)}`,
    ],
  );
  return result;
};
