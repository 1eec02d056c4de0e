import { leafHash, nodeHash, rootFromPerfect, type NodeId } from './merkle';
import type { TileId } from './tiles';

/**
 * A whole tree held in memory, every level of it: what verification recomputes from the stored
 * entries, to compare with the signed and archived checkpoints (a root at any size, consistency
 * proofs) and with the stored tiles (tile L is level 8·L). Memory is about 64 bytes per leaf (two
 * hashes: the leaves and all levels above them), in one buffer per level.
 */
export interface FullTree {
  size: number;
  /** The hash of a perfect subtree of this tree. */
  node(id: NodeId): Uint8Array;
  /** RFC 9162 root of the first `size` leaves (size ≤ this tree's). */
  rootAt(size: number): Uint8Array;
  /** Every tile of the tree of `size` leaves (size ≤ this tree's) with the hashes it must hold, partial tiles included. */
  tilesAt(size: number): { id: TileId; hashes: Uint8Array }[];
}

const hashSize = 32;
const tileWidth = 256;
const levelsPerTile = 8;

/** The tree of these leaf data (each entry's 32-byte hash), hashed with RFC 9162's leaf prefix. */
export const buildTree = (leafData: readonly Uint8Array[]): FullTree => {
  const levels: Buffer[] = [Buffer.alloc(leafData.length * hashSize)];
  leafData.forEach((data, index) => levels[0]!.set(leafHash(data), index * hashSize));
  for (let below = levels[0]!; below.length >= 2 * hashSize; ) {
    const count = Math.floor(below.length / hashSize / 2);
    const level = Buffer.alloc(count * hashSize);
    for (let index = 0; index < count; index += 1) {
      level.set(nodeHash(below.subarray(2 * index * hashSize, (2 * index + 1) * hashSize), below.subarray((2 * index + 1) * hashSize, (2 * index + 2) * hashSize)), index * hashSize);
    }
    levels.push(level);
    below = level;
  }
  const size = leafData.length;
  const node = ({ level, index }: NodeId): Uint8Array => {
    const bytes = levels[level];
    if (!bytes || (index + 1) * hashSize > bytes.length) throw new RangeError(`node ${level}/${index} is not in a tree of ${size}`);
    return new Uint8Array(bytes.subarray(index * hashSize, (index + 1) * hashSize));
  };
  const checkSize = (at: number) => {
    if (!Number.isSafeInteger(at) || at < 0 || at > size) throw new RangeError(`size ${at} is not within a tree of ${size}`);
  };
  return {
    size,
    node,
    rootAt: (at) => {
      checkSize(at);
      return rootFromPerfect(at, node);
    },
    tilesAt: (at) => {
      checkSize(at);
      const tiles: { id: TileId; hashes: Uint8Array }[] = [];
      for (let level = 0; Math.floor(at / tileWidth ** level) > 0; level += 1) {
        const count = Math.floor(at / tileWidth ** level);
        const bytes = levels[level * levelsPerTile]!;
        for (let index = 0; index * tileWidth < count; index += 1) {
          const end = Math.min(count, (index + 1) * tileWidth);
          tiles.push({ id: { level, index }, hashes: new Uint8Array(bytes.subarray(index * tileWidth * hashSize, end * hashSize)) });
        }
      }
      return tiles;
    },
  };
};
