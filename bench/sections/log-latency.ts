import { startWorkers } from '../../infra/local/workers';
import { config } from '../../shared/config';
import { positionsOf } from '../../shared/evidence/log-map';
import { readHead } from '../../shared/evidence/log-store';
import type { BenchTenant } from '../fixtures';
import { invoke, requireRoute } from '../invoke';
import { openLoop, percentile } from '../load';
import { printTable } from '../report';
import type { Settings } from '../settings';

/** How often the head and the map of the tenant's log are read: the figures' resolution. */
const pollMs = 20;
/** The local workers' idle poll (the stream reader's GetRecords when the stream is quiet). */
const idleMs = 20;

interface Tracked {
  createdMs: number;
  position?: number;
  integratedMs?: number;
  checkpointedMs?: number;
}

export interface LogLatency {
  consents: number;
  perSecond: number;
  pollMs: number;
  checkpointIntervalSeconds: number;
  /** From a record's createdAt to the poll that first saw its leaf integrated (head.integrated past its position). */
  integratedMs: { p50: number; p99: number; max: number; within5s: number };
  /** From createdAt to the poll that first saw a signed checkpoint covering it. */
  checkpointMs: { p50: number; p99: number; max: number };
}

/** A UUIDv7's first 48 bits: the createdAt of the record, in epoch ms (newTimeOrderedId). */
const createdMsOf = (id: string) => parseInt(id.replaceAll('-', '').slice(0, 12), 16);

const stats = (values: number[]) => {
  values.sort((a, b) => a - b);
  return { p50: percentile(values, 50), p99: percentile(values, 99), max: values.at(-1) ?? Number.NaN };
};

/** Polls the tenant's log until every tracked record is integrated and covered by a checkpoint, or `deadline`. */
const follow = async (tenantId: string, tracked: Map<string, Tracked>, until: () => boolean, deadline: number) => {
  while (!until() && Date.now() < deadline) {
    const unplaced = [...tracked].filter(([, record]) => record.position === undefined).map(([id]) => id);
    const [head, positions] = await Promise.all([readHead(tenantId), positionsOf(tenantId, unplaced)]);
    const now = Date.now();
    for (const [id, record] of tracked) {
      record.position ??= positions.get(id);
      if (record.position === undefined) continue;
      if (record.integratedMs === undefined && record.position < head.integrated) record.integratedMs = now - record.createdMs;
      if (record.checkpointedMs === undefined && head.checkpoint && record.position < head.checkpoint.treeSize) record.checkpointedMs = now - record.createdMs;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
};

/**
 * Time from a consent's createdAt until its leaf is in the tenant's Merkle tree, and until a
 * signed checkpoint covers it, with the local workers running (the stream reader feeding the
 * stream consumers, the checkpointer loop): consents recorded at a steady rate for one fresh
 * tenant while the head is polled. The target is every record integrated within 5 s.
 */
export const measureLogLatency = async (tenant: BenchTenant, settings: Settings): Promise<LogLatency> => {
  const sdkRecord = requireRoute('POST', '/api/v1/consent/sdk-record');
  const [required] = tenant.purposeIds as [string, string];
  const { perSecond, durationMs } = settings.logLatency;
  const tracked = new Map<string, Tracked>();
  const recordOne = async () => {
    const answer = await invoke<{ data: { consentRecordId: string } }>(sdkRecord, { body: { apiKey: tenant.apiKey, status: 'ACCEPTED', purposes: { [required]: true } } });
    if (answer.status !== 201) throw new Error(`sdk-record answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    tracked.set(answer.body.data.consentRecordId, { createdMs: createdMsOf(answer.body.data.consentRecordId) });
  };
  const done = (field: 'integratedMs' | 'checkpointedMs') => () => [...tracked.values()].every((record) => record[field] !== undefined);
  const workers = startWorkers(idleMs);
  try {
    // The workers first catch up with what earlier sections wrote; one consent through the log shows they have.
    await recordOne();
    await follow(tenant.tenantId, tracked, done('integratedMs'), Date.now() + 120_000);
    if (!done('integratedMs')()) throw new Error('the first consent was not integrated within 120 s');
    tracked.clear();
    const recording = openLoop(Math.round((perSecond * durationMs) / 1000), durationMs, recordOne);
    let recorded = false;
    const following = follow(tenant.tenantId, tracked, () => recorded && done('checkpointedMs')(), Date.now() + durationMs + 60_000);
    await recording;
    recorded = true;
    await following;
  } finally {
    await workers.stop();
  }
  const records = [...tracked.values()];
  const integrated = records.flatMap((record) => (record.integratedMs === undefined ? [] : [record.integratedMs]));
  const checkpointed = records.flatMap((record) => (record.checkpointedMs === undefined ? [] : [record.checkpointedMs]));
  if (integrated.length < records.length) throw new Error(`only ${integrated.length} of ${records.length} consents were integrated within a minute`);
  const result: LogLatency = {
    consents: records.length,
    perSecond,
    pollMs,
    checkpointIntervalSeconds: config.checkpointIntervalSeconds,
    integratedMs: { ...stats(integrated), within5s: integrated.filter((ms) => ms <= 5_000).length / integrated.length },
    checkpointMs: stats(checkpointed),
  };
  printTable(
    `9. Evidence log: consent createdAt → leaf integrated, and → covered by a signed checkpoint (${records.length} consents at ${perSecond}/s, local workers)`,
    ['measure', 'p50 ms', 'p99 ms', 'max ms', 'within 5 s'],
    [
      ['integrated', result.integratedMs.p50, result.integratedMs.p99, result.integratedMs.max, `${(result.integratedMs.within5s * 100).toFixed(1)}%`],
      ['checkpoint', result.checkpointMs.p50, result.checkpointMs.p99, result.checkpointMs.max, `${checkpointed.length} of ${records.length} covered`],
    ],
    [
      `Seen by polling the log head and map every ${pollMs} ms (the figures include up to that much). Stream reader idle poll ${idleMs} ms; DynamoDB Local's stream, one shard.`,
      `Checkpoints: the stream consumer signs at most every CHECKPOINT_INTERVAL_SECONDS (${result.checkpointIntervalSeconds} s) per tenant, the checkpointer loop the rest.`,
    ],
  );
  return result;
};
