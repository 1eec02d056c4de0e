import { randomUUID } from 'node:crypto';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';

/**
 * Between the document form the stores write (native values) and DynamoDB's wire form
 * (`{ S: "…" }`), for exactly the members lib-dynamodb converts in the commands we send.
 */
type Map = Record<string, unknown>;
type Wire = Record<string, unknown>;

const toAttributes = (value: unknown): unknown => (value === undefined ? undefined : marshall(value as Map, { removeUndefinedValues: true }));
const fromAttributes = (value: unknown): unknown => (value === undefined ? undefined : unmarshall(value as Parameters<typeof unmarshall>[0]));

/** `{ ...object, [key]: convert(object[key]) }` for each named key the object has. */
const converting = (object: unknown, keys: readonly string[], convert: (value: unknown) => unknown): unknown => {
  if (object === undefined || object === null) return object;
  const copy: Wire = { ...(object as Wire) };
  for (const key of keys) if (copy[key] !== undefined) copy[key] = convert(copy[key]);
  return copy;
};

const mapValues = (object: unknown, convert: (value: unknown) => unknown): unknown =>
  object === undefined ? undefined : Object.fromEntries(Object.entries(object as Wire).map(([key, value]) => [key, convert(value)]));

const itemKeys = ['Item', 'Key', 'ExpressionAttributeValues', 'ExclusiveStartKey'] as const;
const marshallMembers = (member: unknown) => converting(member, itemKeys, toAttributes);

const keysAndAttributes = (direction: (value: unknown) => unknown) => (table: unknown) => converting(table, ['Keys'], (keys) => (keys as unknown[]).map(direction));
const writeRequests = (direction: (value: unknown) => unknown) => (requests: unknown) =>
  (requests as Wire[]).map((request) => converting(converting(request, ['PutRequest'], (put) => converting(put, ['Item'], direction)), ['DeleteRequest'], (remove) => converting(remove, ['Key'], direction)));
const transactItem = (direction: (value: unknown) => unknown) => (entry: unknown) =>
  mapValues(entry, (action) => converting(action, itemKeys, direction));

/** The request DynamoDB is sent for a document command's input. */
export const inputToWire = (operation: string, input: Map): Wire => {
  switch (operation) {
    case 'BatchGetItem':
      return converting(input, ['RequestItems'], (tables) => mapValues(tables, keysAndAttributes(toAttributes))) as Wire;
    case 'BatchWriteItem':
      return converting(input, ['RequestItems'], (tables) => mapValues(tables, writeRequests(toAttributes))) as Wire;
    case 'TransactGetItems':
      return converting(input, ['TransactItems'], (items) => (items as unknown[]).map(transactItem(toAttributes))) as Wire;
    case 'TransactWriteItems': {
      const wire = converting(input, ['TransactItems'], (items) => (items as unknown[]).map(transactItem(toAttributes))) as Wire;
      // The SDK fills the idempotency token the same way: one per call, kept across its retries,
      // so a retried transaction that had in fact succeeded is not applied twice.
      return { ...wire, ClientRequestToken: input.ClientRequestToken ?? randomUUID() };
    }
    default:
      return marshallMembers(input) as Wire;
  }
};

/** The document form of DynamoDB's answer. */
export const outputFromWire = (operation: string, output: Wire): Wire => {
  switch (operation) {
    case 'Query':
    case 'Scan':
      return converting(output, ['Items', 'LastEvaluatedKey'], (value) => (Array.isArray(value) ? value.map(fromAttributes) : fromAttributes(value))) as Wire;
    case 'BatchGetItem':
      return converting(
        converting(output, ['Responses'], (tables) => mapValues(tables, (items) => (items as unknown[]).map(fromAttributes))),
        ['UnprocessedKeys'],
        (tables) => mapValues(tables, keysAndAttributes(fromAttributes)),
      ) as Wire;
    case 'BatchWriteItem':
      return converting(output, ['UnprocessedItems'], (tables) => mapValues(tables, writeRequests(fromAttributes))) as Wire;
    case 'TransactGetItems':
      return converting(output, ['Responses'], (responses) => (responses as unknown[]).map((response) => converting(response, ['Item'], fromAttributes))) as Wire;
    default:
      return converting(output, ['Item', 'Attributes'], fromAttributes) as Wire;
  }
};

/** The items a failed condition or a cancelled transaction hands back (ReturnValuesOnConditionCheckFailure), in document form. */
export const errorFieldsFromWire = (fields: Wire): Wire =>
  converting(
    converting(fields, ['Item'], fromAttributes),
    ['CancellationReasons'],
    (reasons) => (reasons as unknown[]).map((reason) => converting(reason, ['Item'], fromAttributes)),
  ) as Wire;

/** Binary attributes travel as base64 (`{ "B": "…" }`): JSON.parse's reviver turns them back into bytes. */
export const binaryReviver = (_key: string, value: unknown): unknown => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const entries = Object.keys(value);
  if (entries.length !== 1) return value;
  const { B, BS } = value as { B?: unknown; BS?: unknown };
  if (typeof B === 'string') return { B: new Uint8Array(Buffer.from(B, 'base64')) };
  if (Array.isArray(BS) && BS.every((entry) => typeof entry === 'string')) return { BS: BS.map((entry: string) => new Uint8Array(Buffer.from(entry, 'base64'))) };
  return value;
};
