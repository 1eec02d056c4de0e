import { randomUUID } from 'node:crypto';
import { clock } from '../clock';
import { evidenceConfig } from '../config';
import { PutCommand } from '../db/commands';
import { db, tableName } from '../db/client';
import { logKeys } from './log-keys';
import type { LogHead } from './log-store';

/**
 * Asking the log's signer for a checkpoint. Only the functions that hold the log signing key and
 * the checkpoint archive sign (the stream function's evidence log consumer, the scheduled
 * checkpointer): an evidence pack that waits for a checkpoint covering entries written moments ago
 * (checkpoint-wait.ts) writes a request item, which the table's stream hands to the evidence log
 * consumer (log-consumer.ts), which signs by the checkpointer's own rule (the tenant's interval,
 * the archive first). So the HTTP function that builds packs carries neither the S3 client nor the
 * signing of checkpoints (docs/bundles.md).
 */
export const checkpointRequestType = 'CheckpointRequest';

/** A request only needs to live until the stream has handed it on; TTL removes it after a day. */
const requestLifetimeSeconds = 86_400;

/**
 * A checkpoint is due once the last is CHECKPOINT_INTERVAL_SECONDS old, or stamped later than now (a
 * signer whose clock runs ahead does not hold signing off): the one rule, which signCheckpointFor
 * applies to the head it reads and the packs and the stream to the head they have.
 */
export const checkpointDue = (head: LogHead, now: Date): boolean => {
  if (!head.checkpoint) return true;
  const age = now.getTime() - Date.parse(head.checkpoint.signedAt);
  return age < 0 || age >= evidenceConfig.checkpointIntervalSeconds * 1000;
};

/** The request item: a new item each time (its own sort key), so the stream sees an INSERT for every request. */
export const checkpointRequestPut = (tenantId: string, now: Date, requestId: string) => ({
  TableName: tableName(),
  Item: {
    ...logKeys.checkpointRequest(tenantId, `${now.toISOString()}#${requestId}`),
    type: checkpointRequestType,
    tenantId,
    requestedAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + requestLifetimeSeconds,
  },
});

/** One write unit: the stream function signs the tenant's tree, if a checkpoint is still due when it reads the request. */
export const requestCheckpoint = async (tenantId: string): Promise<void> => {
  await db().send(new PutCommand(checkpointRequestPut(tenantId, clock.now(), randomUUID())));
};
