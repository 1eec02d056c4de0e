import type { BenchTenant } from '../fixtures';
import { invoke, requireRoute } from '../invoke';
import { openLoop, percentile } from '../load';
import { printTable } from '../report';
import type { Settings } from '../settings';

export interface BurstResult {
  requests: number;
  overMs: number;
  /** From the first request sent to the last answer. */
  seconds: number;
  /** Answers by HTTP status (or `threw`). */
  statuses: Record<string, number>;
  non201: number;
  conflicts: number;
  p50Ms: number;
  p99Ms: number;
  /** What the first non-201 answer said. */
  firstFailure?: string;
}

/**
 * A burst of sdk-record requests for one fresh tenant, sent at even intervals whatever the
 * answers (target: no 409; before, every consent of a tenant was conditional on its chain head).
 * All go through one in-process handler, i.e. one warm Lambda instance taking them all at once.
 */
export const measureBurst = async (tenant: BenchTenant, settings: Settings): Promise<BurstResult> => {
  const sdkRecord = requireRoute('POST', '/api/v1/consent/sdk-record');
  const [required, optional] = tenant.purposeIds as [string, string];
  const { requests, overMs } = settings.burst;
  const started = performance.now();
  const answers = await openLoop(requests, overMs, () =>
    invoke(sdkRecord, { body: { apiKey: tenant.apiKey, status: 'ACCEPTED', purposes: { [required]: true, [optional]: true } } }).then(
      (answer) => ({ status: String(answer.status), body: answer.body }),
      (error: unknown) => ({ status: 'threw', body: error instanceof Error ? error.message : String(error) }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const statuses: Record<string, number> = {};
  for (const { result } of answers) statuses[result.status] = (statuses[result.status] ?? 0) + 1;
  const failure = answers.find(({ result }) => result.status !== '201')?.result;
  const latencies = answers.map(({ ms }) => ms).sort((a, b) => a - b);
  const result: BurstResult = {
    requests,
    overMs,
    seconds,
    statuses,
    non201: requests - (statuses['201'] ?? 0),
    conflicts: statuses['409'] ?? 0,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    ...(failure ? { firstFailure: `${failure.status} ${JSON.stringify(failure.body).slice(0, 300)}` } : {}),
  };
  printTable(
    `3b. Burst: ${requests} sdk-record requests for one tenant sent over ${overMs} ms`,
    ['requests', 'answered within s', 'answers', 'non-201', '409', 'p50 ms', 'p99 ms'],
    [[requests, seconds, Object.entries(statuses).map(([status, count]) => `${status} ×${count}`).join(', '), result.non201, result.conflicts, result.p50Ms, result.p99Ms]],
    [
      'Rate limits of the bench tenant raised via env (bench/stack.ts: RATE_LIMIT_SDK_PER_KEY_PER_MINUTE and the others), so 429s do not hide conflicts; one in-process handler takes every request.',
      ...(result.firstFailure ? [`first non-201: ${result.firstFailure}`] : []),
    ],
  );
  // The property the suite checks at the test client's concurrency, here at the burst's full width:
  // one tenant's simultaneous consents never conflict. A 409 fails the section (and the bench run).
  if (result.conflicts > 0) throw new Error(`${result.conflicts} of ${requests} simultaneous consents of one tenant answered 409`);
  return result;
};
