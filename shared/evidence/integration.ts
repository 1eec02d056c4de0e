import { appendLeaves, rightEdgeTiles, tileName } from './tiles';
import { commitTiled, entryHashes, putTile, readTiles, tiledUpdate, type LogHead } from './log-store';
import { leafHash } from './merkle';

/**
 * The hash tiles (tiles.ts) proofs are read from, kept apart from appending: every batch already
 * stores the tree's root and right edge after it, so tiles are written only (1) when a batch
 * completes a tile of 256 leaves, by its sequencer, and (2) for the tree about to be signed, by the
 * checkpointer, right-edge tiles included: every size a proof is given for has all its tiles.
 * The head's `tiledTo` says which tree the stored tiles hold; it moves only forward, conditionally,
 * and tiles depend only on the sequenced entries, so two writers, or one that died between its tile
 * writes and the head, write the same bytes and the next one finishes. `known`: the hashes of
 * entries from `known.start` on, in memory already (a batch just appended), so as not to read them.
 */
export const extendTiles = async (tenantId: string, head: LogHead, to: number, known?: { start: number; hashes: Uint8Array[] }): Promise<void> => {
  const from = head.tiledTo;
  if (to <= from) return;
  const readUpTo = known ? Math.min(Math.max(from, known.start), to) : to;
  const stored = await entryHashes(tenantId, from, readUpTo);
  const inMemory = known ? known.hashes.slice(readUpTo - known.start, to - known.start) : [];
  const leaves = [...stored, ...inMemory].map(leafHash);
  if (leaves.length !== to - from) throw new Error(`log of tenant ${tenantId}: tiles from ${from} to ${to} need ${to - from} leaves, have ${leaves.length}`);
  const edge = await readTiles(tenantId, rightEdgeTiles(from).map(tileName), head.legacy.integrated);
  const appended = appendLeaves(from, edge, leaves);
  await Promise.all(appended.tiles.map((tile) => putTile(tenantId, tileName(tile.id), tile.hashes)));
  await commitTiled(tiledUpdate(tenantId, from, to));
};
