import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DeleteCommand, TransactWriteCommand, UpdateCommand } from '../shared/db/commands';
import { describe, expect, it } from 'vitest';
import { ownTenants, useTestWorkers } from './support/workers';
import { consentKeys } from '../shared/consent/keys';
import { proofHashOf } from '../shared/consent/proof';
import { genesisHash } from '../shared/consent/record';
import { db, tableName } from '../shared/db/client';
import { queryAll } from '../shared/db/query';
import { logOrigin, signCheckpoint } from '../shared/evidence/checkpoint';
import { putTile, readBatches, readHead, readTiles } from '../shared/evidence/log-store';
import { logKeys, mapBucketOf } from '../shared/evidence/log-keys';
import { fromHex, leafHash, toHex } from '../shared/evidence/merkle';
import { sequenceEntries } from '../shared/evidence/sequencer';
import { signCheckpointFor } from '../shared/evidence/checkpointer';
import { checkpointSigner } from '../shared/evidence/signers';
import { appendLeaves, tileName } from '../shared/evidence/tiles';
import { newTimeOrderedId } from '../shared/ids';
import { newTenant, useApi } from './support/api';
import { publishedNotice, recordConsent } from './support/consent';
import { waitForLog } from './support/evidence';

const run = promisify(execFile);
const { call } = useApi();
const testWorkers = useTestWorkers();

/** A tenant with `count` records and a full withdrawal of the second, all logged and signed. */
const loggedTenant = async (count: number) => {
  const tenant = await newTenant(call);
  const { noticeId, required, optional } = await publishedNotice(call, tenant.token);
  const responses = [];
  for (let index = 0; index < count; index += 1) {
    responses.push(await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: `p${index}@example.com`, consentGiven: { [required]: true, [optional]: true } }));
  }
  const withdrawal = await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: 'p1@example.com', noticeId } });
  await waitForLog(tenant.tenantId, count + 1);
  return { tenant, ids: responses.map((response) => response.body.data.consentRecordId as string), receipts: responses.map((response) => response.body.data.receipt as string), withdrawalId: withdrawal.body.data.withdrawalId as string };
};

const verify = async (token: string) => (await call('GET', '/api/v1/consent/proof-chain/verify', { token })).body.data;
const update = (key: Record<string, string>, expression: string, values: Record<string, unknown>, names?: Record<string, string>) =>
  db().send(new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: expression, ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}), ...(names ? { ExpressionAttributeNames: names } : {}) }));

describe('log verification finds tampering, with its position', () => {
  it('is intact when nothing was touched', async () => {
    const { tenant } = await loggedTenant(3);
    expect(await verify(tenant.token)).toMatchObject({ intact: true, treeSize: 4, checked: 4, problems: [] });
  });

  it('finds the newest record rewritten with its proof hash recomputed', async () => {
    const { tenant, ids } = await loggedTenant(3);
    const key = consentKeys.record(tenant.tenantId, ids[2]!);
    const proof = (await call('GET', `/api/v1/consent/records/${ids[2]}/proof`, { token: tenant.token })).body.data;
    const forged = proofHashOf({ ...proof.payload, ipAddress: '203.0.113.66', proofVersion: proof.proofVersion });
    await update(key, 'SET ip = :ip, ph = :ph', { ':ip': '203.0.113.66', ':ph': Buffer.from(forged, 'hex') });
    const result = await verify(tenant.token);
    expect(result.intact).toBe(false);
    expect(result.problems).toEqual([expect.objectContaining({ position: proof.log.leafIndex, kind: 'record', id: ids[2], reason: expect.stringContaining('both rewritten') })]);
  });

  it('finds an erased withdrawal: the record reset to active, or the withdrawal deleted', async () => {
    const { tenant, ids, withdrawalId } = await loggedTenant(2);
    await update(consentKeys.record(tenant.tenantId, ids[1]!), 'SET withdrawnPurposes = :none, isWithdrawn = :no REMOVE GSI2PK, GSI2SK, GSI4PK, GSI4SK, withdrawnAt', { ':none': [], ':no': false });
    const reset = await verify(tenant.token);
    expect(reset.problems).toEqual([expect.objectContaining({ position: 2, kind: 'withdrawal', id: withdrawalId, reason: expect.stringContaining('erased') })]);
    await db().send(new DeleteCommand({ TableName: tableName(), Key: consentKeys.withdrawal(tenant.tenantId, withdrawalId) }));
    const deleted = await verify(tenant.token);
    expect(deleted.problems).toEqual([expect.objectContaining({ position: 2, kind: 'withdrawal', id: withdrawalId, reason: expect.stringContaining('missing') })]);
  });

  it('finds the stored log rewritten under its signed checkpoint', async () => {
    const { tenant } = await loggedTenant(2);
    const [batch] = await readBatches(tenant.tenantId, 0, 1);
    const key = logKeys.batch(tenant.tenantId, batch!.start);
    const { GetCommand } = await import('../shared/db/commands');
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: key }));
    const bytes = Buffer.from(Item!.entries as Uint8Array);
    bytes[20] = bytes[20]! ^ 0xff;
    await update(key, 'SET entries = :entries', { ':entries': bytes });
    expect((await verify(tenant.token)).problems).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'log', reason: expect.stringContaining('signed root') })]));
  });
});

