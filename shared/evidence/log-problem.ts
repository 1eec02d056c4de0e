import type { EntryKind } from './entries';

/**
 * What log verification can find wrong, by kind: an entry's record, withdrawal or document
 * (`record`, `withdrawal`, `document`); the latest checkpoint's signature (`checkpoint`); the stored
 * entries against the signed root (`log`); the log set back below, or rewritten under, a checkpoint
 * already archived (`rollback`); the archive itself: a missing or different copy, or an object that
 * is not a note signed by the service (`archive`); the stored hash tiles proofs are built from (`tiles`).
 */
export const logProblemKinds = ['record', 'withdrawal', 'document', 'checkpoint', 'log', 'rollback', 'archive', 'tiles'] as const;

export type LogProblemKind = (typeof logProblemKinds)[number];

/** Every entry kind is a problem kind: a new kind of entry fails to compile until it is listed above. */
export const entryProblemKind = (kind: EntryKind): LogProblemKind => kind;

export interface LogProblem {
  position: number | null;
  kind: LogProblemKind;
  id: string | null;
  reason: string;
}
