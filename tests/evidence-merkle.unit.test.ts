import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  consistencyNodes,
  consistencyProof,
  emptyRoot,
  fromHex,
  inclusionNodes,
  inclusionProof,
  leafHash,
  nodeHash,
  rootFromPerfect,
  rootNodes,
  toHex,
  verifyConsistency,
  verifyInclusion,
  type NodeId,
} from '../shared/evidence/merkle';
import { buildTree } from '../shared/evidence/full-tree';
import { appendToFrontier, decodeFrontier, encodeFrontier } from '../shared/evidence/frontier';
import { appendLeaves, nodeFromTiles, parseTileName, rightEdgeTiles, tileName, tilesForNodes, type TileId } from '../shared/evidence/tiles';

// Naive reference straight from RFC 9162 §2.1.1, §2.1.3.1, §2.1.4.1, with its own hashing.
const sha = (...parts: Uint8Array[]) => parts.reduce((hash, part) => hash.update(part), createHash('sha256')).digest('hex');
const naiveLeaves = Array.from({ length: 70_000 }, (_, at) => sha(Buffer.from([0]), Buffer.from(`entry ${at}`)));
const leaves = naiveLeaves.map(fromHex);
const largestPowerBelow = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1);
const memo = new Map<string, string>();
/** MTH(D[a:b]) over the leaf hashes above; memoised, as every tree here is a prefix of one list. */
const mth = (a: number, b: number): string => {
  const key = `${a}:${b}`;
  let hash = memo.get(key);
  if (hash === undefined) {
    const n = b - a;
    const k = n > 1 ? largestPowerBelow(n) : 0;
    hash = n === 0 ? sha() : n === 1 ? naiveLeaves[a]! : sha(Buffer.from([1]), fromHex(mth(a, a + k)), fromHex(mth(a + k, b)));
    memo.set(key, hash);
  }
  return hash;
};
const path = (m: number, a: number, b: number): string[] => {
  const n = b - a;
  if (n === 1) return [];
  const k = largestPowerBelow(n);
  return m < k ? [...path(m, a, a + k), mth(a + k, b)] : [...path(m - k, a + k, b), mth(a, a + k)];
};
const subproof = (m: number, a: number, b: number, complete: boolean): string[] => {
  const n = b - a;
  if (m === n) return complete ? [] : [mth(a, b)];
  const k = largestPowerBelow(n);
  return m <= k ? [...subproof(m, a, a + k, complete), mth(a + k, b)] : [...subproof(m - k, a + k, b, false), mth(a, a + k)];
};
const naiveProof = (m: number, n: number) => (m === 0 || m === n ? [] : subproof(m, 0, n, true));

