import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startArchiveStore } from '../infra/local/archive-store';
import { ArchiveConflictError, archiveCheckpoint, ensureCheckpointBucket, listArchivedCheckpoints, readArchivedCheckpoint } from '../shared/evidence/archive';

/**
 * The checkpoint archive against the local stack's S3 store (infra/local/archive-store.ts), started
 * here on loopback with a directory of its own, and started again on it as `npm start` would be.
 */
let store: Awaited<ReturnType<typeof startArchiveStore>> | undefined;
const dir = mkdtempSync(join(tmpdir(), 'cms-archive-'));
const saved = { S3_ENDPOINT: process.env.S3_ENDPOINT, CHECKPOINT_BUCKET: process.env.CHECKPOINT_BUCKET };

const start = async () => {
  store = await startArchiveStore({ dir });
  process.env.S3_ENDPOINT = store.endpoint;
};

beforeAll(async () => {
  process.env.CHECKPOINT_BUCKET = `checkpoints-${Math.random().toString(36).slice(2)}`;
  await start();
});

afterAll(async () => {
  await store?.stop();
  rmSync(dir, { recursive: true, force: true });
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const client = () => new S3Client({ region: 'ap-south-1', endpoint: store!.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

describe('checkpoint archive', () => {
  const note = 'consent-service/log/t1\n3\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n\u2014 consent-service-log-0011223344556677 AAAA\n';
  const other = note.replace('AAAA\n', 'BBBB\n');

  it('archives a note once and never replaces it', async () => {
    await ensureCheckpointBucket();
    await ensureCheckpointBucket();
    expect(await archiveCheckpoint('t1', 3, note)).toBe(note);
    expect(await readArchivedCheckpoint('t1', 3)).toBe(note);
    // The same note again is a retried checkpointer: fine. Another note for the size is a fork,
    // unless the caller recognises it as the same checkpoint (an ECDSA signature differs each time).
    expect(await archiveCheckpoint('t1', 3, note)).toBe(note);
    await expect(archiveCheckpoint('t1', 3, other)).rejects.toThrow(ArchiveConflictError);
    expect(await archiveCheckpoint('t1', 3, other, (archived) => archived.startsWith('consent-service/log/t1\n3\n'))).toBe(note);
    expect(await readArchivedCheckpoint('t1', 3)).toBe(note);
    expect(await readArchivedCheckpoint('t1', 4)).toBeUndefined();
    expect(await readArchivedCheckpoint('t2', 3)).toBeUndefined();
  });

  it('lists a tenant\'s checkpoints by size, above a size, across pages, from the files it keeps', async () => {
    // A thousand notes laid down as the store keeps them, then read back by a restarted store.
    const sizes = Array.from({ length: 1003 }, (_, index) => index + 1);
    const tenantDir = join(dir, process.env.CHECKPOINT_BUCKET!, 'checkpoints', 'many');
    mkdirSync(tenantDir, { recursive: true });
    for (const size of sizes) writeFileSync(join(tenantDir, `${String(size).padStart(12, '0')}.note`), `note ${size}\n`);
    writeFileSync(join(tenantDir, '.0011.partial'), 'a write a crash cut short');
    await store!.stop();
    await start();
    await archiveCheckpoint('many-more', 5, 'another tenant\n');
    expect(await listArchivedCheckpoints('many')).toEqual(sizes);
    expect(await listArchivedCheckpoints('many', 999)).toEqual([1000, 1001, 1002, 1003]);
    expect(await readArchivedCheckpoint('many', 1002)).toBe('note 1002\n');
    expect(await listArchivedCheckpoints('t1', 3)).toEqual([]);
    expect(await listArchivedCheckpoints('nobody')).toEqual([]);
  });

  it('refuses a delete, and a put that could overwrite, as the Object Lock bucket and its policy do', async () => {
    const key = 'checkpoints/t1/000000000003.note';
    await expect(client().send(new DeleteObjectCommand({ Bucket: process.env.CHECKPOINT_BUCKET, Key: key }))).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(client().send(new PutObjectCommand({ Bucket: process.env.CHECKPOINT_BUCKET, Key: key, Body: other }))).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(client().send(new PutObjectCommand({ Bucket: process.env.CHECKPOINT_BUCKET, Key: '../escape.note', Body: other, IfNoneMatch: '*' }))).rejects.toThrow();
    expect(await readArchivedCheckpoint('t1', 3)).toBe(note);
  });

  it('still holds every note after a restart, and still refuses to replace one', async () => {
    await store!.stop();
    await start();
    expect(await readArchivedCheckpoint('t1', 3)).toBe(note);
    expect((await listArchivedCheckpoints('many')).length).toBe(1003);
    await expect(archiveCheckpoint('t1', 3, other)).rejects.toThrow(ArchiveConflictError);
    await ensureCheckpointBucket();
    await archiveCheckpoint('t1', 4, other);
    expect(await listArchivedCheckpoints('t1')).toEqual([3, 4]);
  });
});
