import { NotFoundError, ValidationError } from '../errors';
import { readCheckpoints } from './checkpoint-store';
import { positionOf, readHead, readTiles, type StoredCheckpoint } from './log-store';
import { consistencyNodes, consistencyProof, inclusionNodes, inclusionProof, rootFromPerfect, rootNodes, toHex, type NodeId } from './merkle';
import { nodeFromTiles, tileName, tilesForNodes } from './tiles';

/** Perfect-subtree hashes of a tree of `size`, read from the tiles that hold them. */
const nodeReader = async (tenantId: string, nodes: NodeId[], size: number) => {
  const tiles = await readTiles(tenantId, tilesForNodes(nodes, size).map(tileName));
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

/**
 * Where an entry sits in the tenant's log and the proof that it is there, against the latest
 * signed checkpoint. PENDING until a checkpoint covers it (sequencing and signing follow the
 * write by seconds); the leaf index is known as soon as it is sequenced.
 */
export const logProofOf = async (tenantId: string, entryId: string): Promise<LogProof> => {
  const [leafIndex, head] = await Promise.all([positionOf(tenantId, entryId), readHead(tenantId)]);
  const checkpoint = head.checkpoint;
  if (leafIndex === undefined || !checkpoint || leafIndex >= checkpoint.treeSize) {
    return { status: 'PENDING', leafIndex: leafIndex ?? null, treeSize: checkpoint?.treeSize ?? 0, inclusionProof: [], rootHash: checkpoint?.rootHash ?? null, checkpoint };
  }
  const size = checkpoint.treeSize;
  return { status: 'INTEGRATED', leafIndex, treeSize: size, inclusionProof: await inclusionAt(tenantId, leafIndex, size), rootHash: checkpoint.rootHash, checkpoint };
};

/** RFC 9162 §2.1.3 inclusion proof of a leaf in the tree of `size` (any integrated size: perfect subtrees never change). */
export const inclusionAt = async (tenantId: string, leafIndex: number, size: number): Promise<string[]> => {
  const read = await nodeReader(tenantId, inclusionNodes(leafIndex, size), size);
  return inclusionProof(leafIndex, size, read).map(toHex);
};

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
