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
