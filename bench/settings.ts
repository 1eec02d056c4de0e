/** How much the bench does: the full run, or `--quick`, a smoke run of well under a minute. */
export interface Settings {
  quick: boolean;
  /** Requests in flight for the storage and endpoint throughput runs. */
  concurrency: number[];
  /** Load on every path before anything is measured, so the JVM behind DynamoDB Local is warm for all sections alike. */
  engineWarmupMs: number;
  durationMs: number;
  warmupMs: number;
  /** Sequential requests per endpoint whose work is counted. */
  workSamples: number;
  /** Consents recorded for the price: sustained (stream batches of 100; at least 100) and sparse (one per stream batch), each with and without a webhook. */
  priceConsents: { sustained: number; sparse: number };
  /** sdk-record requests sent to one tenant, spread evenly over `overMs`. */
  burst: { requests: number; overMs: number };
  /** Consents recorded at a steady rate while the local workers integrate them into the log. */
  logLatency: { perSecond: number; durationMs: number };
  /** Consents whose time to first webhook delivery is measured. */
  webhookConsents: number;
  /** Records in the tenant for the small and the large measurement, and the deep page of the records list. */
  growth: { small: number; large: number; deepPage: number; samples: number };
  /** A breach intimating every principal of one tenant: how many, the share with an email, and how many of the mails are sent through the outbox to price sending. */
  breach: { principals: number; emailShare: number; mailSample: number };
  /**
   * A day on which `principals` of one tenant fall due (notice, then expiry), measured, and projected
   * to `projectedPrincipals` in AWS (DynamoDB Local sweeps 17-32 principals a second: 100,000 took
   * hours and said little of AWS); `activityPrincipals` each with `activitiesPerDay` activities.
   * `--retention-principals N` sets `principals`. `smallPrincipals` of another tenant fall due the
   * same day, behind them in the due index: their notices must go out in the first pass.
   */
  retention: { principals: number; smallPrincipals: number; projectedPrincipals: number; activityPrincipals: number; activitiesPerDay: number };
  /** Consents of one tenant whose write units are counted per partition key (sections/partitions.ts), and how many are in flight at once. */
  partitions: { consents: number; concurrency: number };
  /** Fresh node processes per function for its cold path (bench/sections/bundles.ts); the median is reported (31 in a full run: at 11 a median moved by 0.2-0.4 between runs on a 2-core machine). */
  importRuns: number;
}

export const settingsFor = (quick: boolean): Settings =>
  quick
    ? {
        quick,
        concurrency: [8],
        engineWarmupMs: 1_000,
        durationMs: 500,
        warmupMs: 150,
        workSamples: 5,
        priceConsents: { sustained: 100, sparse: 5 },
        burst: { requests: 200, overMs: 1_000 },
        logLatency: { perSecond: 20, durationMs: 2_000 },
        webhookConsents: 3,
        growth: { small: 50, large: 250, deepPage: 10, samples: 5 },
        breach: { principals: 300, emailShare: 0.8, mailSample: 50 },
        retention: { principals: 600, smallPrincipals: 20, projectedPrincipals: 100_000, activityPrincipals: 100, activitiesPerDay: 10 },
        partitions: { consents: 1_000, concurrency: 8 },
        importRuns: 2,
      }
    : {
        quick,
        concurrency: [1, 8, 32],
        engineWarmupMs: 5_000,
        durationMs: 2_000,
        warmupMs: 500,
        workSamples: 20,
        priceConsents: { sustained: 200, sparse: 20 },
        burst: { requests: 1_000, overMs: 1_000 },
        logLatency: { perSecond: 40, durationMs: 15_000 },
        webhookConsents: 20,
        growth: { small: 100, large: 10_000, deepPage: 50, samples: 30 },
        breach: { principals: 10_000, emailShare: 0.8, mailSample: 500 },
        retention: { principals: 3_000, smallPrincipals: 20, projectedPrincipals: 100_000, activityPrincipals: 1_000, activitiesPerDay: 10 },
        partitions: { consents: 10_000, concurrency: 16 },
        importRuns: 31,
      };
