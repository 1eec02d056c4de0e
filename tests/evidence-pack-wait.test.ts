import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHead } from '../shared/evidence/log-store';
import { newTenant, uniqueEmail, useApi } from './support/api';
import { publishedNotice, recordConsent } from './support/consent';
import { failWrites } from './support/storage';
import { sequenced, whileSequencing } from './support/workers';

/**
 * POST /consent/evidence-packs waits briefly (EVIDENCE_PACK_WAIT_SECONDS) for a checkpoint that
 * covers the pack's newest entries, and once the tenant's interval allows asks the stream's
 * evidence log consumer for one (a request item: the function building packs holds neither the
 * archive nor the signing of checkpoints), rather than leave them resting on the pack's signature
 * alone. No workers run in this file: its stream reader runs only while `sequenced` appends the
 * entries and while the waited pack is made, and no checkpointer loop of its own signs, so the
 * checkpoint the waited pack gets is the one it asked for (no entry is written meanwhile).
 */
const { call } = useApi();
const run = promisify(execFile);
const interval = 6;

beforeAll(() => {
  // Long enough that the second record is surely appended while the first checkpoint is too young to sign again.
  process.env.CHECKPOINT_INTERVAL_SECONDS = String(interval);
});
afterAll(() => {
  process.env.CHECKPOINT_INTERVAL_SECONDS = '1';
  delete process.env.EVIDENCE_PACK_WAIT_SECONDS;
});

describe('an evidence pack made right after a write', () => {
  it('waits for the next checkpoint, asking the stream for it when due, so the pack comes back fully covered; without the wait, the new entry rests on the signature', async () => {
    const tenant = await newTenant(call);
    const notice = await publishedNotice(call, tenant.token);
    const email = uniqueEmail('fresh');
    const consent = { noticeId: notice.noticeId, dataPrincipalIdentifier: email, consentGiven: { [notice.required]: true } };
    expect((await recordConsent(call, tenant.token, consent)).status).toBe(201);
    // The first entry's append signs the tenant's first checkpoint; the second's comes too soon after it.
    await sequenced(tenant.tenantId, 1);
    expect((await readHead(tenant.tenantId)).checkpoint?.treeSize).toBe(1);
    expect((await recordConsent(call, tenant.token, consent)).status).toBe(201);
    await sequenced(tenant.tenantId, 2);
    expect(await readHead(tenant.tenantId)).toMatchObject({ integrated: 2, checkpoint: { treeSize: 1 } });
    const packOf = async (waitSeconds: number) => {
      process.env.EVIDENCE_PACK_WAIT_SECONDS = String(waitSeconds);
      const response = await call('POST', '/api/v1/consent/evidence-packs', { token: tenant.token, body: { dataPrincipalIdentifier: email } });
      expect(response.status).toBe(200);
      return response.body.data.pack;
    };
    const dir = await mkdtemp(join(tmpdir(), 'pack-wait-'));
    const verify = async (pack: unknown) => {
      await writeFile(join(dir, 'pack.json'), JSON.stringify(pack));
      return run(process.execPath, ['scripts/verify-evidence-pack.mjs', join(dir, 'pack.json')]).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
    };

    const unwaited = await packOf(0);
    expect(unwaited.records.map((record: { log: { status: string } }) => record.log.status)).toEqual(['INTEGRATED', 'PENDING']);
    expect(await verify(unwaited)).toMatchObject({ code: 3, stdout: expect.stringMatching(/^COMPLETE BUT NOT YET CHECKPOINTED/) });

    // The request is only a hastener: when it cannot be written, the pack still comes, its new entry resting on the signature.
    const requestFails = failWrites({ except: (command, input) => !(command === 'PutItem' && String((input as { Item?: { PK?: unknown } }).Item?.PK).endsWith('#REQUEST')) });
    const unasked = await packOf(interval + 1).finally(() => requestFails.restore());
    expect(unasked.records.map((record: { log: { status: string } }) => record.log.status)).toEqual(['INTEGRATED', 'PENDING']);

    const waited = await whileSequencing(() => packOf(interval + 4));
    expect(waited.records.map((record: { log: { status: string } }) => record.log.status)).toEqual(['INTEGRATED', 'INTEGRATED']);
    expect(waited.log.checkpoint.treeSize).toBe(2);
    expect(await verify(waited)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^VALID/) });
  });
});
