import type { JsonWebKey } from 'node:crypto';
import { clock } from '../clock';
import { describeError, log } from '../log';
import { emitMetrics, metricNames } from '../metrics';
import { archiveCheckpoint, listArchivedCheckpoints, readArchivedCheckpoint } from './archive';
import { logOrigin, openCheckpoint, signCheckpoint } from './checkpoint';
import { leaveUnsigned, recordCheckpoint, unsignedTenants } from './checkpoint-store';
import { extendTiles } from './integration';
import { checkpointDue } from './checkpoint-request';
import { readHead, type LogHead, type StoredCheckpoint } from './log-store';
import { fromHex, toHex } from './merkle';
import { consistencyAt, rootAt } from './proofs';
import { checkpointKeys, checkpointSigner } from './signers';

/** The tree cannot be signed: it does not extend a checkpoint already archived (a rollback or a fork). */
export class CheckpointRefusedError extends Error {
  constructor(tenantId: string, reason: string) {
    super(`log of tenant ${tenantId} not signed: ${reason}`);
    this.name = 'CheckpointRefusedError';
  }
}

/** The checkpoint in an archived note, if it is one of this log's signed by a key of the service. */
const archivedCheckpointOf = (tenantId: string, treeSize: number, note: string | undefined, keys: JsonWebKey[]) => {
  const opened = note === undefined ? undefined : openCheckpoint(note, keys);
  return opened && opened.origin === logOrigin(tenantId) && opened.treeSize === treeSize ? opened : undefined;
};

/**
 * Every archived checkpoint from the head's latest one up must be extended by the tree about to be
 * signed: the service never signs a log set back below, or rewritten under, what it already
 * archived (the head is in the table, the archive is not). Usually that is one listing and one
 * read: the head's own checkpoint. Returns the archived note of the size about to be signed, if a
 * checkpointer archived it and died before recording it. Objects that are not notes of this log are
 * passed over here; verification reports them.
 */
const archivedNoteToExtend = async (tenantId: string, head: LogHead, keys: JsonWebKey[]): Promise<string | undefined> => {
  let same: string | undefined;
  for (const treeSize of await listArchivedCheckpoints(tenantId, head.checkpoint ? head.checkpoint.treeSize - 1 : undefined)) {
    const note = await readArchivedCheckpoint(tenantId, treeSize);
    const archived = archivedCheckpointOf(tenantId, treeSize, note, keys);
    if (!archived) continue;
    if (treeSize > head.integrated) throw new CheckpointRefusedError(tenantId, `a checkpoint of size ${treeSize} is archived, but the tree holds ${head.integrated} entries: the log was set back`);
    const root = treeSize === head.integrated ? head.rootHash : await rootAt(tenantId, treeSize);
    if (toHex(archived.rootHash) !== root) throw new CheckpointRefusedError(tenantId, `the tree does not extend the archived checkpoint of size ${treeSize}`);
    if (treeSize === head.integrated) same = note;
  }
  return same;
};

/**
 * Signs the tenant's tree if it grew since its last checkpoint and that checkpoint is at least
 * `checkpointIntervalSeconds` old: checkpoints come at most that often while anything changes.
 * The note is archived (S3 Object Lock in AWS, where the operator cannot rewrite it) before the
 * head points at it, so every checkpoint the API serves has its archived copy; a tree that does not
 * extend the archived checkpoints is refused (CheckpointRefusedError).
 */
export const signCheckpointFor = async (tenantId: string, now: Date = clock.now()): Promise<StoredCheckpoint | undefined> => {
  const head = await readHead(tenantId);
  if (head.integrated === 0 || head.rootHash === null) return undefined;
  if (head.checkpoint && head.checkpoint.treeSize >= head.integrated) {
    await leaveUnsigned(tenantId, head.checkpoint.treeSize);
    return undefined;
  }
  if (!checkpointDue(head, now)) return undefined;
  // Every tile of the tree about to be signed, so that any proof to it can be read.
  await extendTiles(tenantId, head, head.integrated);
  const { keys } = await checkpointKeys();
  const body = { origin: logOrigin(tenantId), treeSize: head.integrated, rootHash: fromHex(head.rootHash) };
  const signer = await checkpointSigner();
  // The same checkpoint archived by an earlier attempt is kept as it is (an ECDSA signature differs each time).
  const sameTree = (archived: string) => {
    const opened = archivedCheckpointOf(tenantId, body.treeSize, archived, keys);
    return opened !== undefined && Buffer.from(opened.rootHash).equals(body.rootHash);
  };
  const note = (await archivedNoteToExtend(tenantId, head, keys)) ?? (await archiveCheckpoint(tenantId, body.treeSize, await signCheckpoint(body, signer), sameTree));
  const keyId = openCheckpoint(note, keys)?.keyId ?? signer.keyId;
  const checkpoint: StoredCheckpoint = { treeSize: head.integrated, rootHash: head.rootHash, signedAt: now.toISOString(), keyId, note };
  const previousTreeSize = head.checkpoint?.treeSize ?? 0;
  await recordCheckpoint(tenantId, checkpoint, { previousTreeSize, consistencyProof: previousTreeSize > 0 ? await consistencyAt(tenantId, previousTreeSize, checkpoint.treeSize) : [] });
  return checkpoint;
};

/**
 * Signs the tenant's tree if due; a failure (a refused tree, the archive or the signing key out of
 * reach) is reported, never thrown: the tenant stays in the unsigned index and the checkpointer
 * tries again on its next run, while every other tenant is signed as usual.
 */
export const signOrReport = async (tenantId: string): Promise<StoredCheckpoint | undefined> => {
  try {
    return await signCheckpointFor(tenantId);
  } catch (error) {
    log.error('checkpoint not signed; the tenant stays due', { tenantId, ...describeError(error) });
    emitMetrics({ [metricNames.checkpointFailures]: 1 }, { tenantId });
    return undefined;
  }
};

/**
 * Signs every tenant whose tree is due (the sparse unsigned index); returns how many it signed.
 * `accept`: the local workers of a test file sign only its own tenants (another file's tenants keep the timing their own file set).
 */
export const signDueCheckpoints = async (accept: (tenantId: string) => boolean = () => true): Promise<number> => {
  let signed = 0;
  for (const { tenantId } of await unsignedTenants()) if (accept(tenantId) && (await signOrReport(tenantId))) signed += 1;
  return signed;
};
