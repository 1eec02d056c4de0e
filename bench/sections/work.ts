import { config } from '../../shared/config';
import { send, type Endpoint } from '../endpoints';
import { percentile } from '../load';
import { accessesOf, combine, describeCalls, describeSqs, describeUnits, measure, type Work } from '../meter';
import { printTable } from '../report';
import type { Settings } from '../settings';
import type { Call, Route } from '../invoke';
import type { Invocation } from '../pricing';
import { sizeMemory, type Sizing } from '../sizing';

/** What one request of an endpoint costs: DynamoDB calls and units, SQS calls, handler time (one at a time). */
export interface RequestWork {
  name: string;
  built: boolean;
  samples?: number;
  failures?: number;
  /** Mean per request. */
  work?: Work;
  p50Ms?: number;
  p99Ms?: number;
  /** Each sample's wall and CPU time, for the memory sizing (sizing.ts). */
  invocations?: Invocation[];
  group?: string;
}

/** `samples` sequential requests, after one that warms the handler and its clients up. */
export const measureRequests = async (name: string, route: Route, call: () => Call, samples: number): Promise<RequestWork> => {
  await send(route, call());
  const works: Work[] = [];
  const invocations: Invocation[] = [];
  let failures = 0;
  for (let index = 0; index < samples; index += 1) {
    const { result, work, ms, cpuMs } = await measure(() => send(route, call()));
    if (result !== undefined) failures += 1;
    works.push(work);
    invocations.push({ ms, cpuMs });
  }
  const msEach = invocations.map(({ ms }) => ms).sort((a, b) => a - b);
  return { name, built: true, samples, failures, work: combine(works, 1 / samples), p50Ms: percentile(msEach, 50), p99Ms: percentile(msEach, 99), invocations, group: route.group };
};

/** Rate-limit writes per request: chunk reservations (shared/rate-limit/limiter.ts), so a mean over the samples. */
export const rateLimitWru = (work: Work): number =>
  accessesOf(work).reduce((sum, { access, units }) => (access.startsWith('UpdateItem RATE/') ? sum + units : sum), 0);

export const workRow = (result: RequestWork) =>
  result.work
    ? [result.name, describeCalls(result.work), describeUnits(result.work.rru, result.work.rruBy), describeUnits(result.work.wru, result.work.wruBy), rateLimitWru(result.work), describeSqs(result.work), result.p50Ms, result.failures]
    : [result.name, 'not built', undefined, undefined, undefined, undefined, undefined, undefined];

/** One row per access of `work`: which items it reads and writes and what each costs. */
export const accessRows = (name: string, work: Work) => accessesOf(work).map(({ access, calls, units, unit }) => [name, access, calls, units, unit]);

export const accessHeaders = (who: string) => [who, 'access (command, PK/SK prefix)', 'calls', 'units', ''];

export const workHeaders = ['endpoint', 'DynamoDB calls per request', 'RRU', 'WRU', 'of which rate limit', 'SQS', 'p50 ms', 'failures'];

export const measureWork = async (endpoints: readonly Endpoint[], settings: Settings): Promise<{ endpoints: RequestWork[]; sizing: Record<string, Sizing> }> => {
  const results: RequestWork[] = [];
  for (const endpoint of endpoints) {
    results.push(endpoint.route ? await measureRequests(endpoint.name, endpoint.route, endpoint.call, settings.workSamples) : { name: endpoint.name, built: false });
  }
  printTable(
    `4. Work per request (mean of ${settings.workSamples} sequential requests; units as AWS bills them, index writes included: bench/capacity.ts)`,
    workHeaders,
    results.map(workRow),
    [
      `Rate limits: fixed-window rules reserve up to ${config.rateLimitChunk} hits per write (RATE_LIMIT_CHUNK) per warm instance, so their writes are amortized, a mean over the samples.`,
      'Per-address rules (sdk per key and IP, cmp web-event per tenant and IP) start anew for each visitor address: the bench sends each request from a new one, so each pays a reservation.',
    ],
  );
  printTable('4b. Where the units of each request go (mean per request)', accessHeaders('endpoint'), results.flatMap((result) => (result.work ? accessRows(result.name, result.work) : [])));
  const byGroup = new Map<string, Invocation[]>();
  for (const { group, invocations } of results) if (group && invocations) byGroup.set(group, [...(byGroup.get(group) ?? []), ...invocations]);
  const sizing = Object.fromEntries([...byGroup].map(([group, invocations]) => [group, sizeMemory(invocations)]));
  printTable(
    '4c. Memory by measurement for the groups measured here (bench/sizing.ts: cost × duration lowest at 1769 × CPU ms / wait ms)',
    ['function', 'CPU ms here', 'wait ms here', 'best MB'],
    Object.entries(sizing).map(([group, sized]) => [group, sized.cpuMs.toFixed(1), sized.waitMs.toFixed(1), sized.memoryMb]),
  );
  return { endpoints: results.map(({ invocations: _invocations, ...rest }) => rest), sizing };
};