describe('log verification holds the operator to what was archived', () => {
  /** Two records signed at size 2, then a withdrawal signed at size 3. */
  const signedTwice = async () => {
    const tenant = await newTenant(call);
    const { noticeId, required, optional } = await publishedNotice(call, tenant.token);
    const ids: string[] = [];
    for (const index of [0, 1]) {
      const response = await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: `r${index}@example.com`, consentGiven: { [required]: true, [optional]: true } });
      ids.push(response.body.data.consentRecordId as string);
    }
    const before = await waitForLog(tenant.tenantId, 2);
    expect(before.checkpoint?.treeSize).toBe(2);
    const withdrawal = await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: 'r1@example.com', noticeId } });
    await waitForLog(tenant.tenantId, 3);
    return { tenant, ids, earlier: before.checkpoint!, withdrawalId: withdrawal.body.data.withdrawalId as string };
  };

  it('finds the head rolled back to an earlier checkpoint with everything after it deleted', async () => {
    const { tenant, ids, earlier, withdrawalId } = await signedTwice();
    const { tenantId } = tenant;
    // The operator works behind the stream's back: this file's workers leave the tenant alone from
    // here on, so a stream batch they retry cannot put the withdrawal back into the log (a batch
    // already in flight could, and a checkpoint then cover the restored tree: settle waits for it).
    ownTenants.delete(tenantId);
    await testWorkers.settle();
    // What an operator with table access would do: the head back to the checkpoint of size 2, and
    // the withdrawal's batch (the latest, so the log's end), map fragment, tile hash, checkpoint
    // item, the withdrawal and its effect gone.
    await update(logKeys.head(tenantId), 'SET tiledTo = :two, checkpoint = :checkpoint REMOVE GSI1PK, GSI1SK, unsignedSince', { ':two': 2, ':checkpoint': earlier });
    await db().send(new DeleteCommand({ TableName: tableName(), Key: logKeys.checkpoint(tenantId, 3) }));
    await db().send(new DeleteCommand({ TableName: tableName(), Key: logKeys.batch(tenantId, 2) }));
    const fragments = await queryAll({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': logKeys.mapPartition(tenantId, mapBucketOf(withdrawalId)) } });
    for (const fragment of fragments.filter((item) => item.start === 2)) await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: fragment.PK, SK: fragment.SK } }));
    const tile = await readTiles(tenantId, ['0/0']);
    await update(logKeys.tile(tenantId, '0/0'), 'SET hashes = :hashes, width = :two', { ':hashes': tile.get('0/0')!.subarray(0, 64), ':two': 2 });
    await db().send(new DeleteCommand({ TableName: tableName(), Key: consentKeys.withdrawal(tenantId, withdrawalId) }));
    await update(consentKeys.record(tenantId, ids[1]!), 'SET withdrawnPurposes = :none, isWithdrawn = :no REMOVE GSI2PK, GSI2SK, GSI4PK, GSI4SK, withdrawnAt', { ':none': [], ':no': false });
    const result = await verify(tenant.token);
    expect(result.intact).toBe(false);
    expect(result.problems).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'rollback', reason: expect.stringContaining('checkpoint of size 3') })]));
    // The log grows again from the rolled-back head, but the service never signs that tree: its
    // size 3 is another tree than the one archived.
    await sequenceEntries(tenantId, [{ tenantId, kind: 'record', id: newTimeOrderedId(), hash: randomBytes(32).toString('hex') }]);
    await expect(signCheckpointFor(tenantId, new Date(Date.now() + 60_000))).rejects.toThrow(/does not extend the archived checkpoint of size 3/);
    expect((await readHead(tenantId)).checkpoint?.treeSize).toBe(2);
    expect((await verify(tenant.token)).problems).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'rollback', reason: expect.stringContaining('size 3') })]));
    // `from` cannot steer the check past the archive: at the archived size, above it within the
    // grown log, and at its end, the log is still compared with the largest archived checkpoint.
    await sequenceEntries(tenantId, [0, 1].map(() => ({ tenantId, kind: 'record' as const, id: newTimeOrderedId(), hash: randomBytes(32).toString('hex') })));
    const size = (await readHead(tenantId)).sequenced;
    expect(size).toBe(5);
    for (const from of [3, 4, size]) {
      const result = (await call('GET', `/api/v1/consent/proof-chain/verify?from=${from}`, { token: tenant.token })).body.data;
      expect(result, `from=${from}`).toMatchObject({ intact: false, archive: { largestTreeSize: 3 } });
      expect(result.problems, `from=${from}`).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'rollback', reason: expect.stringContaining('archived checkpoint of size 3') })]));
    }
    // Beyond the log's size there is nothing to verify: a client error, not "intact".
    const beyond = await call('GET', `/api/v1/consent/proof-chain/verify?from=${size + 1}`, { token: tenant.token });
    expect(beyond).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_ERROR', fields: { from: expect.stringContaining(`(${size})`) } } } });
  });

  it('finds a stored tile that differs from the entries it was computed from', async () => {
    const { tenant } = await signedTwice();
    const tile = Buffer.from((await readTiles(tenant.tenantId, ['0/0'])).get('0/0')!);
    tile[40] = tile[40]! ^ 0xff;
    await update(logKeys.tile(tenant.tenantId, '0/0'), 'SET hashes = :hashes', { ':hashes': tile });
    expect((await verify(tenant.token)).problems).toEqual([expect.objectContaining({ kind: 'tiles', reason: expect.stringContaining('tile 0/0') })]);
  });

  it('finds a latest checkpoint that the archive does not hold', async () => {
    // A log written straight to the table (no stream, no checkpointer), then a genuine signature
    // over its real root set on the head: a checkpoint that never went through the archive.
    const tenant = await newTenant(call);
    const entries = [0, 1].map(() => ({ tenantId: tenant.tenantId, kind: 'record' as const, id: newTimeOrderedId(), hash: randomBytes(32).toString('hex') }));
    await sequenceEntries(tenant.tenantId, entries);
    const tree = appendLeaves(0, new Map(), entries.map((entry) => leafHash(fromHex(entry.hash))));
    for (const tile of tree.tiles) await putTile(tenant.tenantId, tileName(tile.id), tile.hashes);
    const note = await signCheckpoint({ origin: logOrigin(tenant.tenantId), treeSize: 2, rootHash: tree.root }, await checkpointSigner());
    const checkpoint = { treeSize: 2, rootHash: toHex(tree.root), signedAt: new Date().toISOString(), keyId: 'consent-service-log', note };
    await update(logKeys.head(tenant.tenantId), 'SET integrated = :two, root = :root, checkpoint = :checkpoint', { ':two': 2, ':root': Buffer.from(tree.root), ':checkpoint': checkpoint });
    const result = await verify(tenant.token);
    expect(result.problems).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'archive', reason: expect.stringContaining('no archived copy') })]));
    expect(result.problems.filter((problem: { kind: string }) => problem.kind !== 'record')).toHaveLength(1);
  });
});

