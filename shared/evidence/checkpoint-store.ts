import { UpdateCommand, type UpdateCommandInput } from '../db/commands';
import { db, tableName } from '../db/client';
import { writtenUnlessRaced } from '../db/errors';
import { queryAll } from '../db/query';
import { named, tryTransaction, type NamedItem } from '../db/transact';
import { eventIdFor, newEvent, outboxPut } from '../events/outbox';
import { logKeys } from './log-keys';
import { readSigningState, type StoredCheckpoint } from './log-store';

/** A checkpoint's own item, kept by size for the history of checkpoints; written once. */
export const checkpointPut = (tenantId: string, checkpoint: StoredCheckpoint) => ({
  TableName: tableName(),
  Item: { ...logKeys.checkpoint(tenantId, checkpoint.treeSize), type: 'LogCheckpoint', ...checkpoint },
  ConditionExpression: 'attribute_not_exists(PK)',
});

/** What a witness needs beside the checkpoint: the one it follows and the proof that it extends it. */
export interface CheckpointLink {
  previousTreeSize: number;
  consistencyProof: string[];
}

/**
 * The log.checkpoint event of a checkpoint, the same id for the same (tenant, size): a tenant's
 * systems keep each note where the operator cannot reach it, and check every new one against it.
 */
export const checkpointEvent = (tenantId: string, checkpoint: StoredCheckpoint, link: CheckpointLink) =>
  newEvent(
    tenantId,
    'log.checkpoint',
    { treeSize: checkpoint.treeSize, rootHash: checkpoint.rootHash, note: checkpoint.note, signedAt: checkpoint.signedAt, keyId: checkpoint.keyId, ...link },
    { id: eventIdFor('log.checkpoint', `${tenantId}/${checkpoint.treeSize}`), timestamp: checkpoint.signedAt },
  );

/** The checkpoint on the head, never replacing a larger one (two checkpointers racing). */
export const headCheckpointUpdate = (tenantId: string, checkpoint: StoredCheckpoint): UpdateCommandInput => ({
  TableName: tableName(),
  Key: logKeys.head(tenantId),
  UpdateExpression: 'SET checkpoint = :checkpoint',
  ConditionExpression: 'attribute_not_exists(checkpoint) OR checkpoint.treeSize < :size',
  ExpressionAttributeValues: { ':checkpoint': checkpoint, ':size': checkpoint.treeSize },
});

/**
 * The head leaves the unsigned index, in one transaction with the proof that the log is still the
 * size that was signed: no batch starts there. A batch appended meanwhile keeps it in, due again.
 */
export const leaveUnsignedItems = (tenantId: string, signedSize: number, checkpoint?: StoredCheckpoint): NamedItem[] => [
  named(
    'log head',
    checkpoint
      ? { Update: { ...headCheckpointUpdate(tenantId, checkpoint), UpdateExpression: 'SET checkpoint = :checkpoint REMOVE GSI1PK, GSI1SK, unsignedSince' } }
      : { Update: { TableName: tableName(), Key: logKeys.head(tenantId), UpdateExpression: 'REMOVE GSI1PK, GSI1SK, unsignedSince', ConditionExpression: 'attribute_exists(PK)' } },
  ),
  named('no later batch', { ConditionCheck: { TableName: tableName(), Key: logKeys.batch(tenantId, signedSize), ConditionExpression: 'attribute_not_exists(PK)' } }),
];

/** False when another integrator or checkpointer moved the head first. */
const updateUnlessRaced = (input: UpdateCommandInput): Promise<boolean> => writtenUnlessRaced(() => db().send(new UpdateCommand(input)));

/**
 * Records a signed checkpoint: its own item and its log.checkpoint event (the outbox) in one
 * transaction, once per size, so every checkpoint is published exactly once; then the head. A
 * retried checkpointer finds the item there and writes no second event. The head leaves the
 * unsigned index only if nothing was appended meanwhile; otherwise the tenant stays due.
 */
export const recordCheckpoint = async (tenantId: string, checkpoint: StoredCheckpoint, link: CheckpointLink): Promise<void> => {
  const outcome = await tryTransaction([named('checkpoint', { Put: checkpointPut(tenantId, checkpoint) }), named('checkpoint event', outboxPut(checkpointEvent(tenantId, checkpoint, link)))]);
  // A concurrent checkpointer recording the same size: the next run records it (the note is archived and kept).
  if (outcome === 'contended') throw new Error(`checkpoint ${checkpoint.treeSize} of tenant ${tenantId} not recorded: a concurrent write; it is retried`);
  // Recorded by another checkpointer, which moves the head too: this one does so only if that one never did (it died in between).
  if (outcome !== 'ok' && ((await readSigningState(tenantId)).checkpoint?.treeSize ?? 0) >= checkpoint.treeSize) return;
  if ((await tryTransaction(leaveUnsignedItems(tenantId, checkpoint.treeSize, checkpoint))) !== 'ok') await updateUnlessRaced(headCheckpointUpdate(tenantId, checkpoint));
};

/** A tenant whose tree is already signed leaves the unsigned index (unless it grew meanwhile). */
export const leaveUnsigned = async (tenantId: string, signedSize: number): Promise<void> => {
  await tryTransaction(leaveUnsignedItems(tenantId, signedSize));
};

/** Tenants whose tree has grown since their last checkpoint (the sparse unsigned index), and since when. */
export const unsignedTenants = async (): Promise<{ tenantId: string; since: string }[]> =>
  (await queryAll({ IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': logKeys.unsignedPartition } })).map((item) => ({
    tenantId: String(item.GSI1SK),
    // Heads integrated before unsignedSince was kept have only their latest integration time.
    since: String(item.unsignedSince ?? item.integratedAt),
  }));

/** Every stored checkpoint with a size in [from, to], oldest first. */
export const readCheckpoints = async (tenantId: string, from: number, to: number): Promise<StoredCheckpoint[]> =>
  (await queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': logKeys.partition(tenantId), ':from': logKeys.checkpointPosition(from), ':to': logKeys.checkpointPosition(to) },
  })) as unknown as StoredCheckpoint[];
