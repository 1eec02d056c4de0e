/**
 * A closed-loop load: `concurrency` callers each send the next request as soon as the previous
 * one answered, for a fixed time after a warm-up. Latency is per request; throughput is requests
 * completed over the measured time.
 */
export interface LoadResult {
  concurrency: number;
  requests: number;
  failures: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** What the first failure said, to tell a 4xx from a 5xx from a crash. */
  firstFailure?: string;
}

export interface LoadOptions {
  concurrency: number;
  durationMs: number;
  warmupMs: number;
}

/** Nearest-rank percentile of ascending `sorted`. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

export const median = (values: readonly number[]): number => percentile([...values].sort((a, b) => a - b), 50);

/** `request` resolves to undefined on success, or a description of the failure. */
export const runLoad = async (request: () => Promise<string | undefined>, options: LoadOptions): Promise<LoadResult> => {
  const measuredFrom = performance.now() + options.warmupMs;
  const until = measuredFrom + options.durationMs;
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  let lastAnswer = measuredFrom;
  const caller = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const failure = await request().catch((error: unknown) => `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      const answered = performance.now();
      if (started < measuredFrom) continue;
      latencies.push(answered - started);
      lastAnswer = Math.max(lastAnswer, answered);
      if (failure !== undefined) {
        failures += 1;
        firstFailure ??= failure;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, caller));
  const seconds = (lastAnswer - measuredFrom) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    concurrency: options.concurrency,
    requests: latencies.length,
    failures,
    seconds,
    perSecond: seconds > 0 ? latencies.length / seconds : 0,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    ...(firstFailure === undefined ? {} : { firstFailure }),
  };
};

/**
 * An open-loop load: `count` requests started at even intervals over `overMs`, whether or not the
 * earlier ones have answered (as independent visitors arrive); resolves with each one's outcome
 * and latency, in start order.
 */
export const openLoop = async <T>(count: number, overMs: number, request: (index: number) => Promise<T>): Promise<{ result: T; ms: number }[]> => {
  const started = performance.now();
  const pending: Promise<{ result: T; ms: number }>[] = [];
  for (let index = 0; index < count; index += 1) {
    const due = started + (index * overMs) / count;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = performance.now();
    pending.push(request(index).then((result) => ({ result, ms: performance.now() - sent })));
  }
  return Promise.all(pending);
};
