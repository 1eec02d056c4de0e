import { nowIso } from '../clock';
import { toHex, leafHash } from './merkle';
import { appendLeaves, rightEdgeTiles, tileName } from './tiles';
import { commitIntegration, integratedUpdate, putTile, readBatches, readHead, readTiles } from './log-store';

/** Leaves taken into the tree per round, so one call's memory and time stay bounded. */
const maxLeavesPerRound = 4096;

/**
 * Brings the tenant's Merkle tree up to everything sequenced: reads the entries past the
 * integrated size and the right-edge tiles, writes the tiles that change, then moves the head's
 * integrated size and root, conditional on the size it started from. Tiles depend only on the
 * sequenced entries, so an integrator that crashes between its tile writes and the head commit,
 * or two racing, write identical tiles: the retry (or the winner) finishes the job.
 */
export const integrate = async (tenantId: string): Promise<number> => {
  let integrated = 0;
  for (;;) {
    const head = await readHead(tenantId);
    if (head.integrated >= head.sequenced) return integrated;
    const to = Math.min(head.sequenced, head.integrated + maxLeavesPerRound);
    const leaves = (await readBatches(tenantId, head.integrated, to))
      .flatMap((batch) => batch.entries.map((entry, index) => ({ position: batch.start + index, entry })))
      .filter(({ position }) => position >= head.integrated && position < to)
      .map(({ entry }) => leafHash(Buffer.from(entry.hash, 'hex')));
    if (leaves.length !== to - head.integrated) throw new Error(`log of tenant ${tenantId}: positions ${head.integrated}..${to} are not all sequenced`);
    const edge = await readTiles(tenantId, rightEdgeTiles(head.integrated).map(tileName));
    const appended = appendLeaves(head.integrated, edge, leaves);
    await Promise.all(appended.tiles.map((tile) => putTile(tenantId, tileName(tile.id), tile.hashes)));
    if (await commitIntegration(integratedUpdate(tenantId, head.integrated, appended.size, toHex(appended.root), nowIso()))) integrated += leaves.length;
  }
};
