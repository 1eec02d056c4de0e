import { emptyRoot, nodeHash, rootFromPerfect, type NodeId } from './merkle';

/**
 * The tree's hashes stored in tiles (the tlog-tiles / Tessera layout): tile (L, N) holds the
 * hashes of tree level 8·L, nodes 256·N … 256·N+255, concatenated (32 bytes each). Only every
 * eighth level is stored; the levels between are hashed up from the tile below, which bounds
 * any node's cost to 255 hashes while keeping storage at ~1/255 overhead over the leaves.
 * A tile only ever grows, so a stored tile is valid for every tree size that includes its hashes.
 */

/** Tile level `level` (tree level 8·level), tile index `index`. */
export interface TileId {
  level: number;
  index: number;
}

const hashSize = 32;
const tileWidth = 256;
const levelsPerTile = 8;

/** `${level}/${index}` in canonical decimal: a stable key that parseTileName inverts exactly. */
export const tileName = (id: TileId): string => `${id.level}/${id.index}`;

export const parseTileName = (name: string): TileId => {
  const match = /^(0|[1-9]\d*)\/(0|[1-9]\d*)$/.exec(name);
  const level = Number(match?.[1]);
  const index = Number(match?.[2]);
  if (!match || !Number.isSafeInteger(level) || !Number.isSafeInteger(index)) throw new Error(`not a tile name: ${name}`);
  return { level, index };
};

/** How many hashes of tile level L exist in a tree of `size` leaves (the complete level-8L nodes). */
const countAt = (size: number, level: number) => Math.floor(size / tileWidth ** level);

/**
 * The last, non-empty partial tile of every tile level. They hold every right-edge hash: the
 * root's perfect subtrees at levels 8L … 8L+7 are made of the trailing count % 256 hashes of
 * level 8L, which are exactly that level's partial tile.
 */
export const rightEdgeTiles = (size: number): TileId[] => {
  const tiles: TileId[] = [];
  for (let level = 0; countAt(size, level) > 0; level += 1) {
    const count = countAt(size, level);
    if (count % tileWidth !== 0) tiles.push({ level, index: Math.floor(count / tileWidth) });
  }
  return tiles;
};

/** Hashes a power-of-two run of same-level hashes up to their subtree's root. */
const hashUp = (hashes: Uint8Array[]): Uint8Array => {
  let layer = hashes;
  while (layer.length > 1) {
    const next: Uint8Array[] = [];
    for (let at = 0; at < layer.length; at += 2) next.push(nodeHash(layer[at]!, layer[at + 1]!));
    layer = next;
  }
  const [root] = layer;
  if (!root) throw new Error('no hashes to hash up');
  return root;
};

const split = (bytes: Uint8Array, width: number): Uint8Array[] =>
  Array.from({ length: width }, (_, at) => bytes.slice(at * hashSize, (at + 1) * hashSize));

const join = (hashes: Uint8Array[]): Uint8Array => {
  const bytes = new Uint8Array(hashes.length * hashSize);
  hashes.forEach((hash, at) => bytes.set(hash, at * hashSize));
  return bytes;
};

interface OpenTile {
  index: number;
  hashes: Uint8Array[];
  changed: boolean;
}

/**
 * Appends leaf hashes to a tree of `size` whose right-edge tiles are in `edge` (keyed by
 * tileName; missing = empty). Stored tiles may be longer than `size` implies (an integrator that
 * crashed after writing them): only the first count % 256 hashes are used, the rest is rewritten.
 * Returns every tile that changed, in full, plus the new size and RFC 9162 root.
 */
