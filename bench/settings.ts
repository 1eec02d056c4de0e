/** How much the bench does: the full run, or `--quick`, a smoke run of well under a minute. */
export interface Settings {
  quick: boolean;
  /** Requests in flight for the storage and endpoint throughput runs. */
  concurrency: number[];
  durationMs: number;
  warmupMs: number;
  /** Sequential requests per endpoint whose work is counted. */
  workSamples: number;
  /** Consents recorded, fanned out and delivered for the price. */
  priceConsents: number;
  /** Consents whose time to first webhook delivery is measured. */
  webhookConsents: number;
  growth: { small: number; large: number; samples: number };
  /** Fresh node processes per bundle for import time. */
  importRuns: number;
  /** Also time imports without NODE_OPTIONS (source maps off), to show what they cost. */
  importWithoutSourceMaps: boolean;
}

export const settingsFor = (quick: boolean): Settings =>
  quick
    ? {
        quick,
        concurrency: [8],
        durationMs: 500,
        warmupMs: 150,
        workSamples: 5,
        priceConsents: 20,
        webhookConsents: 3,
        growth: { small: 100, large: 1_000, samples: 5 },
        importRuns: 3,
        importWithoutSourceMaps: false,
      }
    : {
        quick,
        concurrency: [1, 8, 32],
        durationMs: 3_000,
        warmupMs: 500,
        workSamples: 20,
        priceConsents: 200,
        webhookConsents: 20,
        growth: { small: 100, large: 10_000, samples: 30 },
        importRuns: 15,
        importWithoutSourceMaps: true,
      };