describe('the offline verifier (scripts/verify-receipt.mjs)', () => {
  it('accepts a real receipt with its proof and the keys, and rejects a modified one', async () => {
    const { tenant, ids, receipts } = await loggedTenant(2);
    const dir = await mkdtemp(join(tmpdir(), 'receipt-'));
    const proof = (await call('GET', `/api/v1/consent/records/${ids[0]}/proof`, { token: tenant.token })).body;
    const keys = (await call('GET', '/api/v1/consent/log/keys')).body;
    expect(keys.keys.length).toBeGreaterThanOrEqual(2);
    await writeFile(join(dir, 'receipt.jws'), receipts[0]!);
    await writeFile(join(dir, 'proof.json'), JSON.stringify(proof));
    await writeFile(join(dir, 'keys.json'), JSON.stringify(keys));
    const valid = await run(process.execPath, ['scripts/verify-receipt.mjs', join(dir, 'receipt.jws'), join(dir, 'proof.json'), join(dir, 'keys.json')]);
    expect(valid.stdout).toMatch(/^VALID/);
    const [header, payload, signature] = receipts[0]!.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const altered = `${header}.${Buffer.from(JSON.stringify({ ...claims, nv: claims.nv + 1 })).toString('base64url')}.${signature}`;
    await writeFile(join(dir, 'altered.jws'), altered);
    const invalid = await run(process.execPath, ['scripts/verify-receipt.mjs', join(dir, 'altered.jws'), join(dir, 'proof.json'), join(dir, 'keys.json')]).catch((error: { code: number; stdout: string }) => error);
    expect(invalid).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID/) });
  });
});

