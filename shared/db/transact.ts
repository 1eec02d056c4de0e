import { TransactWriteCommand, type TransactWriteCommandInput } from './commands';
import { ConflictError } from '../errors';
import { db, tableName } from './client';
import { cancellationReasons, ContentionError, nameOf, withCause, type OnConditionFailure } from './errors';

/** One item of a TransactWriteItems request. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** An ADD of several counters on one item, as a transaction item; zero deltas are left out. */
export const addCounters = (key: Record<string, string>, deltas: Record<string, number>): TransactItem => {
  const entries = Object.entries(deltas).filter(([, delta]) => delta !== 0);
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: `ADD ${entries.map((_, index) => `#c${index} :d${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#c${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, delta], index) => [`:d${index}`, delta])),
    },
  };
};

/**
 * One item of a transaction with a name, so that a cancelled transaction is explained by which
 * item failed (its own domain error) rather than by where the item happened to sit in the list.
 */
export interface NamedItem {
  name: string;
  item: TransactItem;
  /** The domain error when this item's condition fails; without one, a CONFLICT naming the item. */
  onConditionFailure?: OnConditionFailure;
}

/** An item with a name and no error of its own (a failure of it is a CONFLICT naming it). */
export const named = (name: string, item: TransactItem): NamedItem => ({ name, item });

export type TransactionOutcome = 'ok' | { failed: string } | 'contended';

const sendNamed = (items: readonly NamedItem[]) =>
  db().send(new TransactWriteCommand({ TransactItems: items.map((named) => named.item) }));

/**
 * Runs a transaction and says how it ended instead of throwing for expected outcomes: the name of
 * the item whose condition failed, or contention with a concurrent transaction.
 */
export const tryTransaction = async (items: readonly NamedItem[]): Promise<TransactionOutcome> => {
  try {
    await sendNamed(items);
    return 'ok';
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons.length === 0) {
      if (nameOf(error) === 'TransactionConflictException') return 'contended';
      throw error;
    }
    const failedIndex = reasons.findIndex((code) => code === 'ConditionalCheckFailed');
    return failedIndex >= 0 ? { failed: items[failedIndex]!.name } : 'contended';
  }
};

/**
 * Runs a transaction; a failed condition becomes the failing item's domain error, and a
 * cancellation for any other reason (a concurrent transaction) a CONFLICT the caller may retry.
 */
export const writeTransaction = async (items: readonly NamedItem[]): Promise<void> => {
  try {
    await sendNamed(items);
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons.length === 0) throw error;
    const failedIndex = reasons.findIndex((code) => code === 'ConditionalCheckFailed');
    if (failedIndex < 0) throw new ContentionError(error);
    const failed = items[failedIndex]!;
    throw withCause(failed.onConditionFailure?.() ?? new ConflictError(`${failed.name} was changed concurrently; retry`), error);
  }
};
