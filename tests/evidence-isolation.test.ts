import { randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '../shared/db/commands';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../shared/db/client';
import { archiveCheckpoint } from '../shared/evidence/archive';
import { logOrigin, signCheckpoint } from '../shared/evidence/checkpoint';
import { CheckpointRefusedError, signCheckpointFor } from '../shared/evidence/checkpointer';
import { encodeEntries } from '../shared/evidence/entries';
import { logKeys } from '../shared/evidence/log-keys';
import { readBatches, readHead } from '../shared/evidence/log-store';
import { logHealth } from '../shared/evidence/log-health';
import { checkpointSigner } from '../shared/evidence/signers';
import { newTimeOrderedId } from '../shared/ids';
import { newTenant, useApi } from './support/api';
import { publishedNotice, recordConsent } from './support/consent';
import { waitForLog } from './support/evidence';
import { waitFor } from './support/receiver';
import { useTestWorkers } from './support/workers';

/**
 * One tenant's broken log never holds up another's: the stream goes on, the broken tenant's
 * entries wait (parked, in order) or stay unsigned, and an alert says so.
 */
const { call } = useApi();
useTestWorkers();

/** A tenant with a published notice and one consent, logged and signed. */
const tenantWithLog = async () => {
  const tenant = await newTenant(call);
  const notice = await publishedNotice(call, tenant.token);
  const consent = async (label: string) =>
    (await recordConsent(call, tenant.token, { noticeId: notice.noticeId, dataPrincipalIdentifier: `${label}@example.com`, consentGiven: { [notice.required]: true } })).body.data.consentRecordId as string;
  const first = await consent('first');
  await waitForLog(tenant.tenantId, 1);
  return { tenant, consent, first };
};

const logOrder = async (tenantId: string) => (await readBatches(tenantId, 0, (await readHead(tenantId)).sequenced)).flatMap((batch) => batch.entries.map((entry) => entry.id));
const verify = async (token: string) => (await call('GET', '/api/v1/consent/proof-chain/verify', { token })).body.data;

describe('one tenant whose log cannot be appended to', () => {
  it('is parked while other tenants\' records keep being logged and signed, and catches up in order once fixed', async () => {
    const a = await tenantWithLog();
    const b = await tenantWithLog();
    // A batch left at A's head position (a restore that set the head back but kept what followed):
    // every append to A's log fails on it.
    const stray = { ...logKeys.batch(a.tenant.tenantId, 1), type: 'LogBatch', start: 1, entries: encodeEntries([{ kind: 'record', id: newTimeOrderedId(), hash: randomBytes(32).toString('hex') }]) };
    await db().send(new PutCommand({ TableName: tableName(), Item: stray }));
    const aLater = [await a.consent('a2'), await a.consent('a3')];
    // The stream meets A's records first, then B's.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await b.consent('b2');
    await b.consent('b3');
    await waitForLog(b.tenant.tenantId, 3);
    expect((await readHead(a.tenant.tenantId)).sequenced).toBe(1);
    const parked = await waitFor(async () => (await logHealth()).parked.find((tenant) => tenant.tenantId === a.tenant.tenantId));
    expect(parked.entries).toBe(2);

    await db().send(new DeleteCommand({ TableName: tableName(), Key: logKeys.batch(a.tenant.tenantId, 1) }));
    await waitForLog(a.tenant.tenantId, 3);
    expect(await logOrder(a.tenant.tenantId)).toEqual([a.first, ...aLater]);
    expect((await logHealth()).parked.map((tenant) => tenant.tenantId)).not.toContain(a.tenant.tenantId);
    expect(await verify(a.tenant.token)).toMatchObject({ intact: true, treeSize: 3 });
    expect(await verify(b.tenant.token)).toMatchObject({ intact: true, treeSize: 3 });
  });
});

describe('one tenant whose next checkpoint conflicts with an archived one', () => {
  it('stays unsigned and is reported, while its records still enter its log and other tenants are signed', async () => {
    const a = await tenantWithLog();
    const b = await tenantWithLog();
    // A note for A's next size, signed by the service over another tree: a fork in the archive.
    const fork = await signCheckpoint({ origin: logOrigin(a.tenant.tenantId), treeSize: 2, rootHash: randomBytes(32) }, await checkpointSigner());
    await archiveCheckpoint(a.tenant.tenantId, 2, fork);
    await a.consent('a2');
    await waitForLog(a.tenant.tenantId, 2, { signed: false });
    await b.consent('b2');
    await waitForLog(b.tenant.tenantId, 2);

    expect((await readHead(a.tenant.tenantId)).checkpoint?.treeSize).toBe(1);
    await expect(signCheckpointFor(a.tenant.tenantId, new Date(Date.now() + 60_000))).rejects.toThrow(CheckpointRefusedError);
    const health = await logHealth(new Date(Date.now() + 600_000));
    expect(health.checkpointLagSeconds).toBeGreaterThanOrEqual(590);
    const result = await verify(a.tenant.token);
    expect(result.problems).toEqual([expect.objectContaining({ kind: 'rollback', reason: expect.stringContaining('size 2') })]);
    // Nothing of A's was skipped: its entries are there for the day the fork is resolved.
    expect((await readHead(a.tenant.tenantId)).integrated).toBe(2);
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: logKeys.head(a.tenant.tenantId), ConsistentRead: true }));
    expect(Item?.GSI1PK).toBe(logKeys.unsignedPartition);
  });
});
