import type { DocumentClient } from '../shared/db/client';
import { GetCommand } from '../shared/db/commands';
import { tableDefinition } from '../shared/db/table';
import { writeUnits, type ItemUnits } from './capacity';

/**
 * Write units by partition key and by item, for the partition arithmetic (sections/partitions.ts).
 * DynamoDB caps one partition key (an item collection) at about 1,000 WRU a second on the table,
 * and an index's writes count against the index's partition key in the same way, so every write is
 * attributed to `table <PK>` and to `<index> <index PK>` for each index it wrote, and to its item
 * (`<PK> <SK>`). An index's key comes from the item written: a Put's item, an Update's item as it
 * is afterwards (read back outside the measured scope), a transaction's items as bench/capacity.ts
 * sized them.
 */
export interface KeyedUnits {
  /** `table <PK>` or `<index> <index PK>` → WRU. */
  partitions: Record<string, number>;
  /** `<PK> <SK>` → WRU (table writes only). */
  items: Record<string, number>;
}

export const emptyKeyedUnits = (): KeyedUnits => ({ partitions: {}, items: {} });

type Attributes = Record<string, unknown>;

interface Capacity {
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

const add = (counts: Record<string, number>, key: string, units: number) => {
  if (units > 0) counts[key] = (counts[key] ?? 0) + units;
};

/** Adds one item's units, by target, to its partitions and to the item. */
export const addItemUnits = (into: KeyedUnits, item: Attributes, units: Record<string, number>): void => {
  for (const [target, value] of Object.entries(units)) {
    if (target === 'table') {
      add(into.partitions, `table ${String(item.PK)}`, value);
      add(into.items, `${String(item.PK)} ${String(item.SK)}`, value);
      continue;
    }
    const index = tableDefinition.indexes.find((definition) => definition.name === target);
    const key = index ? item[index.partitionKey] : undefined;
    add(into.partitions, `${target} ${key === undefined ? '(key not seen)' : String(key)}`, value);
  }
};

/** A single-item write's units by target, as the response reported them. */
const reportedUnits = (consumed: Capacity | undefined): Record<string, number> => ({
  table: consumed?.Table?.CapacityUnits ?? 0,
  ...Object.fromEntries(Object.entries(consumed?.GlobalSecondaryIndexes ?? {}).map(([index, { CapacityUnits }]) => [index, CapacityUnits ?? 0])),
});

/**
 * Attributes one successful write call. `transaction` is what capacity.ts computed for a
 * TransactWriteItems; `readBack` reads an item outside the measured scope.
 */
export const attributeWrite = async (
  into: KeyedUnits,
  client: DocumentClient,
  command: string,
  input: Record<string, unknown>,
  consumed: Capacity | Capacity[] | undefined,
  transaction: readonly ItemUnits[] | undefined,
): Promise<void> => {
  if (transaction) {
    for (const { item, units } of transaction) addItemUnits(into, item, units);
    return;
  }
  const single = Array.isArray(consumed) ? consumed[0] : consumed;
  if (command === 'PutItem') {
    addItemUnits(into, input.Item as Attributes, reportedUnits(single));
    return;
  }
  if (command === 'UpdateItem' || command === 'DeleteItem') {
    const key = input.Key as Attributes;
    const units = reportedUnits(single);
    const indexed = Object.keys(units).some((target) => target !== 'table');
    let item = key;
    if (indexed && command === 'UpdateItem') {
      const { Item } = await client.send(new GetCommand({ TableName: String(input.TableName), Key: key, ConsistentRead: true }));
      item = Item ?? key;
    }
    addItemUnits(into, item, units);
    return;
  }
  if (command === 'BatchWriteItem') {
    // A batch reports its capacity per table: its items are sized here, as singly written items (1 WRU per KB).
    for (const requests of Object.values(input.RequestItems as Record<string, { PutRequest?: { Item: Attributes }; DeleteRequest?: { Key: Attributes } }[]>)) {
      for (const request of requests) {
        if (request.PutRequest) addItemUnits(into, request.PutRequest.Item, writeUnits(request.PutRequest.Item));
        else if (request.DeleteRequest) addItemUnits(into, request.DeleteRequest.Key, { table: 1 });
      }
    }
  }
};

export interface PartitionResult {
  consents: number;
  /** The largest share of the tenant's write units (table and indexes) that one partition key took. */
  hottestKeyShare: number;
  hottestKey: string;
  hottestKeyWruPerSecondAt10k: number;
  /** Per hot item: its WRU per consent × 10,000 (the hottest item of each kind). */
  hotItemWruPerSecondAt10k: Record<string, number>;
  /** The ten hottest partition keys, ids masked. */
  keys: { key: string; share: number; wruPerSecondAt10k: number }[];
  wruPerConsent: number;
}

const maskSegment = (segment: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(segment) ? '<id>' : /^\d{6,}$/.test(segment) ? '<n>' : /^[0-9a-f]{8,}$/i.test(segment) || segment.length > 24 ? '<hash>' : segment;

/** `REC#<tid>#3`, `LOG#<tid>#MAP#<hash> <n>#w`: the tenant id and other ids masked, so that keys (and items, `PK SK`) of one kind read alike. */
export const maskKey = (key: string, tenantId: string): string =>
  key
    .replaceAll(tenantId, '<tid>')
    .split(/([# ])/)
    .map((segment) => (segment === '#' || segment === ' ' ? segment : maskSegment(segment)))
    .join('');

/** What kind of hot item a table item is, or undefined for any other. */
const hotItemKind = (pk: string, sk: string): string | undefined => {
  const rule = /^RATE#([^#]+)#/.exec(pk)?.[1];
  if (rule) return `rate limit ${rule}`;
  if (sk.startsWith('VOLUME#')) return 'monthly volume';
  if (pk.startsWith('LOG#') && sk === 'HEAD') return 'log head';
  if (sk === 'CONSENTSTATS') return 'counters';
  if (sk.startsWith('DAILY#')) return 'consents per day';
  return undefined;
};

const round = (value: number, places = 1) => Math.round(value * 10 ** places) / 10 ** places;

/** The arithmetic over one run: keys by share of the tenant's write units, and hot items scaled to 10,000 consents a second. */
export const summarisePartitions = (keyed: KeyedUnits, consents: number, tenantId: string): PartitionResult => {
  const atTenThousand = (units: number) => round((units / consents) * 10_000);
  const total = Object.values(keyed.partitions).reduce((sum, units) => sum + units, 0);
  const ranked = Object.entries(keyed.partitions).sort(([, a], [, b]) => b - a);
  const [hottestKey, hottestUnits] = ranked[0] ?? ['none', 0];
  const hotItems: Record<string, number> = {};
  for (const [item, units] of Object.entries(keyed.items)) {
    const [pk = '', sk = ''] = item.split(' ');
    const perSecond = atTenThousand(units);
    // Named kinds always; any other kind only when an item of it is written more often than once per 100 consents.
    const kind = hotItemKind(pk, sk) ?? (perSecond > 100 ? maskKey(item, tenantId) : undefined);
    if (kind) hotItems[kind] = Math.max(hotItems[kind] ?? 0, perSecond);
  }
  return {
    consents,
    hottestKeyShare: total > 0 ? round(hottestUnits / total, 4) : 0,
    hottestKey: maskKey(hottestKey, tenantId),
    hottestKeyWruPerSecondAt10k: atTenThousand(hottestUnits),
    hotItemWruPerSecondAt10k: Object.fromEntries(Object.entries(hotItems).sort(([, a], [, b]) => b - a)),
    keys: ranked.slice(0, 10).map(([key, units]) => ({ key: maskKey(key, tenantId), share: total > 0 ? round(units / total, 4) : 0, wruPerSecondAt10k: atTenThousand(units) })),
    wruPerConsent: round(total / consents, 3),
  };
};
