import { buildApp } from 'fauxqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../infra/local/engines';
import { archiveCheckpoint, ensureCheckpointBucket, readArchivedCheckpoint } from '../shared/evidence/archive';

/** The checkpoint archive against fauxqs's S3, started here on loopback (the global engines serve no S3). */
let app: ReturnType<typeof buildApp>;
const saved = { S3_ENDPOINT: process.env.S3_ENDPOINT, CHECKPOINT_BUCKET: process.env.CHECKPOINT_BUCKET };

beforeAll(async () => {
  const port = await freePort();
  app = buildApp({ logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  process.env.S3_ENDPOINT = `http://127.0.0.1:${port}`;
  process.env.CHECKPOINT_BUCKET = `checkpoints-${Math.random().toString(36).slice(2)}`;
});

afterAll(async () => {
  await app?.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('checkpoint archive', () => {
  const note = 'consent-service/log/t1\n3\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n\u2014 consent-service-log-0011223344556677 AAAA\n';

  it('archives a note once and never replaces it', async () => {
    await ensureCheckpointBucket();
    await ensureCheckpointBucket();
    await archiveCheckpoint('t1', 3, note);
    expect(await readArchivedCheckpoint('t1', 3)).toBe(note);
    // The same note again is a retried checkpointer: fine. Another note for the size is a fork.
    await archiveCheckpoint('t1', 3, note);
    await expect(archiveCheckpoint('t1', 3, note.replace('\n3\n', '\n3\n ').replace('AAAA\n', 'BBBB\n'))).rejects.toThrow(/already archived with a different note/);
    expect(await readArchivedCheckpoint('t1', 3)).toBe(note);
    expect(await readArchivedCheckpoint('t1', 4)).toBeUndefined();
    expect(await readArchivedCheckpoint('t2', 3)).toBeUndefined();
  });
});
