import { nowIso } from '../clock';
import type { LogEntry } from './entries';
import { appendToFrontier } from './frontier';
import { extendTiles } from './integration';
import { countBatch, countsOf, type BatchCounts } from './log-counts';
import { integrateLegacy } from './log-legacy';
import { positionsOf, putMapFragments } from './log-map';
import { batchPut, markUnsigned, putBatch, readBatches, readLog, readSigningState, readTiles, type LatestBatch, type LogHead } from './log-store';
import { leafHash, rootNodes } from './merkle';
import { migrateChain } from './migration';
import { nodeFromTiles, tileName, tilesForNodes } from './tiles';

/** Entries per batch: one item of ~50 KB at most, its map fragments a few KB. */
const maxBatchEntries = 1000;
const maxAttempts = 30;
const tileWidth = 256;

const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));

/**
 * Where the next batch goes and the tree's right edge there. The latest batch carries both; a log
 * whose latest batch is older than that (or that has none yet) is at its head's size, first
 * integrated the old way if it was not, and its edge is read from its tiles, once.
 */
const edgeOf = async (tenantId: string, head: LogHead, latest: LatestBatch | undefined): Promise<{ size: number; frontier: Uint8Array[] }> => {
  if (latest?.state) return { size: latest.state.end, frontier: latest.state.frontier };
  if (latest && head.integrated > head.legacy.integrated) {
    throw new Error(`log of tenant ${tenantId}: a batch at position ${latest.start} without the tree's state follows the log's end at ${head.integrated}: it was not written by a sequencer`);
  }
  const size = head.legacy.sequenced;
  if ((latest?.end ?? 0) !== size) {
    throw new Error(`log of tenant ${tenantId}: a batch is stored up to position ${latest?.end ?? 0}, where its head says the log ends at ${size}: the head was set back, or a batch was written behind its back`);
  }
  if (size === 0) return { size, frontier: [] };
  if (head.legacy.integrated < size) throw new LegacyIntegrationNeeded();
  const nodes = rootNodes(size);
  const tiles = await readTiles(tenantId, tilesForNodes(nodes, size).map(tileName), head.legacy.integrated);
  return { size, frontier: nodes.map((node) => nodeFromTiles(node, (tile) => tiles.get(tileName(tile)))) };
};

class LegacyIntegrationNeeded extends Error {}

/**
 * The batch after an append: tiles of 256 leaves it completed (the checkpointer writes the rest for
 * the tree it signs), the counters (exactly once, log-counts.ts), and the head in the unsigned index
 * if it was not. Each step is idempotent and may be done again by whoever comes next.
 */
const finishBatch = async (tenantId: string, head: LogHead, start: number, entries: readonly { hash: string }[], counts: BatchCounts | undefined, at: string) => {
  const end = start + entries.length;
  const fullTiles = Math.floor(end / tileWidth) * tileWidth;
  const tiles = async () => {
    if (fullTiles > head.tiledTo) await extendTiles(tenantId, head, fullTiles, { start, hashes: entries.map((entry) => new Uint8Array(Buffer.from(entry.hash, 'hex'))) });
  };
  const stored = async (from: number, to: number) =>
    (await readBatches(tenantId, from, to)).filter((batch) => batch.start >= from && batch.start < to).map((batch) => ({ start: batch.start, end: batch.start + batch.entries.length, counts: batch.counts }));
  const unsigned = async () => {
    // The head read before appending may be out of date: a checkpointer may have signed the tree
    // just before this batch and taken the head out of the unsigned index. Read after the batch is
    // stored, the head is either still in the index, or its removal (conditional on no batch at the
    // signed size) came before this batch and shows here.
    const signing = head.unsignedSince === null ? head : await readSigningState(tenantId);
    if (signing.unsignedSince === null && (signing.checkpoint?.treeSize ?? 0) < end) await markUnsigned(tenantId, at);
  };
  // Three independent steps (each conditional or idempotent on its own item or attributes), side by side.
  await Promise.all([tiles(), countBatch(tenantId, { start, end, counts }, head.legacy.sequenced, at, stored), unsigned()]);
};

/**
 * Gives each new entry of one tenant the next position in the tenant's log, and integrates it at
 * once: a batch is one item holding its entries and the tree's root and right edge after them,
 * put only where its positions are free (log-store.ts), so two sequencers racing take turns
 * instead of forking the log, and a crash leaves a batch either whole or absent. Before it is put,
 * its ids are written to the map (log-map.ts), so no batch that holds an entry can be missed when a
 * replayed stream record (the stream delivers at least once) looks for it: that record is left out.
 * Returns how many entries it appended, and the head it read first (for the checkpoint's timing).
 */
export const sequenceEntries = async (tenantId: string, entries: LogEntry[], read?: Awaited<ReturnType<typeof readLog>>): Promise<number> => {
  const seen = new Set<string>();
  let pending = entries.filter((entry) => !seen.has(entry.id) && seen.add(entry.id));
  let sequenced = 0;
  let state = read;
  for (let attempt = 1; pending.length > 0; attempt += 1) {
    if (attempt > maxAttempts) throw new Error(`log of tenant ${tenantId}: could not sequence after ${maxAttempts} attempts`);
    const { head, latest } = state ?? (await readLog(tenantId));
    state = undefined;
    if (!head.migrated) {
      await migrateChain(tenantId);
      continue;
    }
    let edge: Awaited<ReturnType<typeof edgeOf>>;
    try {
      edge = await edgeOf(tenantId, head, latest);
    } catch (error) {
      if (!(error instanceof LegacyIntegrationNeeded)) throw error;
      await integrateLegacy(tenantId, head);
      continue;
    }
    const known = await positionsOf(tenantId, pending.map((entry) => entry.id), head.legacy.mapUntil);
    pending = pending.filter((entry) => !known.has(entry.id));
    if (pending.length === 0) {
      // A replay: the sequencer that appended these may have died (or lost its reply) before
      // finishing its batch, and no other batch may follow to finish it. Finish the latest again.
      if (latest?.state) await finishBatch(tenantId, head, latest.start, latest.entries, latest.counts, latest.state.at);
      break;
    }
    const chunk = pending.slice(0, maxBatchEntries);
    const at = nowIso();
    const next = appendToFrontier(edge.size, edge.frontier, chunk.map((entry) => leafHash(Buffer.from(entry.hash, 'hex'))));
    const counts = countsOf(chunk);
    await putMapFragments(tenantId, edge.size, chunk.map((entry) => entry.id));
    if (!(await putBatch(batchPut(tenantId, chunk, { start: edge.size, end: next.size, root: next.root, frontier: next.frontier, at }, counts)))) {
      await pause(attempt);
      continue;
    }
    await finishBatch(tenantId, head, edge.size, chunk, counts, at);
    pending = pending.slice(chunk.length);
    sequenced += chunk.length;
    attempt = 0;
  }
  return sequenced;
};
