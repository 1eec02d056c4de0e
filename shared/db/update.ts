import { UpdateCommand } from './commands';
import { db, tableName } from './client';
import { conditional, notFound } from './errors';

/**
 * Sets the given fields (undefined ones left as they are) of an existing item and returns the
 * item as it now stands; a missing item is the NotFoundError of `what`. For partial updates of an
 * entity (a purpose, a processor) whose fields do not depend on each other.
 */
export const setExistingFields = async (key: Record<string, string>, fields: Record<string, unknown>, what: string): Promise<Record<string, unknown>> => {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  const { Attributes } = await conditional(
    () =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: `SET ${entries.map((_, index) => `#f${index} = :v${index}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#f${index}`, name])),
          ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], index) => [`:v${index}`, value])),
          ReturnValues: 'ALL_NEW',
        }),
      ),
    notFound(what),
  );
  return Attributes ?? {};
};

/**
 * What one writer changes of an item that other writers change in the same transaction, which may
 * hold only one operation per item: the clauses of each kind of an update expression, the
 * placeholders they use, and a condition on the item as it was.
 */
export interface UpdatePart {
  set?: readonly string[];
  remove?: readonly string[];
  add?: readonly string[];
  delete?: readonly string[];
  condition?: string;
  names?: Readonly<Record<string, string>>;
  values?: Readonly<Record<string, unknown>>;
}

const sameValue = (a: unknown, b: unknown): boolean =>
  a instanceof Set && b instanceof Set ? a.size === b.size && [...a].every((member) => b.has(member)) : a === b;

/** Placeholders of all parts; one that two parts use must stand for the same thing in both. */
const placeholdersOf = (maps: readonly (Readonly<Record<string, unknown>> | undefined)[]): Record<string, unknown> => {
  const merged: Record<string, unknown> = {};
  for (const [placeholder, value] of maps.flatMap((map) => Object.entries(map ?? {}))) {
    if (placeholder in merged && !sameValue(merged[placeholder], value)) throw new Error(`two parts of one update use ${placeholder} for different things`);
    merged[placeholder] = value;
  }
  return merged;
};

const clauseKinds = ['set', 'remove', 'add', 'delete'] as const;

/** The parts as one Update's expressions (a clause two parts share written once; their conditions all hold). */
export const mergedUpdate = (parts: readonly UpdatePart[]) => {
  const clauses = clauseKinds.map((kind) => [kind, [...new Set(parts.flatMap((part) => part[kind] ?? []))]] as const).filter(([, written]) => written.length > 0);
  const conditions = parts.flatMap((part) => (part.condition ? [`(${part.condition})`] : []));
  const values = placeholdersOf(parts.map((part) => part.values));
  return {
    UpdateExpression: clauses.map(([kind, written]) => `${kind.toUpperCase()} ${written.join(', ')}`).join(' '),
    ...(conditions.length > 0 ? { ConditionExpression: conditions.join(' AND ') } : {}),
    ExpressionAttributeNames: placeholdersOf(parts.map((part) => part.names)) as Record<string, string>,
    ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
  };
};
