import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client';
import { writtenUnlessRaced } from '../db/errors';
import { queryAll } from '../db/query';
import { named, tryTransaction } from '../db/transact';
import { eventIdFor, newEvent, outboxPut } from '../events/outbox';
import { logKeys } from './log-keys';
import type { StoredCheckpoint } from './log-store';

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

/**
 * The checkpoint on the head, never replacing a larger one (two checkpointers racing). With
 * `leaveUnsigned`, the head also leaves the unsigned index, only if nothing was integrated since.
 */
export const headCheckpointUpdate = (tenantId: string, checkpoint: StoredCheckpoint, leaveUnsigned: boolean): UpdateCommandInput => {
  const newer = '(attribute_not_exists(checkpoint) OR checkpoint.treeSize < :size)';
  return {
    TableName: tableName(),
    Key: logKeys.head(tenantId),
    UpdateExpression: leaveUnsigned ? 'SET checkpoint = :checkpoint REMOVE GSI1PK, GSI1SK, unsignedSince' : 'SET checkpoint = :checkpoint',
    ConditionExpression: leaveUnsigned ? `integrated = :size AND ${newer}` : newer,
    ExpressionAttributeValues: { ':checkpoint': checkpoint, ':size': checkpoint.treeSize },
  };
};

/** The head leaves the unsigned index, if its tree is still the size that was signed. */
export const leaveUnsignedUpdate = (tenantId: string, signedSize: number): UpdateCommandInput => ({
  TableName: tableName(),
  Key: logKeys.head(tenantId),
  UpdateExpression: 'REMOVE GSI1PK, GSI1SK, unsignedSince',
  ConditionExpression: 'integrated = :size',
  ExpressionAttributeValues: { ':size': signedSize },
});

/** False when another integrator or checkpointer moved the head first. */
const updateUnlessRaced = (input: UpdateCommandInput): Promise<boolean> => writtenUnlessRaced(() => db().send(new UpdateCommand(input)));

/**
 * Records a signed checkpoint: its own item and its log.checkpoint event (the outbox) in one
 * transaction, once per size, so every checkpoint is published exactly once; then the head. A
 * retried checkpointer finds the item there and writes no second event. The head leaves the
 * unsigned index only if nothing was integrated meanwhile; otherwise the tenant stays due.
 */
export const recordCheckpoint = async (tenantId: string, checkpoint: StoredCheckpoint, link: CheckpointLink): Promise<void> => {
  const outcome = await tryTransaction([named('checkpoint', { Put: checkpointPut(tenantId, checkpoint) }), named('checkpoint event', outboxPut(checkpointEvent(tenantId, checkpoint, link)))]);
  // A concurrent checkpointer recording the same size: the next run records it (the note is archived and kept).
  if (outcome === 'contended') throw new Error(`checkpoint ${checkpoint.treeSize} of tenant ${tenantId} not recorded: a concurrent write; it is retried`);
  const cleared = await updateUnlessRaced(headCheckpointUpdate(tenantId, checkpoint, true));
  if (!cleared) await updateUnlessRaced(headCheckpointUpdate(tenantId, checkpoint, false));
};

/** A tenant whose tree is already signed leaves the unsigned index (unless it grew meanwhile). */
export const leaveUnsigned = async (tenantId: string, signedSize: number): Promise<void> => {
  await updateUnlessRaced(leaveUnsignedUpdate(tenantId, signedSize));
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
