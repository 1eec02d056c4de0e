import type { JsonWebKey } from 'node:crypto';
import { ValidationError } from '../errors';
import { readArchivedCheckpoint } from './archive';
import { logOrigin, openCheckpoint } from './checkpoint';
import { buildTree } from './full-tree';
import type { LogProblem } from './log-problem';
import { readBatches, readHead, readTiles, type StoredCheckpoint } from './log-store';
import { toHex } from './merkle';
import { logPublicKeys } from './log-public-keys';
import { tileName } from './tiles';
import { entryProblems, type PositionedEntry } from './verify-entries';
import { archiveProblems, floorOf, headCopyProblems, readArchive, tileProblems } from './verify-history';

/** The latest checkpoint is genuine: signed by a key of the service, its body matching what the head says. */
const signatureProblems = (tenantId: string, checkpoint: StoredCheckpoint, keys: JsonWebKey[]): LogProblem[] => {
  const opened = openCheckpoint(checkpoint.note, keys);
  const problem = (reason: string): LogProblem[] => [{ position: null, kind: 'checkpoint', id: null, reason }];
  if (!opened) return problem('the latest checkpoint is not signed by a key of this service');
  if (opened.origin !== logOrigin(tenantId) || opened.treeSize !== checkpoint.treeSize || toHex(opened.rootHash) !== checkpoint.rootHash) {
    return problem('the latest checkpoint does not match its signed note');
  }
  return [];
};

/** The stored entries of positions [0, size), in order, up to the first missing position. */
const storedEntries = async (tenantId: string, size: number): Promise<{ contiguous: PositionedEntry[]; all: PositionedEntry[] }> => {
  const all = size === 0 ? [] : (await readBatches(tenantId, 0, size)).flatMap((batch) => batch.entries.map((entry, index) => ({ ...entry, position: batch.start + index })));
  const inRange = all.filter((entry) => entry.position < size).sort((a, b) => a.position - b.position);
  const gap = inRange.findIndex((entry, index) => entry.position !== index);
  return { contiguous: gap < 0 ? inRange : inRange.slice(0, gap), all: inRange };
};

/** The size of the head's checkpoint if its note is a genuine one of this log (signed by a key of the service), else 0. */
const genuineSize = (tenantId: string, checkpoint: StoredCheckpoint | null, keys: JsonWebKey[]): number => {
  const opened = checkpoint ? openCheckpoint(checkpoint.note, keys) : undefined;
  return opened && opened.origin === logOrigin(tenantId) && opened.treeSize === checkpoint?.treeSize ? opened.treeSize : 0;
};

/**
 * Checks the tenant's log against what cannot be changed any more and against itself: the latest
 * checkpoint's signature and its archived copy; the largest archived checkpoint whatever `from` is,
 * and every one above `from` (the tree recomputed from the stored entries must reach the largest
 * and extend each one by a consistency proof, so a head set back or a rewritten log is found even
 * when everything in the table agrees, and no `from` steers the check past it); the root recomputed
 * from every entry against the latest checkpoint; the stored tiles; and, for the entries at
 * positions from..to, what each stands for (verify-entries.ts). Entries past the latest checkpoint
 * are reported as pending, not checked. A `from` beyond the log's size (the entries sequenced, the
 * latest checkpoint or the largest archived one, whichever is largest) is a ValidationError.
 */
export const verifyLog = async (tenantId: string, from: number, requestedTo: number | undefined) => {
  // Only the checkpoint key signs notes; its public half, given at deploy: the verification holds nothing that signs.
  const { keys } = await logPublicKeys();
  // Where the archive's listing may start: at or below the head's genuine checkpoint, every larger
  // archived one is listed (one S3 list per 1,000 above it, not the whole archive for a large `from`).
  const listAfter = Math.min(from, genuineSize(tenantId, (await readHead(tenantId)).checkpoint, keys) - 1);
  // The archive before the head: a checkpoint is archived only after its tree was integrated, so a
  // head read afterwards that is below an archived checkpoint was set back, not merely overtaken.
  const archived = await readArchive(tenantId, from, keys, listAfter);
  const head = await readHead(tenantId);
  const checkpoint = head.checkpoint;
  const treeSize = checkpoint?.treeSize ?? 0;
  const size = Math.max(head.sequenced, treeSize, floorOf(archived));
  if (from > size) throw new ValidationError({ from: `must not exceed the log's size (${size})` });
  const to = Math.min(requestedTo ?? treeSize - 1, treeSize - 1);
  const entries = await storedEntries(tenantId, Math.max(treeSize, floorOf(archived)));
  const tree = buildTree(entries.contiguous.map((entry) => Buffer.from(entry.hash, 'hex')));
  // Every tree that was signed has all its tiles (the checkpointer writes them first): the latest
  // checkpoint's tree, and whatever more the tiles were written for, must be in them.
  const tiled = Math.min(tree.size, Math.max(treeSize, Math.min(head.tiledTo, head.integrated)));
  const storedTiles = await readTiles(tenantId, tree.tilesAt(tiled).map((tile) => tileName(tile.id)), head.legacy.integrated);
  const problems: LogProblem[] = [];
  if (checkpoint) {
    const copy = archived.find((candidate) => candidate.treeSize === checkpoint.treeSize)?.note ?? (checkpoint.treeSize <= from ? await readArchivedCheckpoint(tenantId, checkpoint.treeSize) : undefined);
    problems.push(...signatureProblems(tenantId, checkpoint, keys), ...headCopyProblems(checkpoint, copy));
    if (tree.size < treeSize || toHex(tree.rootAt(treeSize)) !== checkpoint.rootHash) {
      problems.push({ position: null, kind: 'log', id: null, reason: 'the stored log no longer hashes to the signed root: its entries were altered' });
    }
  }
  problems.push(...archiveProblems(archived, head, tree), ...tileProblems(tree, tiled, storedTiles));
  const checked = entries.all.filter((entry) => entry.position >= from && entry.position <= to);
  problems.push(...(await entryProblems(tenantId, checked)));
  problems.sort((a, b) => (a.position ?? -1) - (b.position ?? -1));
  return {
    from,
    to,
    treeSize,
    checked: checked.length,
    pendingEntries: Math.max(0, head.sequenced - treeSize),
    intact: problems.length === 0,
    checkpoint: checkpoint ? { treeSize: checkpoint.treeSize, rootHash: checkpoint.rootHash, signedAt: checkpoint.signedAt, keyId: checkpoint.keyId } : null,
    archive: { checked: archived.length, largestTreeSize: floorOf(archived) || null },
    problems: problems.slice(0, 100),
  };
};
