import { clock } from '../clock';
import { describeError, log } from '../log';
import { checkpointDue, requestCheckpoint } from './checkpoint-request';
import { positionsOf } from './log-map';
import { readHead } from './log-store';

/** How often the wait looks again: one read of the head and of the entries' places per look. */
const pollMs = 200;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits, at most `waitMs`, until a signed checkpoint covers every one of `entryIds` (entries of the
 * tenant's log written moments ago: the stream sequences them within a second or so). Once all of
 * them are in the tree and a checkpoint is due, it asks the log's signer for one (a request item
 * the stream hands to the evidence log consumer, checkpoint-request.ts), instead of waiting for
 * the next stream batch or the scheduled run: the checkpoint is signed and archived, by the
 * checkpointer's own rule, by the functions that hold the log signing key and the archive, never
 * by the function building the pack. It asks once: a refusal is reported by the signer, which the
 * checkpointer retries. A parked tenant's entries are not sequenced until its retry gets through:
 * for them it waits the bound out. The bound counts polls of real time, not the injectable clock
 * (a pinned clock in a test must not wait forever); whether a checkpoint is due comes from the
 * clock. Returns whether every entry is covered.
 */
export const awaitCheckpoint = async (tenantId: string, entryIds: readonly string[], waitMs: number): Promise<boolean> => {
  const polls = Math.ceil(Math.max(0, waitMs) / pollMs);
  let asked = false;
  for (let poll = 0; ; poll += 1) {
    const [positions, head] = await Promise.all([positionsOf(tenantId, entryIds), readHead(tenantId)]);
    const placeOf = (id: string) => positions.get(id) ?? Number.POSITIVE_INFINITY;
    if (entryIds.every((id) => placeOf(id) < (head.checkpoint?.treeSize ?? 0))) return true;
    if (poll >= polls) return false;
    if (!asked && !head.parked && entryIds.every((id) => placeOf(id) < head.integrated) && checkpointDue(head, clock.now())) {
      // The request only hastens a checkpoint the checkpointer signs anyway: a failure to write it never fails the pack.
      await requestCheckpoint(tenantId).catch((error: unknown) => log.warn('checkpoint request not written; the pack waits for the next checkpoint', { tenantId, ...describeError(error) }));
      asked = true;
    }
    await pause(pollMs);
  }
};