// Deterministic PRNG (mulberry32) so failures reproduce.
const random = (() => {
  let seed = 0x9162;
  return (below: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
})();

type Store = Map<string, Uint8Array>;
/** Appends to a store the way the integrator does: reads only the right-edge tiles back. */
const append = (store: Store, size: number, more: Uint8Array[]) => {
  const edge = new Map(rightEdgeTiles(size).flatMap((id) => (store.has(tileName(id)) ? [[tileName(id), store.get(tileName(id))!] as const] : [])));
  const result = appendLeaves(size, edge, more);
  for (const tile of result.tiles) store.set(tileName(tile.id), tile.hashes);
  return result;
};
/** A reader that fails on nodes the *Nodes list did not announce, or tiles tilesForNodes did not name. */
const readerFor = (store: Store, nodes: NodeId[], size: number, cache = new Map<string, Uint8Array>()) => {
  const allowedNodes = new Set(nodes.map((id) => `${id.level}/${id.index}`));
  const allowedTiles = new Set(tilesForNodes(nodes, size).map(tileName));
  return (id: NodeId) => {
    const key = `${id.level}/${id.index}`;
    if (!allowedNodes.has(key)) throw new Error(`unannounced node ${key}`);
    // Hashing a node up from its tile costs up to 255 hashes: reuse it across one size's proofs.
    const hash = cache.get(key) ?? nodeFromTiles(id, (tile: TileId) => (allowedTiles.has(tileName(tile)) ? store.get(tileName(tile)) : undefined));
    cache.set(key, hash);
    return hash;
  };
};
const flip = (hash: Uint8Array) => {
  const copy = hash.slice();
  copy[7] = copy[7]! ^ 1;
  return copy;
};
const sample = (n: number, count: number) => (n <= count ? Array.from({ length: n }, (_, at) => at) : [0, n - 1, ...Array.from({ length: count - 2 }, () => random(n))]);

describe('RFC 9162 Merkle tree (known vectors)', () => {
  const data = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(fromHex);
  const ct = data.map(leafHash);
  const roots = [
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
    'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
    'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
    'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
    '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
    'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
    '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
  ];

  it('matches the Certificate Transparency test vectors (transparency-dev/merkle testonly)', () => {
    expect(toHex(emptyRoot)).toBe(roots[0]);
    for (let n = 0; n <= 8; n += 1) expect(toHex(appendLeaves(0, new Map(), ct.slice(0, n)).root)).toBe(roots[n]);
    const store: Store = new Map();
    append(store, 0, ct);
    const read = (nodes: NodeId[]) => readerFor(store, nodes, 8);
    const proofOf = (m: number, n: number) => inclusionProof(m, n, read(inclusionNodes(m, n))).map(toHex);
    const consistencyOf = (m: number, n: number) => consistencyProof(m, n, read(consistencyNodes(m, n))).map(toHex);
    expect(proofOf(0, 8)).toEqual(['96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7', '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4']);
    expect(proofOf(5, 8)).toEqual(['bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b', 'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0', 'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7']);
    expect(consistencyOf(2, 8)).toEqual(['5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4']);
    expect(consistencyOf(6, 8)).toEqual(['0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a', 'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0', 'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7']);
    expect(consistencyOf(2, 5)).toEqual(['5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', 'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b']);
    expect(verifyConsistency(6, 8, fromHex(roots[6]!), fromHex(roots[8]!), consistencyProof(6, 8, read(consistencyNodes(6, 8))))).toBe(true);
  });

  it('hashes with the RFC prefixes, and hex round-trips', () => {
    const [a, b] = [leafHash(fromHex('00')), leafHash(fromHex('10'))] as const;
    expect(toHex(nodeHash(a, b))).toBe(sha(Buffer.from([1]), a, b));
    expect(toHex(fromHex('00ff10AB'))).toBe('00ff10ab');
    expect(() => fromHex('abc')).toThrow();
    expect(() => fromHex('zz')).toThrow();
  });
});

describe('tiles', () => {
  it('names round-trip and right-edge tiles are the partial ones', () => {
    for (const id of [{ level: 0, index: 0 }, { level: 3, index: 123456789 }]) expect(parseTileName(tileName(id))).toEqual(id);
    expect(() => parseTileName('0/01')).toThrow();
    expect(rightEdgeTiles(0)).toEqual([]);
    expect(rightEdgeTiles(256)).toEqual([{ level: 1, index: 0 }]);
    expect(rightEdgeTiles(65537).map(tileName)).toEqual(['0/256', '2/0']);
    expect(rootNodes(0)).toEqual([]);
    expect(rootNodes(6)).toEqual([{ level: 2, index: 0 }, { level: 1, index: 2 }]);
  });

  it('appendLeaves gives the RFC root, all at once and in random chunks, for sizes 0..300 and larger', () => {
    expect(appendLeaves(0, new Map(), [])).toEqual({ tiles: [], size: 0, root: emptyRoot });
    for (let n = 1; n <= 300; n += 1) expect(toHex(appendLeaves(0, new Map(), leaves.slice(0, n)).root), `size ${n}`).toBe(mth(0, n));
    const store: Store = new Map();
    for (let size = 0; size < 300; ) {
      const next = Math.min(300, size + 1 + random(size < 20 ? 3 : 40));
      const result = append(store, size, leaves.slice(size, next));
      expect([result.size, toHex(result.root)], `chunk ${size}..${next}`).toEqual([next, mth(0, next)]);
      // Re-reading the edge with nothing to add changes nothing and gives the same root.
      const idle = append(store, next, []);
      expect([idle.tiles.length, toHex(idle.root)]).toEqual([0, mth(0, next)]);
      size = next;
    }
    expect(toHex(store.get('0/0')!)).toBe(naiveLeaves.slice(0, 256).join(''));
    expect(toHex(store.get('1/0')!)).toBe(mth(0, 256));
  });

  it('handles 65537 and 70000 leaves, chunked or not, with identical tiles', () => {
    for (const n of [1000, 65537, 70_000]) expect(toHex(appendLeaves(0, new Map(), leaves.slice(0, n)).root), `size ${n}`).toBe(mth(0, n));
    const whole: Store = new Map();
    append(whole, 0, leaves);
    const chunked: Store = new Map();
    for (let size = 0; size < 70_000; ) {
      const next = Math.min(70_000, size + 1 + random(9000));
      expect(toHex(append(chunked, size, leaves.slice(size, next)).root)).toBe(mth(0, next));
      size = next;
    }
    expect([...chunked.keys()].sort()).toEqual([...whole.keys()].sort());
    for (const [name, hashes] of whole) expect(toHex(chunked.get(name)!), name).toBe(toHex(hashes));
    expect(whole.get('2/0')!.length).toBe(32);
    expect(rootFromPerfect(70_000, readerFor(whole, rootNodes(70_000), 70_000))).toEqual(fromHex(mth(0, 70_000)));
    // Proofs deep in a large tree cross tile levels.
    for (const m of [0, 65535, 65536, 69_999, random(70_000)]) {
      const proof = inclusionProof(m, 70_000, readerFor(whole, inclusionNodes(m, 70_000), 70_000));
      expect(proof.map(toHex)).toEqual(path(m, 0, 70_000));
      expect(verifyInclusion(m, 70_000, leaves[m]!, proof, fromHex(mth(0, 70_000)))).toBe(true);
    }
    for (const [m, n] of [[1, 70_000], [256, 65537], [65536, 70_000], [65537, 69_999], [12345, 70_000]] as const) {
      const proof = consistencyProof(m, n, readerFor(whole, consistencyNodes(m, n), n));
      expect(proof.map(toHex)).toEqual(naiveProof(m, n));
      expect(verifyConsistency(m, n, fromHex(mth(0, m)), fromHex(mth(0, n)), proof)).toBe(true);
    }
  });

  it('ignores stored hashes past the size (a crashed integrator wrote them) and names missing tiles', () => {
    const store: Store = new Map();
    append(store, 0, leaves.slice(0, 300));
    const redo = appendLeaves(3, new Map([['0/0', store.get('0/0')!]]), leaves.slice(3, 300));
    expect(toHex(redo.root)).toBe(mth(0, 300));
    for (const tile of redo.tiles) expect(toHex(tile.hashes)).toBe(toHex(store.get(tileName(tile.id))!));
    expect(() => appendLeaves(3, new Map(), leaves.slice(3, 5))).toThrow(/0\/0/);
    expect(() => nodeFromTiles({ level: 9, index: 0 }, () => undefined)).toThrow(/tile 1\/0/);
    expect(() => nodeFromTiles({ level: 2, index: 1 }, () => store.get('0/0')!.slice(0, 7 * 32))).toThrow(/needs 8/);
  });
});

describe('the whole tree in memory (what verification recomputes)', () => {
  it('gives the RFC root at every size, the tiles the integrator writes, and proofs equal to the reference', () => {
    const tree = buildTree(naiveLeaves.map((_, at) => Buffer.from(`entry ${at}`)));
    expect(tree.size).toBe(70_000);
    for (const n of [0, 1, 2, 3, 255, 256, 257, 65535, 65536, 65537, 70_000, random(70_000)]) expect(toHex(tree.rootAt(n)), `size ${n}`).toBe(mth(0, n));
    const written = new Map(appendLeaves(0, new Map(), leaves.slice(0, 300)).tiles.map((tile) => [tileName(tile.id), toHex(tile.hashes)]));
    expect(new Map(tree.tilesAt(300).map((tile) => [tileName(tile.id), toHex(tile.hashes)]))).toEqual(written);
    const top = tree.tilesAt(70_000).find((tile) => tileName(tile.id) === '2/0');
    expect(top && toHex(top.hashes)).toBe(mth(0, 65536));
    for (const [m, n] of [[1, 70_000], [256, 65537], [12345, 70_000]] as const) expect(consistencyProof(m, n, tree.node).map(toHex)).toEqual(naiveProof(m, n));
    expect(() => tree.rootAt(70_001)).toThrow(RangeError);
  });
});

describe('proofs from tiles against the naive RFC 9162 reference, sizes 1..300', () => {
  // Grown one leaf at a time, so each size is proved from exactly the tiles of that size.
  const store: Store = new Map();
  const roots = [emptyRoot];
  const cases: { n: number; inclusion: [number, Uint8Array[]][]; consistency: [number, Uint8Array[]][] }[] = [];
  for (let n = 1; n <= 300; n += 1) {
    roots.push(append(store, n - 1, [leaves[n - 1]!]).root);
    const cache = new Map<string, Uint8Array>();
    const inclusion = sample(n, 10).map((m) => [m, inclusionProof(m, n, readerFor(store, inclusionNodes(m, n), n, cache))] as [number, Uint8Array[]]);
    const froms = [...new Set([0, n, ...sample(n, 10), ...[1, 2, 4, 8, 16, 32, 64, 128, 256].filter((m) => m < n)])];
    const consistency = froms.map((m) => [m, consistencyProof(m, n, readerFor(store, consistencyNodes(m, n), n, cache))] as [number, Uint8Array[]]);
    cases.push({ n, inclusion, consistency });
  }

  it('inclusion proofs equal PATH, verify, and reject alterations', () => {
    for (const { n, inclusion } of cases) {
      const root = roots[n]!;
      for (const [m, proof] of inclusion) {
        const label = `leaf ${m} of ${n}`;
        expect(proof.map(toHex), label).toEqual(path(m, 0, n));
        expect(verifyInclusion(m, n, leaves[m]!, proof, root), label).toBe(true);
        expect(verifyInclusion(m, n, flip(leaves[m]!), proof, root), label).toBe(false);
        expect(verifyInclusion(m, n, leaves[m]!, proof, flip(root)), label).toBe(false);
        if (n < 300) expect(verifyInclusion(m, n + 1, leaves[m]!, proof, roots[n + 1]!), label).toBe(false);
        expect(verifyInclusion(n, n, leaves[m]!, proof, root), label).toBe(false);
        expect(verifyInclusion(m, n, leaves[m]!, [...proof, leaves[0]!], root), label).toBe(false);
        if (proof.length > 0) {
          expect(verifyInclusion(m, n, leaves[m]!, proof.slice(0, -1), root), label).toBe(false);
          for (let at = 0; at < proof.length; at += 1) expect(verifyInclusion(m, n, leaves[m]!, proof.with(at, flip(proof[at]!)), root), `${label} #${at}`).toBe(false);
        }
        if (n > 1) expect(verifyInclusion((m + 1) % n, n, leaves[m]!, proof, root), label).toBe(false);
      }
    }
  });

  it('consistency proofs equal PROOF, verify, and reject alterations', () => {
    for (const { n, consistency } of cases) {
      for (const [m, proof] of consistency) {
        const label = `${m} -> ${n}`;
        const [from, to] = [roots[m]!, roots[n]!];
        expect(proof.map(toHex), label).toEqual(naiveProof(m, n));
        expect(verifyConsistency(m, n, from, to, proof), label).toBe(true);
        if (m === 0) expect(verifyConsistency(0, n, leaves[0]!, to, proof), label).toBe(false);
        if (m > 0) expect(verifyConsistency(m, n, flip(from), to, proof), label).toBe(false);
        if (m > 0 && m < n) {
          expect(verifyConsistency(m, n, from, flip(to), proof), label).toBe(false);
          if (n < 300) expect(verifyConsistency(m, n + 1, from, roots[n + 1]!, proof), label).toBe(false);
          expect(verifyConsistency(m, n, from, to, proof.slice(0, -1)), label).toBe(false);
          for (let at = 0; at < proof.length; at += 1) expect(verifyConsistency(m, n, from, to, proof.with(at, flip(proof[at]!))), `${label} #${at}`).toBe(false);
        }
        expect(verifyConsistency(m, n, from, to, [...proof, leaves[0]!]), label).toBe(false);
        if (m === n && n > 1) expect(verifyConsistency(m, n, roots[n - 1]!, to, proof), label).toBe(false);
      }
    }
    expect(verifyConsistency(5, 3, roots[5]!, roots[3]!, [])).toBe(false);
    expect(() => consistencyProof(5, 3, () => emptyRoot)).toThrow(RangeError);
    expect(() => inclusionProof(3, 3, () => emptyRoot)).toThrow(RangeError);
  });
});

describe('the right edge (frontier.ts)', () => {
  it('appends leaves in any batches to the same root and edge as the whole tree', () => {
    const leaves = Array.from({ length: 1000 }, (_, index) => leafHash(new Uint8Array([index % 256, Math.floor(index / 256)])));
    const tree = buildTree(leaves.map((_, index) => new Uint8Array([index % 256, Math.floor(index / 256)])));
    let state: ReturnType<typeof appendToFrontier> = { size: 0, frontier: [], root: new Uint8Array() };
    for (const batch of [1, 2, 3, 250, 6, 255, 1, 482]) {
      state = appendToFrontier(state.size, state.frontier, leaves.slice(state.size, state.size + batch));
      expect(Buffer.from(state.root).equals(Buffer.from(tree.rootAt(state.size)))).toBe(true);
      expect(decodeFrontier(encodeFrontier(state.frontier)).map((hash) => Buffer.from(hash).toString('hex'))).toEqual(rootNodes(state.size).map((node) => Buffer.from(tree.node(node)).toString('hex')));
    }
    expect(state.size).toBe(1000);
    expect(() => appendToFrontier(3, state.frontier, [])).toThrow(/right edge/);
  });
});
