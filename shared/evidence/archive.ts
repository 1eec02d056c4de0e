import { type BucketLocationConstraint, CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { config } from '../config';

/**
 * Write-once archive of signed checkpoint notes. In AWS the bucket has Object Lock in compliance
 * mode and every note is put with a retention date, so not even the account root can rewrite or
 * delete a checkpoint before it expires: a rewritten log cannot be re-signed over the old sizes
 * unnoticed. Locally the fauxqs emulator stands in (no Object Lock there).
 */

let cached: { endpoint: string | undefined; client: S3Client } | undefined;

const s3 = (): S3Client => {
  const endpoint = config.s3Endpoint;
  // Keyed by endpoint only so a test that sets S3_ENDPOINT late still reaches its emulator.
  if (cached && cached.endpoint === endpoint) return cached.client;
  const client = new S3Client({
    region: config.region,
    ...(endpoint ? { endpoint, forcePathStyle: true, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  cached = { endpoint, client };
  return client;
};

const keyOf = (tenantId: string, treeSize: number): string => `checkpoints/${tenantId}/${String(treeSize).padStart(12, '0')}.note`;

const errorName = (error: unknown): string | undefined => (error as { name?: string } | null)?.name;
const statusOf = (error: unknown): number | undefined => (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;

export const readArchivedCheckpoint = async (tenantId: string, treeSize: number): Promise<string | undefined> => {
  try {
    const { Body } = await s3().send(new GetObjectCommand({ Bucket: config.checkpointBucket, Key: keyOf(tenantId, treeSize) }));
    return Body ? await Body.transformToString('utf-8') : '';
  } catch (error) {
    // NoSuchBucket is a 404 too, but a missing bucket is a broken deployment, not a missing note.
    if (errorName(error) === 'NoSuchKey' || (statusOf(error) === 404 && errorName(error) !== 'NoSuchBucket')) return undefined;
    throw error;
  }
};

const sameOrThrow = (tenantId: string, treeSize: number, archived: string | undefined, note: string): boolean => {
  if (archived === undefined) return false;
  if (archived !== note) throw new Error(`checkpoint ${treeSize} of tenant ${tenantId} is already archived with a different note`);
  return true;
};

/**
 * Archives the note of (tenant, size) once. Archiving the same note again is a no-op (a retried
 * checkpointer); a different note for an archived size throws: two different signed trees of one
 * size would be a forked log.
 */
export const archiveCheckpoint = async (tenantId: string, treeSize: number, note: string): Promise<void> => {
  const local = config.s3Endpoint !== undefined;
  // fauxqs ignores If-None-Match on PUT (it would overwrite), so locally the check comes first.
  // That leaves a race between two local checkpointers, which the AWS path does not have.
  if (local && sameOrThrow(tenantId, treeSize, await readArchivedCheckpoint(tenantId, treeSize), note)) return;
  const retainUntil = new Date(Date.now() + config.checkpointRetentionDays * 86_400_000);
  for (let attempt = 1; ; attempt += 1) {
    try {
      await s3().send(
        new PutObjectCommand({
          Bucket: config.checkpointBucket,
          Key: keyOf(tenantId, treeSize),
          Body: note,
          ContentType: 'text/plain; charset=utf-8',
          IfNoneMatch: '*',
          // Object Lock puts need a checksum header.
          ...(local ? {} : { ObjectLockMode: 'COMPLIANCE', ObjectLockRetainUntilDate: retainUntil, ChecksumAlgorithm: 'SHA256' }),
        }),
      );
      return;
    } catch (error) {
      // 412: already there. 409: a concurrent conditional put is in flight; S3 asks for a retry.
      const status = statusOf(error);
      if (status === 412 || errorName(error) === 'PreconditionFailed') {
        if (sameOrThrow(tenantId, treeSize, await readArchivedCheckpoint(tenantId, treeSize), note)) return;
      } else if (status !== 409 && errorName(error) !== 'ConditionalRequestConflict') {
        throw error;
      }
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
};

/** The local stack's bucket (in AWS it is infra's, with Object Lock); idempotent. */
export const ensureCheckpointBucket = async (): Promise<void> => {
  try {
    // Outside us-east-1 S3 wants the region named; fauxqs accepts it too.
    const location = config.region === 'us-east-1' ? {} : { CreateBucketConfiguration: { LocationConstraint: config.region as BucketLocationConstraint } };
    await s3().send(new CreateBucketCommand({ Bucket: config.checkpointBucket, ...location }));
  } catch (error) {
    if (errorName(error) === 'BucketAlreadyOwnedByYou' || errorName(error) === 'BucketAlreadyExists') return;
    throw error;
  }
};
