import { emptyRoot, nodeHash, rootNodes } from './merkle';

/**
 * The right edge of a tree of `size` leaves: the hashes of the perfect subtrees `rootNodes(size)`
 * lists, largest (leftmost) first, at most one per bit of the size (20 for a million leaves, 640
 * bytes). It is all a sequencer needs to append leaves and to compute the RFC 9162 root after them:
 * every batch stores the edge it leaves behind (log-store.ts), so appending reads nothing else.
 */

const hashSize = 32;

/** The edge and root of the tree after `leaves` (leaf hashes) are appended to a tree of `size` with edge `frontier`. */
export const appendToFrontier = (size: number, frontier: readonly Uint8Array[], leaves: readonly Uint8Array[]) => {
  const levels = rootNodes(size).map((node) => node.level);
  if (levels.length !== frontier.length) throw new Error(`the right edge of a tree of ${size} has ${levels.length} hashes, not ${frontier.length}`);
  const stack = frontier.map((hash, index) => ({ hash, level: levels[index]! }));
  for (const leaf of leaves) {
    let top = { hash: leaf, level: 0 };
    // Two perfect subtrees of one height, side by side, are one of the next height.
    while (stack.length > 0 && stack[stack.length - 1]!.level === top.level) {
      const left = stack.pop()!;
      top = { hash: nodeHash(left.hash, top.hash), level: top.level + 1 };
    }
    stack.push(top);
  }
  let root = stack.length === 0 ? emptyRoot.slice() : stack[stack.length - 1]!.hash;
  for (let at = stack.length - 2; at >= 0; at -= 1) root = nodeHash(stack[at]!.hash, root);
  return { size: size + leaves.length, frontier: stack.map((entry) => entry.hash), root };
};

export const encodeFrontier = (frontier: readonly Uint8Array[]): Uint8Array => {
  const bytes = new Uint8Array(frontier.length * hashSize);
  frontier.forEach((hash, index) => bytes.set(hash, index * hashSize));
  return bytes;
};

export const decodeFrontier = (bytes: Uint8Array): Uint8Array[] =>
  Array.from({ length: Math.floor(bytes.length / hashSize) }, (_, index) => new Uint8Array(bytes.subarray(index * hashSize, (index + 1) * hashSize)));
