import { QueryCommand } from '../db/commands';
import { db, tableName } from '../db/client';
import { dueShards, retentionKeys } from './keys';
import { scheduleOf, type Schedule } from './store';

/**
 * Reading the due index (GSI2 RETDUE#<0..15>, keys.ts) for a sweep pass, so that one tenant's
 * backlog never hides another tenant's due principals behind it. Each shard is paged from its
 * oldest entry; once a tenant has its share of the shard (or is one the pass does not take), its
 * further entries are filtered out by DynamoDB (on the projected `tenantId`), so a backlog of
 * 100,000 is evaluated but not transferred, and the shard's later entries, every other tenant's,
 * are reached. A filtered entry still costs its read units (docs/retention.md, "One tenant's
 * large day never delays another's notices"). The builders are plain functions
 * (tests/retention-store.unit.test.ts).
 */

/** DynamoDB's most operands of one IN; tenants left out past it are dropped as each page is read. */
export const filterTenantsMax = 100;
/** Entries evaluated per Query page: a tenant that gets its share mid-page is filtered from the next page on. */
export const duePageItems = 1_000;

/** The Query of one shard of the due index: entries due by `now`, oldest first, none of `excluded` tenants'. */
export const dueQuery = (shard: number, now: string, excluded: readonly string[] = []) => {
  const filtered = excluded.slice(0, filterTenantsMax);
  return {
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK <= :now',
    ExpressionAttributeValues: { ':pk': retentionKeys.duePartition(shard), ':now': `${now}~`, ...Object.fromEntries(filtered.map((tenantId, index) => [`:x${index}`, tenantId])) },
    ...(filtered.length > 0 ? { FilterExpression: `NOT #tenant IN (${filtered.map((_, index) => `:x${index}`).join(', ')})`, ExpressionAttributeNames: { '#tenant': 'tenantId' } } : {}),
  };
};

export interface DueRead {
  /** Entries one tenant may have of one shard in a pass. */
  share: number;
  /** Entries a shard gives a pass at most, all tenants together. */
  keep: number;
  /** Entries a shard's read evaluates at most (read units are paid on these, filtered or not). */
  evaluate: number;
  /** Tenants the pass takes (each test file sweeps its own); every tenant when absent. */
  accept?: (tenantId: string) => boolean;
}

/**
 * What a shard's read keeps of the entries offered, oldest first: each accepted tenant's first
 * `share`, at most `keep` in all. A tenant at its share or not accepted joins `excluded`, which
 * the next page's filter leaves out.
 */
export class ShardTake {
  readonly kept: Schedule[] = [];
  readonly excluded: string[] = [];
  private readonly counts = new Map<string, number>();
  private readonly out = new Set<string>();

  constructor(private readonly read: Omit<DueRead, 'evaluate'>) {}

  get full(): boolean {
    return this.kept.length >= this.read.keep;
  }

  offer(entries: readonly Schedule[]): void {
    for (const entry of entries) {
      if (this.full) return;
      const { tenantId } = entry;
      if (this.out.has(tenantId)) continue;
      if (this.read.accept && !this.read.accept(tenantId)) {
        this.exclude(tenantId);
        continue;
      }
      const count = (this.counts.get(tenantId) ?? 0) + 1;
      this.counts.set(tenantId, count);
      this.kept.push(entry);
      if (count >= this.read.share) this.exclude(tenantId);
    }
  }

  private exclude(tenantId: string): void {
    this.out.add(tenantId);
    this.excluded.push(tenantId);
  }
}

/** One shard's entries for a pass: paged until its due range ends, it has kept `keep`, or it has evaluated `evaluate`. */
const readShard = async (shard: number, now: string, read: DueRead): Promise<Schedule[]> => {
  const take = new ShardTake(read);
  let evaluated = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new QueryCommand({ ...dueQuery(shard, now, take.excluded), TableName: tableName(), Limit: Math.min(duePageItems, read.evaluate - evaluated), ExclusiveStartKey: startKey }));
    evaluated += page.ScannedCount ?? page.Count ?? 0;
    take.offer((page.Items ?? []).map(scheduleOf));
    startKey = page.LastEvaluatedKey;
  } while (startKey && !take.full && evaluated < read.evaluate);
  return take.kept;
};

/** The entries due by `now` of every shard, read side by side, each shard as `read` bounds it. */
export const dueSchedules = async (now: string, read: DueRead): Promise<Schedule[]> => (await Promise.all(Array.from({ length: dueShards }, (_, shard) => readShard(shard, now, read)))).flat();
