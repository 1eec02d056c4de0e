import { AppError, ConflictError, NotFoundError } from '../errors';

/**
 * The data layer's boundary: DynamoDB's condition failures become domain errors here, so
 * nothing above this layer ever sees an SDK exception name.
 */

export const nameOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'name' in error ? String((error as { name: unknown }).name) : undefined;

export const isConditionFailure = (error: unknown): boolean => nameOf(error) === 'ConditionalCheckFailedException';

/** Reasons of a cancelled transaction, one per item, in request order. */
export const cancellationReasons = (error: unknown): string[] => {
  if (nameOf(error) !== 'TransactionCanceledException') return [];
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((reason) => reason.Code ?? 'None');
};

/** A transaction cancelled because another one touched the same items at the same moment: safe to retry from a fresh read. */
export class ContentionError extends ConflictError {
  constructor(cause: unknown) {
    super('A concurrent change touched the same data; retry the request', cause);
  }
}

export type OnConditionFailure = () => AppError;

/** Run one write; a failed condition becomes the error the caller names. */
export const conditional = async <T>(write: () => Promise<T>, onFailure: OnConditionFailure): Promise<T> => {
  try {
    return await write();
  } catch (error) {
    if (isConditionFailure(error)) throw withCause(onFailure(), error);
    throw error;
  }
};

/** Run one write whose failed condition is an expected race, not an error: false when it failed. */
export const writtenUnlessRaced = async (write: () => Promise<unknown>): Promise<boolean> => {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

export const withCause = (domainError: AppError, cause: unknown): AppError =>
  domainError.cause === undefined ? Object.assign(domainError, { cause }) : domainError;

export const notFound = (what: string): OnConditionFailure => () => new NotFoundError(what);
export const conflict = (message: string): OnConditionFailure => () => new ConflictError(message);
