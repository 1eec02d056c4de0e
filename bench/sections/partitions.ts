import { handler as streamHandler } from '../../functions/stream/handler';
import type { BenchTenant } from '../fixtures';
import { invoke, requireRoute } from '../invoke';
import { measure } from '../meter';
import { emptyKeyedUnits, summarisePartitions, type PartitionResult } from '../partition-units';
import { printTable } from '../report';
import type { Settings } from '../settings';
import { itemsOf, streamEventOf } from './price';

/** The per-key limit a tenant recording 10,000 consents a second needs (per minute). */
const perKeyLimitAt10k = String(600_000);

/** Runs `tasks` with at most `width` at once. */
const pool = async (count: number, width: number, task: (index: number) => Promise<void>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
};

/**
 * Partition arithmetic: what one tenant at 10,000 consents a second would ask of each partition
 * key in AWS, from the access pattern measured here. DynamoDB serves about 1,000 WRU a second per
 * partition key (an item collection, on the table or on an index; a time-ordered sort key only
 * ever writes at its end, so splitting for heat does not help it), so a tenant's consents must
 * spread their writes: no key may take more than 1/16 of them, and no single item written on
 * every consent (rate limits, monthly volume, log head, counters) more than 1,000 WRU a second.
 *
 * The consents go through the real path, as the price section sends them: the sdk-record handler
 * (each from a new visitor address, many in flight, the tenant's per-key limit set to what a
 * tenant at 10,000 a second must have: 600,000 a minute), then the stream handler in batches of
 * 100, which also makes each consent's first webhook delivery attempt (the tenant has one webhook,
 * delivering to the bench's receiver on loopback). Every write is attributed to its table
 * partition key and item and to the partition key of each index it wrote (bench/partition-units.ts).
 */
export const measurePartitions = async (tenant: BenchTenant, settings: Settings): Promise<PartitionResult> => {
  const { consents, concurrency } = settings.partitions;
  const sdkRecord = requireRoute('POST', '/api/v1/consent/sdk-record');
  const [required, optional] = tenant.purposeIds as [string, string];
  const keyed = emptyKeyedUnits();
  const limits = ['RATE_LIMIT_SDK_PER_KEY_PER_MINUTE', 'RATE_LIMIT_SDK_ABUSE_PER_KEY_PER_MINUTE'] as const;
  const saved = limits.map((name) => process.env[name]);
  for (const name of limits) process.env[name] = perKeyLimitAt10k;
  const ids: string[] = [];
  try {
    await pool(consents, concurrency, async () => {
      const { result } = await measure(
        () => invoke<{ data: { consentRecordId: string } }>(sdkRecord, { body: { apiKey: tenant.apiKey, status: 'PARTIAL', purposes: { [required]: true, [optional]: false } } }),
        { byKey: keyed },
      );
      if (result.status !== 201) throw new Error(`sdk-record answered ${result.status}: ${JSON.stringify(result.body)}`);
      ids.push(result.body.data.consentRecordId);
    });
  } finally {
    limits.forEach((name, index) => (saved[index] === undefined ? delete process.env[name] : (process.env[name] = saved[index])));
  }
  // The stream hands the consumer a shard's records in order; the bench hands them over in creation order.
  ids.sort();
  const items = await itemsOf(tenant.tenantId, ids);
  for (let start = 0; start < items.length; start += 100) {
    const { result } = await measure(() => streamHandler(streamEventOf(items.slice(start, start + 100))), { byKey: keyed });
    if (result.batchItemFailures.length > 0) throw new Error('the stream handler reported failures');
  }

  const result = summarisePartitions(keyed, consents, tenant.tenantId);
  printPartitions(result);
  return result;
};

const printPartitions = (result: PartitionResult) => {
  printTable(
    `6a. Partition keys of one tenant's ${result.consents} consents (write units, table and indexes)`,
    ['partition key (ids masked)', 'share of the tenant\'s WRU', 'WRU/s at 10,000 consents/s'],
    result.keys.map(({ key, share, wruPerSecondAt10k }) => [key, share, wruPerSecondAt10k]),
    [
      `${result.wruPerConsent} WRU per consent in all. Targets: no key over 1/16 (${(1 / 16).toFixed(4)}) of them; DynamoDB serves about 1,000 WRU/s per partition key.`,
      'Consents through sdk-record (a new visitor address each, many in flight, per-key limit 600,000 a minute) and the stream handler in batches of 100; one webhook.',
    ],
  );
  printTable(
    '6b. Hot items: WRU per consent × 10,000 (the hottest item of each kind)',
    ['item', 'WRU/s at 10,000 consents/s'],
    Object.entries(result.hotItemWruPerSecondAt10k).map(([item, perSecond]) => [item, perSecond]),
    ['Target: none over 1,000.'],
  );
};
