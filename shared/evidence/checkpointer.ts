import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock';
import { config } from '../config';
import { db, tableName } from '../db/client';
import { isConditionFailure } from '../db/errors';
import { queryAll } from '../db/query';
import { describeError, log } from '../log';
import { archiveCheckpoint } from './archive';
import { logOrigin, signCheckpoint } from './checkpoint';
import { logKeys } from './log-keys';
import { readHead, type StoredCheckpoint } from './log-store';
import { fromHex } from './merkle';
import { checkpointSigner } from './signers';

const updateQuietly = async (input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<boolean> => {
  try {
    await db().send(new UpdateCommand(input));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/**
 * Records a signed checkpoint on the head. It leaves the unsigned index only if nothing was
 * integrated meanwhile; otherwise the tenant stays due for the next round. A checkpoint never
 * replaces a larger one (two checkpointers racing).
 */
const recordCheckpoint = async (tenantId: string, checkpoint: StoredCheckpoint) => {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...logKeys.checkpoint(tenantId, checkpoint.treeSize), type: 'LogCheckpoint', ...checkpoint } }));
  const common = {
    TableName: tableName(),
    Key: logKeys.head(tenantId),
    ExpressionAttributeValues: { ':checkpoint': checkpoint, ':size': checkpoint.treeSize },
  };
  const newer = '(attribute_not_exists(checkpoint) OR checkpoint.treeSize < :size)';
  const cleared = await updateQuietly({ ...common, UpdateExpression: 'SET checkpoint = :checkpoint REMOVE GSI1PK, GSI1SK', ConditionExpression: `integrated = :size AND ${newer}` });
  if (!cleared) await updateQuietly({ ...common, UpdateExpression: 'SET checkpoint = :checkpoint', ConditionExpression: newer });
};

/**
 * Signs the tenant's tree if it grew since its last checkpoint and that checkpoint is at least
 * `checkpointIntervalSeconds` old: checkpoints come at most that often while anything changes.
 * The note is archived (S3 Object Lock in AWS, where the operator cannot rewrite it) before the
 * head points at it, so every checkpoint the API serves has its archived copy.
 */
export const signCheckpointFor = async (tenantId: string, now: Date = clock.now()): Promise<StoredCheckpoint | undefined> => {
  const head = await readHead(tenantId);
  if (head.integrated === 0 || head.rootHash === null) return undefined;
  if (head.checkpoint && head.checkpoint.treeSize >= head.integrated) {
    await updateQuietly({ TableName: tableName(), Key: logKeys.head(tenantId), UpdateExpression: 'REMOVE GSI1PK, GSI1SK', ConditionExpression: 'integrated = :size', ExpressionAttributeValues: { ':size': head.checkpoint.treeSize } });
    return undefined;
  }
  // A checkpoint stamped later than now (a signer whose clock runs ahead) does not hold signing off.
  const age = head.checkpoint ? now.getTime() - Date.parse(head.checkpoint.signedAt) : Number.POSITIVE_INFINITY;
  if (age >= 0 && age < config.checkpointIntervalSeconds * 1000) return undefined;
  const signer = await checkpointSigner();
  const note = await signCheckpoint({ origin: logOrigin(tenantId), treeSize: head.integrated, rootHash: fromHex(head.rootHash) }, signer);
  const checkpoint: StoredCheckpoint = { treeSize: head.integrated, rootHash: head.rootHash, signedAt: now.toISOString(), keyId: signer.keyId, note };
  await archiveCheckpoint(tenantId, checkpoint.treeSize, note);
  await recordCheckpoint(tenantId, checkpoint);
  return checkpoint;
};

/** Signs every tenant whose tree is due (the sparse unsigned index); returns how many it signed. */
export const signDueCheckpoints = async (): Promise<number> => {
  const due = await queryAll({ IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': logKeys.unsignedPartition } });
  let signed = 0;
  for (const item of due) {
    const tenantId = String(item.GSI1SK);
    try {
      if (await signCheckpointFor(tenantId)) signed += 1;
    } catch (error) {
      log.error('checkpoint not signed; the tenant stays due', { tenantId, ...describeError(error) });
    }
  }
  return signed;
};