describe('migration of the hash-chain era', () => {
  it('makes the chained records the first leaves, in chain order, and keeps their format-1 proofs', async () => {
    const tenant = await newTenant(call);
    const { noticeId, required } = await publishedNotice(call, tenant.token);
    const chained = [];
    let previous = genesisHash;
    for (let seq = 1; seq <= 3; seq += 1) {
      const createdAt = new Date(Date.now() - (10 - seq) * 60_000).toISOString();
      const recordId = newTimeOrderedId(new Date(createdAt));
      const evidence = {
        tenantId: tenant.tenantId, recordId, noticeId, noticeVersionNumber: 1, noticeTextHash: 'a'.repeat(64), languageShown: 'EN', positionShown: 'api',
        dataPrincipalHash: 'b'.repeat(64), externalId: null, consentGiven: { [required]: true }, createdAt, ipAddress: '192.0.2.1', userAgent: null, chainSeq: seq, prevProofHash: previous,
      };
      const proofHash = proofHashOf({ ...evidence, proofVersion: 1 });
      chained.push({ ...evidence, proofHash });
      previous = proofHash;
    }
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          ...chained.map((record) => ({
            Put: {
              TableName: tableName(),
              Item: {
                ...consentKeys.record(tenant.tenantId, record.recordId), ...consentKeys.principal(tenant.tenantId, record.dataPrincipalHash, record.createdAt, record.recordId),
                ...consentKeys.status(tenant.tenantId, 'active', record.createdAt, record.recordId), ...consentKeys.chain(tenant.tenantId, record.chainSeq),
                type: 'ConsentRecord', ...record, noticeTitle: 'Old notice', lineageId: noticeId, channel: 'SDK', decision: null, requiredPurposesDeclined: [], prevRecordId: null,
                withdrawnPurposes: [], withdrawnAt: null, isWithdrawn: false, isPartiallyWithdrawn: false, withdrawalVersion: 0,
              },
            },
          })),
          { Put: { TableName: tableName(), Item: { ...consentKeys.chainHead(tenant.tenantId), seq: 3, headHash: previous, headRecordId: chained[2]!.recordId } } },
        ],
      }),
    );
    const fresh = await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: 'after@example.com', consentGiven: { [required]: true } });
    await waitForLog(tenant.tenantId, 4);
    const head = await readHead(tenant.tenantId);
    expect(head.migrated).toBe(true);
    const order = (await readBatches(tenant.tenantId, 0, 4)).flatMap((batch) => batch.entries.map((entry) => entry.id));
    expect(order).toEqual([...chained.map((record) => record.recordId), fresh.body.data.consentRecordId]);
    const oldProof = (await call('GET', `/api/v1/consent/records/${chained[1]!.recordId}/proof`, { token: tenant.token })).body.data;
    expect(oldProof).toMatchObject({ proofVersion: 1, matches: true, log: { status: 'INTEGRATED', leafIndex: 1 } });
    expect(oldProof.payload).toMatchObject({ chainSeq: 2, prevProofHash: chained[0]!.proofHash });
    expect(await verify(tenant.token)).toMatchObject({ intact: true, treeSize: 4 });
  });
});
