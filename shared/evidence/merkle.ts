import { createHash } from 'node:crypto';

/**
 * RFC 9162 (Certificate Transparency v2) Merkle tree math, pure and storage-agnostic.
 *
 * Proofs are built only from hashes of PERFECT subtrees (NodeId), because those never change
 * once complete and are what the tiles store. The RFC's non-perfect right-edge subtrees
 * MTH(D[k:n]) are composed from the perfect subtrees given by the binary representation of n-k.
 * Sizes and indices are plain numbers (below 2^52): bit operators would truncate to 32 bits, so
 * halving and parity use Math.floor and %.
 */

/** The perfect subtree of height `level` covering leaves [index·2^level, (index+1)·2^level). */
export interface NodeId {
  level: number;
  index: number;
}

export type NodeReader = (id: NodeId) => Uint8Array;

const sha256 = (...parts: Uint8Array[]): Uint8Array => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  // A plain Uint8Array (not a Buffer) so callers' equality checks compare like with like.
  return new Uint8Array(hash.digest());
};

const leafPrefix = new Uint8Array([0x00]);
const nodePrefix = new Uint8Array([0x01]);

export const toHex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

export const fromHex = (hex: string): Uint8Array => {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new Error(`not a hex string: ${hex.slice(0, 80)}`);
  return new Uint8Array(Buffer.from(hex, 'hex'));
};

export const leafHash = (data: Uint8Array): Uint8Array => sha256(leafPrefix, data);
export const nodeHash = (left: Uint8Array, right: Uint8Array): Uint8Array => sha256(nodePrefix, left, right);
/** MTH({}) = SHA-256(""). Shared instance: copy it before mutating. */
export const emptyRoot: Uint8Array = sha256();

const assertSize = (name: string, value: number) => {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
};

/** Largest power of two strictly smaller than n (n > 1): the RFC's split point k. */
const splitPoint = (n: number): number => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};

/**
 * The perfect subtrees making up D[start:start+width], largest (leftmost) first. `start` is
 * always a multiple of a power of two ≥ width in the RFC recursions, so each piece is aligned.
 */
const decompose = (start: number, width: number): NodeId[] => {
  const nodes: NodeId[] = [];
  let power = 1;
  let level = 0;
  while (power * 2 <= width) {
    power *= 2;
    level += 1;
  }
  for (; width > 0; power /= 2, level -= 1) {
    if (width < power) continue;
    if (start % power !== 0) throw new Error(`unaligned subtree at ${start} of width ${power}`);
    nodes.push({ level, index: start / power });
    start += power;
    width -= power;
  }
  return nodes;
};

/** MTH of consecutive perfect subtrees: the RFC splits at the largest power first, so fold from the right. */
const compose = (hashes: Uint8Array[]): Uint8Array => {
  let hash = hashes[hashes.length - 1];
  if (!hash) throw new Error('no subtree to compose');
  for (let at = hashes.length - 2; at >= 0; at -= 1) hash = nodeHash(hashes[at]!, hash);
  return hash;
};

/** Each proof element as the perfect nodes composing it. RFC 9162 §2.1.3.1 PATH(m, D[start:start+n]), leaf to root. */
const pathElements = (m: number, start: number, n: number): NodeId[][] => {
  const elements: NodeId[][] = [];
  // Iterative descent collects root-side elements first; the proof lists them last.
  while (n > 1) {
    const k = splitPoint(n);
    if (m < k) {
      elements.push(decompose(start + k, n - k));
      n = k;
    } else {
      elements.push(decompose(start, k));
      m -= k;
      start += k;
      n -= k;
    }
  }
  return elements.reverse();
};

/** RFC 9162 §2.1.4.1 SUBPROOF(m, D[start:start+n], b), element by element. */
const subproofElements = (m: number, start: number, n: number, complete: boolean): NodeId[][] => {
  const elements: NodeId[][] = [];
  while (m !== n) {
    const k = splitPoint(n);
    if (m <= k) {
      elements.push(decompose(start + k, n - k));
      n = k;
    } else {
      elements.push(decompose(start, k));
      m -= k;
      start += k;
      n -= k;
      complete = false;
    }
  }
  if (!complete) elements.push(decompose(start, m));
  return elements.reverse();
};

const inclusionElements = (leafIndex: number, size: number) => {
  assertSize('size', size);
  assertSize('leafIndex', leafIndex);
  if (leafIndex >= size) throw new RangeError(`leaf ${leafIndex} is not in a tree of ${size}`);
  return pathElements(leafIndex, 0, size);
};

/** Proof for from == 0 or from == to is empty (nothing to prove; verifyConsistency accepts only []). */
const consistencyElements = (from: number, to: number) => {
  assertSize('from', from);
  assertSize('to', to);
  if (from > to) throw new RangeError(`from (${from}) must not exceed to (${to})`);
  return from === 0 || from === to ? [] : subproofElements(from, 0, to, true);
};

export const inclusionNodes = (leafIndex: number, size: number): NodeId[] => inclusionElements(leafIndex, size).flat();

export const inclusionProof = (leafIndex: number, size: number, read: NodeReader): Uint8Array[] =>
  inclusionElements(leafIndex, size).map((nodes) => compose(nodes.map(read)));

export const consistencyNodes = (from: number, to: number): NodeId[] => consistencyElements(from, to).flat();

export const consistencyProof = (from: number, to: number, read: NodeReader): Uint8Array[] =>
  consistencyElements(from, to).map((nodes) => compose(nodes.map(read)));

/** The right-edge perfect subtrees whose composition is the root of `size` (empty for 0). */
export const rootNodes = (size: number): NodeId[] => {
  assertSize('size', size);
  return decompose(0, size);
};

export const rootFromPerfect = (size: number, read: NodeReader): Uint8Array => (size === 0 ? emptyRoot.slice() : compose(rootNodes(size).map(read)));

const sameHash = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, at) => byte === b[at]);
const isHash = (value: unknown): value is Uint8Array => value instanceof Uint8Array && value.length === 32;
const odd = (x: number) => x % 2 === 1;
const half = (x: number) => Math.floor(x / 2);

/** RFC 9162 §2.1.3.2. Returns false (never throws) for malformed input. */
export const verifyInclusion = (leafIndex: number, size: number, leaf: Uint8Array, proof: Uint8Array[], root: Uint8Array): boolean => {
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(size) || leafIndex < 0 || leafIndex >= size) return false;
  if (!isHash(leaf) || !isHash(root) || !proof.every(isHash)) return false;
  let fn = leafIndex;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && sameHash(r, root);
};

/**
 * RFC 9162 §2.1.4.2. Edge cases (outside the RFC's 0 < from < to): from == to needs an empty
 * proof and equal roots; from == 0 needs an empty proof and fromRoot == the empty root (every
 * tree extends the empty one). Returns false (never throws) for malformed input.
 */
export const verifyConsistency = (from: number, to: number, fromRoot: Uint8Array, toRoot: Uint8Array, proof: Uint8Array[]): boolean => {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || from > to) return false;
  if (!isHash(fromRoot) || !isHash(toRoot) || !proof.every(isHash)) return false;
  if (from === to) return proof.length === 0 && sameHash(fromRoot, toRoot);
  if (from === 0) return proof.length === 0 && sameHash(fromRoot, emptyRoot);
  if (proof.length === 0) return false;
  // A power-of-two `from` is a complete subtree whose hash the proof omits: it is fromRoot.
  const path = decompose(0, from).length === 1 ? [fromRoot, ...proof] : proof;
  let fn = from - 1;
  let sn = to - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sameHash(fr, fromRoot) && sameHash(sr, toRoot) && sn === 0;
};