export const appendLeaves = (
  size: number,
  edge: Map<string, Uint8Array>,
  leaves: Uint8Array[],
): { tiles: { id: TileId; hashes: Uint8Array }[]; size: number; root: Uint8Array } => {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`size must be a non-negative integer, got ${size}`);
  const open: OpenTile[] = [];
  for (let level = 0; countAt(size, level) > 0; level += 1) {
    const count = countAt(size, level);
    const id = { level, index: Math.floor(count / tileWidth) };
    const width = count % tileWidth;
    const stored = edge.get(tileName(id));
    if (width > 0 && (!stored || stored.length < width * hashSize)) {
      throw new Error(`right-edge tile ${tileName(id)} of a tree of ${size} needs ${width} hashes, has ${stored ? Math.floor(stored.length / hashSize) : 'none'}`);
    }
    open.push({ index: id.index, hashes: width > 0 && stored ? split(stored, width) : [], changed: false });
  }
  const tiles: { id: TileId; hashes: Uint8Array }[] = [];
  // A level above every existing one has no hashes yet, so its first tile is index 0.
  const tileAt = (level: number): OpenTile => (open[level] ??= { index: 0, hashes: [], changed: false });
  const push = (level: number, hash: Uint8Array) => {
    for (;;) {
      const tile = tileAt(level);
      tile.hashes.push(hash);
      tile.changed = true;
      if (tile.hashes.length < tileWidth) return;
      // A full tile is final: write it, and carry its subtree root up as the next level's hash.
      tiles.push({ id: { level, index: tile.index }, hashes: join(tile.hashes) });
      open[level] = { index: tile.index + 1, hashes: [], changed: false };
      hash = hashUp(tile.hashes);
      level += 1;
    }
  };
  for (const leaf of leaves) {
    if (!(leaf instanceof Uint8Array) || leaf.length !== hashSize) throw new Error('leaves must be 32-byte leaf hashes');
    push(0, leaf);
  }
  const newSize = size + leaves.length;
  const current = new Map<string, Uint8Array>();
  open.forEach((tile, level) => {
    if (tile.hashes.length === 0) return;
    const id = { level, index: tile.index };
    const hashes = join(tile.hashes);
    current.set(tileName(id), hashes);
    if (tile.changed) tiles.push({ id, hashes });
  });
  const root = newSize === 0 ? emptyRoot.slice() : rootFromPerfect(newSize, (id) => nodeFromTiles(id, (tile) => current.get(tileName(tile))));
  return { tiles, size: newSize, root };
};

/** The tile holding the level-8L hashes under perfect node `id`, and where they sit in it. */
const locate = (id: NodeId) => {
  if (!Number.isSafeInteger(id.level) || !Number.isSafeInteger(id.index) || id.level < 0 || id.index < 0) throw new RangeError(`not a node: ${JSON.stringify(id)}`);
  const level = Math.floor(id.level / levelsPerTile);
  const count = 2 ** (id.level % levelsPerTile);
  const first = id.index * count;
  return { tile: { level, index: Math.floor(first / tileWidth) }, offset: first % tileWidth, count };
};

export const tilesForNodes = (nodes: NodeId[], size: number): TileId[] => {
  const tiles = new Map<string, TileId>();
  for (const node of nodes) {
    if ((node.index + 1) * 2 ** node.level > size) throw new RangeError(`node ${node.level}/${node.index} is not complete in a tree of ${size}`);
    const { tile } = locate(node);
    tiles.set(tileName(tile), tile);
  }
  return [...tiles.values()];
};

export const nodeFromTiles = (id: NodeId, get: (tile: TileId) => Uint8Array | undefined): Uint8Array => {
  const { tile, offset, count } = locate(id);
  const bytes = get(tile);
  if (!bytes) throw new Error(`tile ${tileName(tile)} holding node ${id.level}/${id.index} is missing`);
  const end = (offset + count) * hashSize;
  if (bytes.length < end) throw new Error(`tile ${tileName(tile)} has ${Math.floor(bytes.length / hashSize)} hashes, node ${id.level}/${id.index} needs ${offset + count}`);
  return hashUp(split(bytes.subarray(offset * hashSize, end), count));
};
