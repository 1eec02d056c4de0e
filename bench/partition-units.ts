import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
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
  client: DynamoDBDocumentClient,
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
