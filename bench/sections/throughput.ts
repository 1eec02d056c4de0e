import { send, type Endpoint } from '../endpoints';
import { runLoad, type LoadResult } from '../load';
import { printTable } from '../report';
import type { Settings } from '../settings';
import { printStorage, type RawOperations, type StorageCeiling } from './storage';

export interface EndpointThroughput {
  name: string;
  built: boolean;
  /** Raw operation it is compared with. */
  comparedWith: 'PutItem' | 'GetItem';
  levels: (LoadResult & { ratioToRaw: number })[];
}

/**
 * Runs every raw operation and endpoint in turn for a while: DynamoDB Local's JVM compiles its hot
 * paths (transactions, queries, index writes) in its first seconds of load, which would otherwise
 * land on whichever section runs first.
 */
export const warmUp = async (raw: RawOperations, endpoints: readonly Endpoint[], durationMs: number): Promise<void> => {
  const requests = [raw.put, raw.get, ...endpoints.flatMap(({ route, call }) => (route ? [() => send(route, call())] : []))];
  let next = 0;
  await runLoad(() => requests[(next += 1) % requests.length]!(), { concurrency: 8, durationMs, warmupMs: 0 });
};

export interface ThroughputResult {
  storage: StorageCeiling;
  endpoints: EndpointThroughput[];
}

/**
 * The storage ceiling and each endpoint through its group handler, level by level: at each
 * concurrency the raw operations run right before the endpoints, so that a drift of the machine
 * (the JVM warming up, the table growing, other processes) moves both sides of a ratio alike.
 */
export const measureThroughput = async (raw: RawOperations, endpoints: readonly Endpoint[], settings: Settings): Promise<ThroughputResult> => {
  const storage: StorageCeiling = { put: [], get: [] };
  const measured = new Map<string, LoadResult[]>();
  for (const concurrency of settings.concurrency) {
    const options = { concurrency, durationMs: settings.durationMs, warmupMs: settings.warmupMs };
    storage.put.push(await runLoad(raw.put, options));
    storage.get.push(await runLoad(raw.get, options));
    for (const endpoint of endpoints) {
      const { route } = endpoint;
      if (!route) continue;
      const levels = measured.get(endpoint.name) ?? [];
      levels.push(await runLoad(() => send(route, endpoint.call()), options));
      measured.set(endpoint.name, levels);
    }
  }
  const results = endpoints.map((endpoint): EndpointThroughput => {
    const ceiling = endpoint.kind === 'write' ? storage.put : storage.get;
    return {
      name: endpoint.name,
      built: endpoint.route !== undefined,
      comparedWith: endpoint.kind === 'write' ? 'PutItem' : 'GetItem',
      levels: (measured.get(endpoint.name) ?? []).map((level, index) => ({ ...level, ratioToRaw: level.perSecond / ceiling[index]!.perSecond })),
    };
  });
  printStorage(storage);
  printTable(
    '3. Endpoint throughput through the group handlers (in process, no HTTP)',
    ['endpoint', 'in flight', 'req/s', 'p50 ms', 'p99 ms', 'failures', 'vs raw', 'ratio'],
    results.flatMap((result) =>
      result.built
        ? result.levels.map((level) => [result.name, level.concurrency, level.perSecond, level.p50Ms, level.p99Ms, level.failures, result.comparedWith, `${level.ratioToRaw.toFixed(3)}×`])
        : [[result.name, 'not built']],
    ),
    results.flatMap((result) => result.levels.filter((level) => level.firstFailure).map((level) => `${result.name} @${level.concurrency}: first failure ${level.firstFailure}`)),
  );
  return { storage, endpoints: results };
};
