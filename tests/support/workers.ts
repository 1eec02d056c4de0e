import { afterAll, beforeAll } from 'vitest';
import { startStreamReader } from '../../infra/local/stream-reader';
import { startWorkers, streamProgress } from '../../infra/local/workers';
import { consentKeys } from '../../shared/consent/keys';
import { evidenceLogConsumer } from '../../shared/evidence/log-consumer';
import type { StreamChange } from '../../shared/stream/change';
import { waitForLog } from './evidence';
import { publishProgress, startAfterFor } from './stream-board';

/**
 * Test files share one table, and each runs its own local workers, whose stream reader sees every
 * file's writes. Each file's workers hand on only the changes of the tenants this file created
 * (newTenant records them), so that a test staging a crash (a withdrawal half applied, say) is not
 * finished behind its back by another file's workers.
 */
export const ownTenants = new Set<string>();

/** `TENANT#<id>`, or a record shard `REC#<id>#<shard>`. */
const isOwnPartition = (pk: unknown): boolean => ownTenants.has(consentKeys.tenantOfRecordPartition(String(pk)) ?? '');

/** A tenant's item: in its own partition, or (logged documents and the like) naming the tenant in the item. */
export const isOwnChange = (change: StreamChange): boolean => {
  const image = change.newImage ?? change.oldImage ?? change.keys;
  return isOwnPartition(image.PK) || (typeof image.tenantId === 'string' && ownTenants.has(image.tenantId)) || isOwnDelivery(image);
};

/** A webhook delivery names its tenant only inside the signed payload it keeps (shared/webhooks/delivery-item.ts). */
const isOwnDelivery = (image: Record<string, unknown>): boolean => {
  if (image.type !== 'WebhookDelivery' || typeof image.payload !== 'string') return false;
  try {
    return ownTenants.has(String((JSON.parse(image.payload) as { tenantId?: unknown }).tenantId));
  } catch {
    return false;
  }
};

/**
 * The local workers (stream reader, checkpoints, drains, queues), for this file's tenants: its
 * webhook and scan queues are its own too (tests/setup/environment.ts), so another file's workers,
 * with their own retry and timeout settings, never take its deliveries.
 */
/** This file's tenants whose sweeps its tests run themselves (on a moved clock): its workers' sweepers leave them alone. */
export const manualSweeps = new Set<string>();

export const startTestWorkers = (idleMs = 50) => {
  const since = new Date(Date.now() - 10_000);
  publishProgress(streamProgress);
  return startWorkers(idleMs, {
    streamSince: since,
    streamStartAfter: startAfterFor(since),
    streamAccept: isOwnChange,
    outboxAccept: (item) => isOwnPartition(item.PK),
    tenantAccept: (tenantId) => ownTenants.has(tenantId),
    sweepAccept: (tenantId) => ownTenants.has(tenantId) && !manualSweeps.has(tenantId),
    scheduleScans: false,
  });
};

/**
 * The local workers for the whole file. `settle()` stops them, which waits for the work in flight,
 * and starts them again: after a tenant leaves `ownTenants`, no batch begun before can still touch it.
 */
export const useTestWorkers = () => {
  let workers: ReturnType<typeof startTestWorkers> | undefined;
  beforeAll(() => {
    workers = startTestWorkers();
  });
  afterAll(async () => {
    await workers?.stop();
  });
  return {
    settle: async () => {
      await workers?.stop();
      workers = startTestWorkers();
    },
  };
};

const evidenceLogReader = () => {
  const since = new Date(Date.now() - 10_000);
  const position = new Map<string, string>();
  publishProgress(() => position);
  return startStreamReader({ idleMs: 50, restMs: 1000, since, startAfter: startAfterFor(since), position, consumers: [evidenceLogConsumer], accept: isOwnChange });
};

/**
 * The part of the workers that counts records, for the whole file: a stream reader feeding only
 * the evidence log (which adds the counters as it sequences), for files whose other assertions
 * must not race the rest of the workers (the withdrawal completer, the webhook queue).
 */
export const useEvidenceLog = () => {
  let reader: ReturnType<typeof startStreamReader> | undefined;
  beforeAll(() => {
    reader = evidenceLogReader();
  });
  afterAll(async () => {
    await reader?.stop();
  });
};

/**
 * Sequences (and so counts) the tenant's first `entries` log entries with a reader of its own,
 * stopped before returning: for tests that then inject storage failures, which that reader's
 * writes must not use up.
 */
export const sequenced = async (tenantId: string, entries: number): Promise<void> => {
  await whileSequencing(() => waitForLog(tenantId, entries, { signed: false }));
};

/** Runs `work` with a stream reader of its own feeding the evidence log (which also takes the checkpoints evidence packs ask for), stopped before returning. */
export const whileSequencing = async <T>(work: () => Promise<T>): Promise<T> => {
  const reader = evidenceLogReader();
  try {
    return await work();
  } finally {
    await reader.stop();
  }
};
