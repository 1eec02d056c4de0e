import { AsyncLocalStorage } from 'node:async_hooks';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DocumentClient } from '../shared/db/client';
import { transactionItemUnits, transactionUnits, type ItemUnits } from './capacity';
import { attributeWrite, type KeyedUnits } from './partition-units';

/**
 * Counts the AWS work done inside a measured scope, by middleware on the service's own clients:
 * DynamoDB calls by command with the capacity DynamoDB reports for them (ReturnConsumedCapacity
 * INDEXES, so index writes are included), and SQS calls. AsyncLocalStorage ties each call to the
 * scope that caused it, so scopes running side by side do not mix. Outside a scope the
 * middleware does nothing, and requests are sent exactly as the service sends them.
 */
export interface Work {
  /** DynamoDB calls by command (GetItem, Query, TransactWriteItems, …). */
  calls: Record<string, number>;
  /** Items per command: written or requested for batches and transactions, returned for Query and Scan. */
  items: Record<string, number>;
  /**
   * Read and write request units (on-demand units = capacity units) as AWS bills them: what
   * DynamoDB Local reports, except for transactions, whose write units are computed (capacity.ts).
   */
  rru: number;
  wru: number;
  /** Write units exactly as DynamoDB Local reported them, to show where it differs from `wru`. */
  wruLocal: number;
  /** The same units by where they were spent: `table` or an index name. */
  rruBy: Record<string, number>;
  wruBy: Record<string, number>;
  /** Calls that failed, and so reported no capacity (a cancelled transaction, a failed condition). */
  failed: Record<string, number>;
  /** SQS calls by action (SendMessage, ReceiveMessage, DeleteMessageBatch, …). */
  sqs: Record<string, number>;
  /**
   * Calls by access: command and key shape (the first `#` segment of PK and SK) of the items it
   * names, e.g. `GetItem TENANT/ACTIVENOTICE`, `TransactWriteItems [Update TENANT/CHAINHEAD, Put TENANT/RECORD]`.
   */
  accesses: Record<string, number>;
  /** Units those calls consumed, by the same access. */
  accessUnits: Record<string, number>;
  /** Write units by partition key and by item, when the scope asked for them (measure's `byKey`). */
  keyed?: KeyedUnits;
}

export const emptyWork = (): Work => ({ calls: {}, items: {}, rru: 0, wru: 0, wruLocal: 0, rruBy: {}, wruBy: {}, failed: {}, sqs: {}, accesses: {}, accessUnits: {} });

const scope = new AsyncLocalStorage<Work>();

const bump = (counts: Record<string, number>, key: string, by = 1) => {
  counts[key] = (counts[key] ?? 0) + by;
};

const addCounts = (into: Record<string, number>, from: Record<string, number>, factor: number) => {
  for (const [key, value] of Object.entries(from)) bump(into, key, value * factor);
};

const readCommands = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);

interface Capacity {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

/** Adds what a response reports to each target (the table, each index); returns the call's total. */
const addCapacity = (consumed: Capacity | Capacity[] | undefined, by: Record<string, number>): number => {
  let total = 0;
  for (const entry of consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed]) {
    total += entry.CapacityUnits ?? 0;
    if (entry.Table?.CapacityUnits) bump(by, 'table', entry.Table.CapacityUnits);
    for (const [index, units] of Object.entries(entry.GlobalSecondaryIndexes ?? {})) if (units.CapacityUnits) bump(by, index, units.CapacityUnits);
  }
  return total;
};

/** Items a multi-item request names (the request's side; Query and Scan count what came back instead). */
const requestedItems = (command: string, input: Record<string, unknown>): number | undefined => {
  if (command === 'TransactWriteItems' || command === 'TransactGetItems') return (input.TransactItems as unknown[]).length;
  if (command === 'BatchGetItem') {
    return Object.values(input.RequestItems as Record<string, { Keys: unknown[] }>).reduce((sum, table) => sum + table.Keys.length, 0);
  }
  if (command === 'BatchWriteItem') return Object.values(input.RequestItems as Record<string, unknown[]>).reduce((sum, requests) => sum + requests.length, 0);
  return undefined;
};

type Attributes = Record<string, unknown>;

/** Values as the document client passes them down (native), or marshalled (`{ S }`) from a low-level command. */
const segment = (value: unknown) => {
  const text = typeof value === 'object' && value !== null && 'S' in value ? (value as { S: unknown }).S : value;
  return (typeof text === 'string' ? text : '?').split('#')[0]!.replace(/^\d+$/, 'N');
};
const shapeOf = (key: Attributes | undefined) => `${segment(key?.PK)}/${segment(key?.SK)}`;

