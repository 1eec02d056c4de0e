import type { JsonWebKey } from 'node:crypto';
import { mapWithConcurrency } from '../concurrency';
import { listArchivedCheckpoints, readArchivedCheckpoint } from './archive';
import { logOrigin, openCheckpoint } from './checkpoint';
import type { FullTree } from './full-tree';
import type { LogProblem } from './log-problem';
import type { LogHead, StoredCheckpoint } from './log-store';
import { consistencyProof, toHex, verifyConsistency } from './merkle';
import { tileName } from './tiles';

/**
 * What the operator can no longer change: the checkpoints archived under Object Lock. The stored
 * log must extend every one of them (a valid RFC 9162 consistency proof from each archived size to
 * the recomputed tree), may never be smaller than the largest (the floor), and its head's own
 * checkpoint must be among them. The stored tiles, which inclusion and consistency proofs are read
 * from, must hold the hashes of the recomputed tree.
 */
export interface ArchivedCheckpoint {
  treeSize: number;
  note: string;
  /** Hex root of the note, if it is a checkpoint of this log signed by a key of the service; null otherwise. */
  rootHash: string | null;
}

/** How many archived notes are read at once. */
const readConcurrency = 8;

const readOne = async (tenantId: string, treeSize: number, keys: JsonWebKey[]): Promise<ArchivedCheckpoint> => {
  const note = (await readArchivedCheckpoint(tenantId, treeSize)) ?? '';
  const opened = openCheckpoint(note, keys);
  const valid = opened && opened.origin === logOrigin(tenantId) && opened.treeSize === treeSize;
  return { treeSize, note, rootHash: valid ? toHex(opened.rootHash) : null };
};

/**
 * The tenant's archived notes of sizes above `afterSize` and, whatever `afterSize`, the largest one
 * signed by the service (the floor the log may never fall below: a caller's `from` must not steer
 * the check past it), smallest first, each opened with the service's keys. `listAfter` (at most
 * `afterSize`) is where the listing starts: a size every archived checkpoint at least as large as
 * the largest lies above (the head's checkpoint, if genuine: it was archived before the head pointed
 * at it, and an archived note is never removed). When no valid note lies above `afterSize`, the
 * listed ones at or below it are read from the largest down until one is.
 */
export const readArchive = async (tenantId: string, afterSize: number, keys: JsonWebKey[], listAfter = afterSize): Promise<ArchivedCheckpoint[]> => {
  const sizes = await listArchivedCheckpoints(tenantId, Math.min(listAfter, afterSize));
  const above = await mapWithConcurrency(sizes.filter((size) => size > afterSize), readConcurrency, (treeSize) => readOne(tenantId, treeSize, keys));
  if (above.some((checkpoint) => checkpoint.rootHash !== null)) return above;
  const below: ArchivedCheckpoint[] = [];
  for (const treeSize of sizes.filter((size) => size <= afterSize).reverse()) {
    const checkpoint = await readOne(tenantId, treeSize, keys);
    below.unshift(checkpoint);
    if (checkpoint.rootHash !== null) break;
  }
  return [...below, ...above];
};

/** The size of the largest archived checkpoint signed by the service: the log may never again be smaller. */
export const floorOf = (archived: readonly ArchivedCheckpoint[]): number =>
  archived.reduce((floor, checkpoint) => (checkpoint.rootHash !== null ? Math.max(floor, checkpoint.treeSize) : floor), 0);

const problem = (kind: LogProblem['kind'], reason: string): LogProblem => ({ position: null, kind, id: null, reason });

/** The head's checkpoint must be archived, byte for byte: what the API serves is what the operator cannot take back. */
export const headCopyProblems = (checkpoint: StoredCheckpoint, archived: string | undefined): LogProblem[] => {
  if (archived === undefined || archived === '') {
    return [problem('archive', `the latest checkpoint (size ${checkpoint.treeSize}) has no archived copy: it was never archived, or the head was given a checkpoint the archive does not hold`)];
  }
  return archived === checkpoint.note ? [] : [problem('archive', `the latest checkpoint (size ${checkpoint.treeSize}) differs from its archived copy`)];
};

/**
 * Every archived object must be a note of this log signed by the service; the stored log must reach
 * the largest one, and the head must not sit below it; and the recomputed tree must extend each
 * one by a valid consistency proof.
 */
export const archiveProblems = (archived: readonly ArchivedCheckpoint[], head: LogHead, tree: FullTree): LogProblem[] => {
  const problems: LogProblem[] = [];
  for (const checkpoint of archived.filter((candidate) => candidate.rootHash === null)) {
    problems.push(problem('archive', `the archive holds an object for size ${checkpoint.treeSize} that is not a checkpoint of this log signed by a key of this service`));
  }
  const floor = floorOf(archived);
  if (floor > tree.size) {
    problems.push(problem('rollback', `a checkpoint of size ${floor} is archived, but the stored log holds only ${tree.size} entries (its head: ${head.sequenced} sequenced, ${head.integrated} integrated): the log was rolled back`));
  } else if (floor > head.integrated) {
    problems.push(problem('rollback', `a checkpoint of size ${floor} is archived, but the log head says only ${head.integrated} entries are integrated: the head was set back`));
  }
  const root = tree.rootAt(tree.size);
  for (const checkpoint of archived) {
    if (checkpoint.rootHash === null || checkpoint.treeSize > tree.size) continue;
    const proof = consistencyProof(checkpoint.treeSize, tree.size, tree.node);
    if (!verifyConsistency(checkpoint.treeSize, tree.size, Buffer.from(checkpoint.rootHash, 'hex'), root, proof)) {
      problems.push(problem('rollback', `the stored log does not extend the archived checkpoint of size ${checkpoint.treeSize} (no valid consistency proof): entries it covered were changed or removed`));
    }
  }
  return problems;
};

/**
 * The stored tiles of the tree of `size` against the recomputed one. A tile may hold more than
 * `size` needs (an integrator ahead of the checkpoint): only what `size` covers is compared.
 */
export const tileProblems = (tree: FullTree, size: number, stored: ReadonlyMap<string, Uint8Array>): LogProblem[] =>
  tree.tilesAt(size).flatMap(({ id, hashes }) => {
    const name = tileName(id);
    const tile = stored.get(name);
    if (!tile || tile.length < hashes.length) return [problem('tiles', `tile ${name} is missing or shorter than the tree of size ${size} needs: proofs read from it cannot be built`)];
    return Buffer.from(tile.subarray(0, hashes.length)).equals(hashes)
      ? []
      : [problem('tiles', `stored tile ${name} differs from the tree recomputed from the entries: proofs read from it would not verify`)];
  });
