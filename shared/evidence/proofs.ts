import { NotFoundError, ValidationError } from '../errors';
import { readCheckpoints } from './checkpoint-store';
import { positionsOf } from './log-map';
import { readHead, readTiles, type StoredCheckpoint } from './log-store';
import { consistencyNodes, consistencyProof, inclusionNodes, inclusionProof, rootFromPerfect, rootNodes, toHex, type NodeId } from './merkle';
import { nodeFromTiles, tileName, tilesForNodes } from './tiles';

/**
 * Perfect-subtree hashes of a tree of `size`, read from the tiles that hold them (both places a
 * tile can be in: proofs do not read the head to know which).
 */
const nodeReader = async (tenantId: string, nodes: NodeId[], size: number) => {
  const tiles = await readTiles(tenantId, tilesForNodes(nodes, size).map(tileName), Number.POSITIVE_INFINITY);
  return (id: NodeId) => nodeFromTiles(id, (tile) => tiles.get(tileName(tile)));
};

export interface LogProof {
  status: 'INTEGRATED' | 'PENDING';
  leafIndex: number | null;
  treeSize: number;
  inclusionProof: string[];
  rootHash: string | null;
  checkpoint: StoredCheckpoint | null;
}

/** An entry's place in the tree of one checkpoint: PENDING (no inclusion proof) when the checkpoint does not cover it yet. */
export interface EntryProof {
  status: LogProof['status'];
  leafIndex: number | null;
  inclusionProof: string[];
}

/**
 * Where each entry sits in the tenant's log and the proof that it is there, all against ONE
 * checkpoint, the latest signed one, read once (so a checkpoint signed meanwhile cannot split the
 * entries between two trees). An entry is PENDING until a checkpoint covers it (sequencing and
 * signing follow the write by seconds); its leaf index is known as soon as it is sequenced.
 */
export const logProofsAt = async (tenantId: string, entryIds: readonly string[]): Promise<{ checkpoint: StoredCheckpoint | null; proofs: Map<string, EntryProof> }> => {
  const [positions, head] = await Promise.all([positionsOf(tenantId, entryIds), readHead(tenantId)]);
  const checkpoint = head.checkpoint;
  const size = checkpoint?.treeSize ?? 0;
  const covered = entryIds.filter((id) => (positions.get(id) ?? size) < size);
  const paths = await inclusionsAt(tenantId, covered.map((id) => positions.get(id)!), size);
  const proofs = new Map<string, EntryProof>(entryIds.map((id) => [id, { status: 'PENDING', leafIndex: positions.get(id) ?? null, inclusionProof: [] }]));
  covered.forEach((id, index) => proofs.set(id, { status: 'INTEGRATED', leafIndex: positions.get(id)!, inclusionProof: paths[index]! }));
  return { checkpoint, proofs };
};

/** One entry's place in the log, against the latest signed checkpoint, as the proof endpoint shows it. */
export const logProofOf = async (tenantId: string, entryId: string): Promise<LogProof> => {
  const { checkpoint, proofs } = await logProofsAt(tenantId, [entryId]);
  return { ...proofs.get(entryId)!, treeSize: checkpoint?.treeSize ?? 0, rootHash: checkpoint?.rootHash ?? null, checkpoint };
};

/** RFC 9162 §2.1.3 inclusion proofs of leaves in the tree of `size` (any integrated size: perfect subtrees never change), reading each tile once. */
export const inclusionsAt = async (tenantId: string, leafIndexes: readonly number[], size: number): Promise<string[][]> => {
  if (leafIndexes.length === 0) return [];
  const read = await nodeReader(tenantId, leafIndexes.flatMap((leafIndex) => inclusionNodes(leafIndex, size)), size);
  return leafIndexes.map((leafIndex) => inclusionProof(leafIndex, size, read).map(toHex));
};

export const inclusionAt = async (tenantId: string, leafIndex: number, size: number): Promise<string[]> => (await inclusionsAt(tenantId, [leafIndex], size))[0]!;

/** RFC 9162 §2.1.4 consistency proof from the tree of `from` to the tree of `to` (both integrated sizes). */
export const consistencyAt = async (tenantId: string, from: number, to: number): Promise<string[]> => {
  const read = await nodeReader(tenantId, consistencyNodes(from, to), to);
  return consistencyProof(from, to, read).map(toHex);
};

/** The root of the tenant's tree at an integrated `size`, hex, composed from the stored tiles. */
export const rootAt = async (tenantId: string, size: number): Promise<string> => {
  const read = await nodeReader(tenantId, rootNodes(size), size);
  return toHex(rootFromPerfect(size, read));
};

export const checkpointView = (checkpoint: StoredCheckpoint) => ({
  treeSize: checkpoint.treeSize,
  rootHash: checkpoint.rootHash,
  signedAt: checkpoint.signedAt,
  keyId: checkpoint.keyId,
  note: checkpoint.note,
});

export const latestCheckpoint = async (tenantId: string) => {
  const { checkpoint } = await readHead(tenantId);
  if (!checkpoint) throw new NotFoundError('Signed checkpoint');
  return checkpointView(checkpoint);
};

/** Every signed checkpoint with a size in [from, to], oldest first (the verifier's and the tests' history). */
export const checkpointsBetween = async (tenantId: string, from: number, to: number): Promise<StoredCheckpoint[]> => {
  return (await readCheckpoints(tenantId, from, to)).map(checkpointView);
};

/** RFC 9162 §2.1.4 consistency proof between two tree sizes, both within the latest signed checkpoint. */
export const consistencyBetween = async (tenantId: string, from: number, to: number) => {
  const { checkpoint } = await readHead(tenantId);
  const signed = checkpoint?.treeSize ?? 0;
  if (to > signed) throw new ValidationError({ to: `must not exceed the latest signed tree size (${signed})` });
  if (from > to) throw new ValidationError({ from: 'must not exceed to' });
  return { from, to, proof: await consistencyAt(tenantId, from, to) };
};

/**
 * The latest signed checkpoint now, and the RFC 9162 consistency proof that its tree extends the
 * tree of `since` (an earlier reading): empty when no checkpoint was signed in between.
 */
export const extensionOf = async (tenantId: string, since: StoredCheckpoint | null): Promise<{ checkpoint: StoredCheckpoint | null; proof: string[] }> => {
  if (!since) return { checkpoint: null, proof: [] };
  const { checkpoint: latest } = await readHead(tenantId);
  if (!latest || latest.treeSize <= since.treeSize) return { checkpoint: checkpointView(since), proof: [] };
  return { checkpoint: checkpointView(latest), proof: (await consistencyBetween(tenantId, since.treeSize, latest.treeSize)).proof };
};
