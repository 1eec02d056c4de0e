import type { DocumentClient } from '../shared/db/client';
import { GetCommand } from '../shared/db/commands';
import { tableDefinition } from '../shared/db/table';

/**
 * Write units of a TransactWriteItems as AWS bills them: every item is rounded up to 1 KB on its
 * own, written to the table and to each index whose keys it carries, and all of it twice (AWS
 * bills 2 WRU per KB per item in a transaction). DynamoDB Local does double transactional writes,
 * but it rounds the transaction's items up to 1 KB together (five 100-byte puts: Local reports 2,
 * AWS bills 10), so the bench computes these units itself from the items. Single-item writes are
 * taken as Local reports them: they match AWS (per-item 1 KB rounding, the larger of the item
 * before and after an update, one unit per KB per index written, two when an update moves an
 * index key).
 */

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** A number's size: about one byte per two significant digits, plus one (the AWS sizing rule). */
const numberSize = (value: number) => Math.ceil(String(Math.abs(value)).replace(/[.-]|e.*$/g, '').replace(/^0+|0+$/g, '').length / 2) + 1;

/** Bytes of one attribute value as DynamoDB sizes it (document-client values). */
const valueSize = (value: unknown): number => {
  if (typeof value === 'string') return utf8(value);
  if (typeof value === 'number') return numberSize(value);
  if (typeof value === 'boolean' || value === null || value === undefined) return 1;
  if (value instanceof Uint8Array) return value.length;
  if (value instanceof Set) return [...(value as Set<unknown>)].reduce<number>((sum, member) => sum + valueSize(member), 0);
  // Lists and maps: 3 bytes, plus 1 per element, plus the elements (and a map's names).
  if (Array.isArray(value)) return 3 + value.reduce<number>((sum, element) => sum + 1 + valueSize(element), 0);
  return 3 + Object.entries(value as Record<string, unknown>).reduce((sum, [name, element]) => sum + 1 + utf8(name) + valueSize(element), 0);
};

export const itemSize = (item: Record<string, unknown>): number =>
  Object.entries(item).reduce((sum, [name, value]) => (value === undefined ? sum : sum + utf8(name) + valueSize(value)), 0);

/** One write of the item, unrounded by transaction: its KB on the table and on each index it is in (all project ALL). */
export const writeUnits = (item: Record<string, unknown>): Record<string, number> => {
  const kb = Math.max(1, Math.ceil(itemSize(item) / 1024));
  const units: Record<string, number> = { table: kb };
  for (const index of tableDefinition.indexes) if (item[index.partitionKey] !== undefined && item[index.sortKey] !== undefined) units[index.name] = kb;
  return units;
};

type TransactItem = Record<string, { TableName?: string; Item?: Record<string, unknown>; Key?: Record<string, unknown> }>;

/** One item a transaction wrote: the item (as put, or as it is after the update; the key alone otherwise) and its units by target. */
export interface ItemUnits {
  item: Record<string, unknown>;
  units: Record<string, number>;
}

/**
 * AWS-billed units of a committed transaction, item by item, by target (`table` or an index). A
 * Put is sized from its item; an Update from the item as it is now (read back here, uncounted: the
 * counters, map and head items the bench's transactions update only grow, so that is the larger of
 * before and after); a Delete or ConditionCheck at 1 KB.
 */
export const transactionItemUnits = async (client: DocumentClient, transactItems: readonly TransactItem[]): Promise<ItemUnits[]> => {
  const written: ItemUnits[] = [];
  for (const entry of transactItems) {
    const [action, target] = Object.entries(entry)[0]!;
    let item = target.Key ?? target.Item ?? {};
    let units: Record<string, number> = { table: 1 };
    if (action === 'Put' && target.Item) units = writeUnits(target.Item);
    if (action === 'Update' && target.Key) {
      const { Item } = await client.send(new GetCommand({ TableName: target.TableName, Key: target.Key, ConsistentRead: true }));
      item = Item ?? target.Key;
      units = writeUnits(item);
    }
    written.push({ item, units: Object.fromEntries(Object.entries(units).map(([name, value]) => [name, 2 * value])) });
  }
  return written;
};

/** The same units summed by target. */
export const transactionUnits = (written: readonly ItemUnits[]): Record<string, number> => {
  const total: Record<string, number> = {};
  for (const { units } of written) for (const [name, value] of Object.entries(units)) total[name] = (total[name] ?? 0) + value;
  return total;
};
