import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { clientOptions, lazyClient } from '../aws/clients';
import { engineConfig, evidenceConfig } from '../config';

/**
 * Write-once archive of signed checkpoint notes. In AWS the bucket has Object Lock in compliance
 * mode and every note is put with a retention date, so not even the account root can rewrite or
 * delete a checkpoint before it expires: a rewritten log cannot be re-signed over the old sizes
 * unnoticed. Locally infra/local/archive-store.ts stands in, with the same write-once rules.
 *
 * Keys are `checkpoints/<tenantId>/<tree size, 12 digits>.note`: zero-padded, so ListObjectsV2
 * (which lists in key order) lists a tenant's checkpoints by size, and `StartAfter` a size skips
 * every smaller one. Listing is one request per 1,000 checkpoints.
 */

/**
 * S3 through the SDK's client, made on first use (most requests of the functions that may archive
 * never do). The local archive is addressed path-style, as the SDK must address an endpoint on an
 * IP address; in AWS the SDK picks virtual-hosted addressing itself. The package is imported
 * statically, by name: imported on demand (as it was for a while), esbuild kept every command of
 * it, 36 KB more of the evidence bundle, and the import it deferred was not measurably cheaper
 * (docs/bundles.md).
 */
const s3 = /* @__PURE__ */ lazyClient('s3', (endpoint) => new S3Client({ ...clientOptions(endpoint), ...(endpoint ? { forcePathStyle: true } : {}) }), () => engineConfig.s3Endpoint);

const prefixOf = (tenantId: string): string => `checkpoints/${tenantId}/`;
const keyOf = (tenantId: string, treeSize: number): string => `${prefixOf(tenantId)}${String(treeSize).padStart(12, '0')}.note`;

/** Two different notes for one size of a tenant's log: a fork, or an object someone else put there. */
export class ArchiveConflictError extends Error {
  constructor(
    readonly tenantId: string,
    readonly treeSize: number,
  ) {
    super(`checkpoint ${treeSize} of tenant ${tenantId} is already archived with a different note`);
    this.name = 'ArchiveConflictError';
  }
}

const errorName = (error: unknown): string | undefined => (error as { name?: string } | null)?.name;
const statusOf = (error: unknown): number | undefined => (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;

export const readArchivedCheckpoint = async (tenantId: string, treeSize: number): Promise<string | undefined> => {
  try {
      const { Body } = await (await s3()).send(new GetObjectCommand({ Bucket: evidenceConfig.checkpointBucket, Key: keyOf(tenantId, treeSize) }));
    return (await Body?.transformToString('utf8')) ?? '';
  } catch (error) {
    // NoSuchBucket is a 404 too, but a missing bucket is a broken deployment, not a missing note.
    if (errorName(error) === 'NoSuchKey' || (statusOf(error) === 404 && errorName(error) !== 'NoSuchBucket')) return undefined;
    throw error;
  }
};

/**
 * Archives the note of (tenant, size) once, with `If-None-Match: *`, and returns the note the
 * archive holds for that size. If one is there already, it is kept when `equivalent` accepts it (the
 * same note from a retried checkpointer; or the same checkpoint signed again, as an ECDSA signature
 * differs each time) and ArchiveConflictError is thrown otherwise: two different signed trees of one
 * size would be a forked log.
 */
export const archiveCheckpoint = async (tenantId: string, treeSize: number, note: string, equivalent: (archived: string) => boolean = (archived) => archived === note): Promise<string> => {
  const retainUntil = new Date(Date.now() + evidenceConfig.checkpointRetentionDays * 86_400_000);
  for (let attempt = 1; ; attempt += 1) {
    try {
      await (await s3()).send(
        new PutObjectCommand({
          Bucket: evidenceConfig.checkpointBucket,
          Key: keyOf(tenantId, treeSize),
          Body: note,
          ContentType: 'text/plain; charset=utf-8',
          IfNoneMatch: '*',
          ObjectLockMode: 'COMPLIANCE',
          ObjectLockRetainUntilDate: retainUntil,
          // S3 wants a checksum of every Object Lock put.
          ChecksumAlgorithm: 'SHA256',
        }),
      );
      return note;
    } catch (error) {
      // 412: already there. 409: a concurrent conditional put is in flight; S3 asks for a retry.
      const status = statusOf(error);
      if (status === 412 || errorName(error) === 'PreconditionFailed') {
        const archived = await readArchivedCheckpoint(tenantId, treeSize);
        if (archived !== undefined && equivalent(archived)) return archived;
        if (archived !== undefined) throw new ArchiveConflictError(tenantId, treeSize);
      } else if (status !== 409 && errorName(error) !== 'ConditionalRequestConflict') {
        throw error;
      }
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
};

/**
 * The tree sizes of a tenant's archived checkpoints above `afterSize` (all when omitted), smallest
 * first. Objects under the tenant's prefix that are not named like a note are left out.
 */
export const listArchivedCheckpoints = async (tenantId: string, afterSize?: number): Promise<number[]> => {
  const sizes: number[] = [];
  const seen = new Set<string>();
  let continuationToken: string | undefined;
  do {
    const page = await (await s3()).send(
      new ListObjectsV2Command({
        Bucket: evidenceConfig.checkpointBucket,
        Prefix: prefixOf(tenantId),
        ...(afterSize !== undefined && afterSize >= 0 ? { StartAfter: keyOf(tenantId, afterSize) } : {}),
        ...(continuationToken ? { ContinuationToken: continuationToken } : {}),
      }),
    );
    for (const { Key: key = '' } of page.Contents ?? []) {
      const match = /^(\d{12})\.note$/.exec(key.slice(prefixOf(tenantId).length));
      if (match) sizes.push(Number(match[1]));
    }
    continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    // A listing that hands back a token it gave before would never end: that answer is broken, not the archive.
    if (continuationToken !== undefined) {
      if (seen.has(continuationToken)) throw new Error(`ListObjectsV2 of ${prefixOf(tenantId)} repeated its continuation token`);
      seen.add(continuationToken);
    }
  } while (continuationToken);
  return sizes;
};

/** The local stack's bucket (in AWS it is infra's, with Object Lock); idempotent. */
export const ensureCheckpointBucket = async (): Promise<void> => {
  try {
      // Outside us-east-1 S3 wants the region named.
    const location = engineConfig.region === 'us-east-1' ? {} : { CreateBucketConfiguration: { LocationConstraint: engineConfig.region as never } };
    await (await s3()).send(new CreateBucketCommand({ Bucket: evidenceConfig.checkpointBucket, ...location }));
  } catch (error) {
    if (errorName(error) === 'BucketAlreadyOwnedByYou' || errorName(error) === 'BucketAlreadyExists') return;
    throw error;
  }
};
