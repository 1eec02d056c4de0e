import { clock } from '../clock';
import { config } from '../config';
import { describeError, log } from '../log';
import { archiveCheckpoint } from './archive';
import { logOrigin, signCheckpoint } from './checkpoint';
import { leaveUnsigned, recordCheckpoint, unsignedTenants } from './checkpoint-store';
import { readHead, type StoredCheckpoint } from './log-store';
import { fromHex } from './merkle';
import { checkpointSigner } from './signers';

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
    await leaveUnsigned(tenantId, head.checkpoint.treeSize);
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
  let signed = 0;
  for (const tenantId of await unsignedTenants()) {
    try {
      if (await signCheckpointFor(tenantId)) signed += 1;
    } catch (error) {
      log.error('checkpoint not signed; the tenant stays due', { tenantId, ...describeError(error) });
    }
  }
  return signed;
};