/** What a Query reads: its index, and the first values of its key condition (partition key, then sort key). */
const queriedShape = (input: Record<string, unknown>) => {
  const values = input.ExpressionAttributeValues as Attributes | undefined;
  const [partition, sort] = (String(input.KeyConditionExpression ?? '').match(/:\w+/g) ?? []).map((name) => segment(values?.[name]));
  return `${String(input.IndexName ?? 'table')} ${partition ?? '?'}${sort === undefined ? '' : `/${sort}`}`;
};

/** `[TENANT/LINEAGE ×3, TENANT/PURPOSE]`: the shapes of a multi-item request, each once with its count. */
const listed = (shapes: string[]) => {
  const counts = new Map<string, number>();
  for (const shape of shapes) counts.set(shape, (counts.get(shape) ?? 0) + 1);
  return `[${[...counts].map(([shape, count]) => (count === 1 ? shape : `${shape} ×${count}`)).join(', ')}]`;
};

/** What a request accesses, read from the request: its command and the key shapes it names. */
const accessOf = (command: string, input: Record<string, unknown>): string => {
  switch (command) {
    case 'GetItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return `${command} ${shapeOf(input.Key as Attributes)}`;
    case 'PutItem':
      return `${command} ${shapeOf(input.Item as Attributes)}`;
    case 'Query':
    case 'Scan':
      return `${command} ${queriedShape(input)}`;
    case 'TransactWriteItems':
    case 'TransactGetItems':
      return `${command} ${listed(
        (input.TransactItems as Record<string, { Key?: Attributes; Item?: Attributes }>[]).map((entry) => {
          const [action, target] = Object.entries(entry)[0]!;
          return `${action} ${shapeOf(target.Key ?? target.Item)}`;
        }),
      )}`;
    case 'BatchGetItem':
      return `${command} ${listed(Object.values(input.RequestItems as Record<string, { Keys: Attributes[] }>).flatMap((table) => table.Keys.map(shapeOf)))}`;
    case 'BatchWriteItem':
      return `${command} ${listed(
        Object.values(input.RequestItems as Record<string, { PutRequest?: { Item: Attributes }; DeleteRequest?: { Key: Attributes } }[]>).flatMap((requests) =>
          requests.map((request) => shapeOf(request.PutRequest?.Item ?? request.DeleteRequest?.Key)),
        ),
      )}`;
    default:
      return command;
  }
};

const commandOf = (context: { commandName?: string }) => String(context.commandName ?? 'Unknown').replace(/Command$/, '');

/** Adds the counting middleware to the clients the service uses (call once, before measuring). */
export const instrument = (dynamo: DocumentClient, queue: SQSClient, localQueue: SQSClient): void => {
  // Middleware of the initialize step: it sees the document form the stores wrote and the answer
  // as they read it, before the SDK's retries, marshalling and signing.
  dynamo.middlewareStack.add(
    (next, context) => async (received) => {
      const work = scope.getStore();
      if (!work) return next(received);
      const command = commandOf(context);
      const input: Record<string, unknown> = { ...(received.input as Record<string, unknown>), ReturnConsumedCapacity: 'INDEXES' };
      const args = { ...received, input };
      bump(work.calls, command);
      const requested = requestedItems(command, input);
      if (requested !== undefined) bump(work.items, command, requested);
      const access = accessOf(command, input);
      bump(work.accesses, access);
      try {
        const result = await next(args);
        const output = result.output as { ConsumedCapacity?: Capacity | Capacity[]; Count?: number };
        if (command === 'Query' || command === 'Scan') bump(work.items, command, output.Count ?? 0);
        const isRead = readCommands.has(command);
        let units: number;
        let written: ItemUnits[] | undefined;
        if (isRead) {
          units = addCapacity(output.ConsumedCapacity, work.rruBy);
          work.rru += units;
        } else if (command === 'TransactWriteItems') {
          work.wruLocal += addCapacity(output.ConsumedCapacity, {});
          // Its read-backs are not the service's work: outside the scope.
          written = await scope.exit(() => transactionItemUnits(dynamo, input.TransactItems as Parameters<typeof transactionItemUnits>[1]));
          const billed = transactionUnits(written);
          units = Object.values(billed).reduce((sum, value) => sum + value, 0);
          addCounts(work.wruBy, billed, 1);
          work.wru += units;
        } else {
          units = addCapacity(output.ConsumedCapacity, work.wruBy);
          work.wru += units;
          work.wruLocal += units;
        }
        bump(work.accessUnits, access, units);
        if (work.keyed && !isRead) {
          const keyed = work.keyed;
          await scope.exit(() => attributeWrite(keyed, dynamo, command, input, output.ConsumedCapacity, written));
        }
        return result;
      } catch (error) {
        bump(work.failed, command);
        throw error;
      }
    },
    { step: 'initialize', name: 'benchMeter' },
  );
  const countQueueCall = <Next extends (args: never) => Promise<unknown>>(next: Next, context: { commandName?: string }) =>
    ((args: Parameters<Next>[0]) => {
      const work = scope.getStore();
      if (work) bump(work.sqs, commandOf(context));
      return next(args);
    }) as Next;
  // The functions send through the service's client; the local stand-ins for event source mappings receive and delete through their own.
  queue.middlewareStack.add(countQueueCall, { step: 'initialize', name: 'benchMeter' });
  localQueue.middlewareStack.add(countQueueCall, { step: 'initialize', name: 'benchMeter' });
};

/** Runs `task`, counting the AWS work it causes (with `byKey`, also its write units by partition key and item); also times it. */
export const measure = async <T>(task: () => Promise<T>, options: { byKey?: KeyedUnits } = {}): Promise<{ result: T; work: Work; ms: number; cpuMs: number }> => {
  const work: Work = { ...emptyWork(), ...(options.byKey ? { keyed: options.byKey } : {}) };
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await scope.run(work, task);
  const ms = performance.now() - started;
  // This process's CPU time meanwhile (user + system): the task's own when nothing else runs beside it.
  const { user, system } = process.cpuUsage(cpu);
  return { result, work, ms, cpuMs: (user + system) / 1000 };
};

/** Σ factor × work, e.g. a mean over n requests with factor 1/n. */
export const combine = (parts: readonly Work[], factor = 1): Work => {
  const total = emptyWork();
  for (const part of parts) {
    addCounts(total.calls, part.calls, factor);
    addCounts(total.items, part.items, factor);
    addCounts(total.failed, part.failed, factor);
    addCounts(total.sqs, part.sqs, factor);
    addCounts(total.accesses, part.accesses, factor);
    addCounts(total.accessUnits, part.accessUnits, factor);
    addCounts(total.rruBy, part.rruBy, factor);
    addCounts(total.wruBy, part.wruBy, factor);
    total.rru += part.rru * factor;
    total.wru += part.wru * factor;
    total.wruLocal += part.wruLocal * factor;
  }
  return total;
};

const round = (value: number) => Math.round(value * 100) / 100;

/** `GetItem 2, TransactWriteItems 1 (5 items)`: one line for a table cell. */
export const describeCalls = (work: Work): string =>
  Object.entries(work.calls)
    .map(([command, count]) => {
      const items = work.items[command];
      const failed = work.failed[command];
      return `${command} ${round(count)}${items !== undefined ? ` (${round(items)} items)` : ''}${failed ? ` [${round(failed)} failed]` : ''}`;
    })
    .join(', ') || 'none';

/** `12.0 = table 8.00 + GSI1 2.00 + GSI2 2.00` */
export const describeUnits = (total: number, by: Record<string, number>): string => {
  const parts = Object.entries(by).map(([target, units]) => `${target} ${round(units)}`);
  return parts.length > 1 ? `${round(total)} = ${parts.join(' + ')}` : String(round(total));
};

/** Each access with its calls and the units they consumed, reads in RRU and writes in WRU. */
export const accessesOf = (work: Work) =>
  Object.entries(work.accesses).map(([access, calls]) => ({
    access,
    calls,
    units: work.accessUnits[access] ?? 0,
    unit: readCommands.has(access.split(' ')[0]!) ? 'RRU' : 'WRU',
  }));

/** `GetItem TENANT/CONSENTSTATS 0.5 RRU; Query table TENANT ×3 170 RRU` */
export const describeAccesses = (work: Work): string =>
  accessesOf(work)
    .map(({ access, calls, units, unit }) => `${access}${round(calls) === 1 ? '' : ` ×${round(calls)}`} ${round(units)} ${unit}`)
    .join('; ') || 'none';

export const describeSqs = (work: Work): string =>
  Object.entries(work.sqs).map(([action, count]) => `${action} ${round(count)}`).join(', ') || 'none';

export const totalCalls = (counts: Record<string, number>): number => Object.values(counts).reduce((sum, value) => sum + value, 0);
