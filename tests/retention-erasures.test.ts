import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import canonicalize from 'canonicalize';
import { consentKeys } from '../shared/consent/keys';
import { principalRecordsWithContact } from '../shared/consent/store';
import { db, tableName } from '../shared/db/client';
import { GetCommand, UpdateCommand } from '../shared/db/commands';
import { positionsOf } from '../shared/evidence/log-map';
import { entryProblems } from '../shared/evidence/verify-entries';
import { documentsOf } from '../shared/evidence/documents';
import { buildEvidencePack } from '../shared/evidence-pack/pack';
import { signPack } from '../shared/evidence-pack/signature';
import { lastActivityOf } from '../shared/retention/activity';
import { sweepRetentionDue } from '../shared/retention/sweeper';
import { newTenant, useApi } from './support/api';
import { useClockReset } from './support/clock';
import { recordConsent, sha256 } from './support/consent';
import { createNotice, createPurpose, publish } from './support/notices';
import { startReceiver, waitFor } from './support/receiver';
import { failWrites } from './support/storage';
import { manualSweeps, useTestWorkers } from './support/workers';
import { verifyProof } from '../web/dashboard/src/verify';

/**
 * Issue 34's second principal, in process on the injectable clock: her data lapses for every
 * purpose; her records are EXPIRED, the run's erasure_due page lists exactly the run's hashes, the
 * run's erasure task lists the data map's assets holding those purposes' data and is resolved
 * asset by asset (logged), the upcoming list and the day summary show it, her sealed email is
 * gone, and so is her external id (its lookup finds nothing), while her record's proof, her
 * evidence pack offline and the log's verification still hold by the binding the erasure logged.
 */
const { call } = useApi();
useTestWorkers();
useClockReset();

const day = 86_400_000;
const hookSecret = 'retention-hook-secret-0123456789';
const run = promisify(execFile);
const getItem = async (key: Record<string, string>) => (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

describe('erasure after the retention period', () => {
  it('expires her records, pages her hash, lists the erasure task with its assets, erases what is not evidence, and her pack verifies', async () => {
    const tenant = await newTenant(call);
    const other = await newTenant(call);
    manualSweeps.add(tenant.tenantId);
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      expect((await call('POST', '/api/v1/webhooks', { token: tenant.token, body: { label: 'r', url: receiver.url, secret: hookSecret, events: ['retention.erasure_due'] } })).status).toBe(201);
      const offers = await createPurpose(call, tenant.token, { name: 'Offers', dataCategories: ['email'], retention: { period: 'P30D', from: 'CONSENT' } });
      const profile = await createPurpose(call, tenant.token, { name: 'Profile', dataCategories: ['email'], retention: { period: 'P30D', from: 'CONSENT' } });
      const unrelated = await createPurpose(call, tenant.token, { name: 'Payroll', dataCategories: ['email'] });
      const asset = async (name: string, purposeIds: string[]) => {
        const created = await call('POST', '/api/v1/data-assets', { token: tenant.token, body: { name, system: `${name} system`, dataCategories: ['email'], purposeIds } });
        expect(created.status).toBe(201);
        return created.body.data.assetId as string;
      };
      const crm = await asset('CRM', [offers]);
      const mailer = await asset('Mailer', [profile, unrelated]);
      await asset('Payroll', [unrelated]);
      const noticeId = await createNotice(call, tenant.token, [offers, profile]);
      expect((await publish(call, tenant.token, noticeId)).status).toBe(200);
      const emails = ['first', 'second'].map((name) => `${name}-${tenant.tenantId}@example.in`);
      const consentedAt = Date.now();
      for (const [index, email] of emails.entries()) {
        expect((await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: email, externalId: `customer-${index}`, consentGiven: { [offers]: true, [profile]: true } })).status).toBe(201);
        await waitFor(() => lastActivityOf(tenant.tenantId, sha256(email)).then((at) => at ?? undefined));
      }
      const hashes = emails.map(sha256).sort();
      const second = sha256(emails[1]!);
      expect((await principalRecordsWithContact(tenant.tenantId, second)).map((row) => typeof row.sealedContact)).toEqual(['string']);
      expect((await call('GET', '/api/v1/consent/by-external-id/customer-1', { token: tenant.token })).body.data).toHaveLength(1);

      // Scheduled now: both due 30 days on.
      await sweepRetentionDue({ accept: (id) => id === tenant.tenantId });
      const range = `from=${encodeURIComponent(new Date(consentedAt).toISOString())}&to=${encodeURIComponent(new Date(consentedAt + 40 * day).toISOString())}`;
      const upcoming = async (query = '') => (await call('GET', `/api/v1/retention/upcoming?${range}${query}`, { token: tenant.token })).body.data;
      expect((await upcoming()).items.map((item: { identifierHash: string; state: string }) => [item.identifierHash, item.state]).sort()).toEqual(hashes.map((hash) => [hash, 'SCHEDULED']));

      setClock(offsetClock(31 * day));
      try {
        await sweepRetentionDue({ accept: (id) => id === tenant.tenantId });
      } finally {
        resetClock();
      }

      // Her records: EXPIRED, nothing in force.
      const status = (await call('GET', `/api/v1/consent/status/${second}`, { token: tenant.token })).body.data[0];
      expect(status).toMatchObject({ consentState: 'EXPIRED', consentGiven: { [offers]: false, [profile]: false } });

      // The run: one log entry, one erasure_due page with exactly the run's hashes.
      const runs = await documentsOf(tenant.tenantId, 'retention-runs');
      expect(runs).toHaveLength(1);
      const runId = (JSON.parse(runs[0]!.canonical) as { content: { runId: string } }).content.runId;
      const delivery = await waitFor(() => receiver.received.find((entry) => JSON.parse(entry.rawBody.toString('utf8')).type === 'retention.erasure_due'), 30_000);
      expect(JSON.parse(delivery.rawBody.toString('utf8')).data).toEqual({ runId, page: 1, pages: 1, purposeIds: [offers, profile].sort(), principalHashes: hashes });

      // The upcoming list and the day summary.
      const expired = await upcoming('&state=EXPIRED');
      expect(expired.items.map((item: { identifierHash: string }) => item.identifierHash).sort()).toEqual(hashes);
      expect(expired.items[0]).toMatchObject({ purposeIds: [offers, profile].sort(), noticeSentAt: null, state: 'EXPIRED' });
      expect((await upcoming('&state=SCHEDULED')).items).toEqual([]);
      const summary = (await call('GET', `/api/v1/retention/summary?${range}`, { token: tenant.token })).body.data.days as { date: string; due: number; expired: number; noticesSent: number; cancelled: number }[];
      expect(summary).toHaveLength(41);
      const dayOf = (ms: number) => summary.find((entry) => entry.date === new Date(ms).toISOString().slice(0, 10));
      expect(dayOf(consentedAt + 30 * day)).toMatchObject({ due: 2 });
      expect(dayOf(consentedAt + 31 * day)).toMatchObject({ expired: 2 });
      expect(summary.reduce((sum, entry) => sum + entry.due, 0)).toBe(2);
      expect((await call('GET', '/api/v1/retention/summary?from=2026-02-02T00:00:00Z&to=2026-02-01T00:00:00Z', { token: tenant.token })).body.error).toMatchObject({ code: 'VALIDATION_ERROR', fields: { to: expect.any(String) } });

      // The erasure task: the assets holding the lapsed purposes' data (not Payroll).
      const list = (await call('GET', '/api/v1/retention/erasures', { token: tenant.token })).body.data;
      expect(list).toMatchObject({ total: 1, page: 1, limit: 20 });
      const [task] = list.items;
      expect(task).toMatchObject({ id: runId, runId, purposeIds: [offers, profile].sort(), principalCount: 2, state: 'OPEN' });
      expect(task.assets.map((entry: { assetId: string }) => entry.assetId).sort()).toEqual([crm, mailer].sort());
      expect(task.assets.find((entry: { assetId: string }) => entry.assetId === crm)).toEqual({ assetId: crm, name: 'CRM', system: 'CRM system', resolved: false });
      expect((await call('GET', `/api/v1/retention/erasures/${runId}`, { token: other.token })).status).toBe(404);
      expect((await call('POST', `/api/v1/retention/erasures/${runId}/assets/${crm}/resolve`, { token: other.token, body: {} })).status).toBe(404);
      const resolve = (assetId: string, body: Record<string, unknown> = {}) => call('POST', `/api/v1/retention/erasures/${runId}/assets/${assetId}/resolve`, { token: tenant.token, body });
      const once = await resolve(crm, { note: 'rows deleted' });
      expect(once.status).toBe(200);
      expect(once.body.data).toMatchObject({ state: 'OPEN' });
      expect(once.body.data.assets.find((entry: { assetId: string }) => entry.assetId === crm)).toMatchObject({ resolved: true, resolvedAt: expect.any(String), resolvedBy: expect.stringMatching(/^user:/), note: 'rows deleted' });
      // Twice: the same task, nothing logged again.
      expect((await resolve(crm)).body.data).toEqual(once.body.data);
      expect((await resolve('00000000-0000-4000-8000-000000000009')).status).toBe(404);
      // A resolve whose write fails is never a 2xx, and leaves the asset as it was.
      const storage = failWrites({ except: (command) => !command.startsWith('TransactWrite') });
      try {
        expect((await resolve(mailer)).status).toBeGreaterThanOrEqual(500);
      } finally {
        storage.restore();
      }
      expect((await call('GET', `/api/v1/retention/erasures/${runId}`, { token: tenant.token })).body.data).toEqual(once.body.data);
      const done = await resolve(mailer);
      expect(done.body.data).toMatchObject({ state: 'RESOLVED', resolvedAt: expect.any(String) });
      expect((await call('GET', `/api/v1/retention/erasures/${runId}`, { token: tenant.token })).body.data).toEqual(done.body.data);
      const logged = await documentsOf(tenant.tenantId, `retention-task:${runId}`);
      expect(logged.map((document) => [document.documentType, (JSON.parse(document.canonical) as { content: { assetId: string } }).content.assetId])).toEqual([
        ['retention.erasure-asset-resolved', crm],
        ['retention.erasure-asset-resolved', mailer],
      ]);
      expect((await call('GET', '/api/v1/retention/erasures?state=OPEN', { token: tenant.token })).body.data).toMatchObject({ items: [], total: 0 });
      expect((await call('GET', '/api/v1/retention/erasures?state=RESOLVED', { token: tenant.token })).body.data).toMatchObject({ total: 1, items: [{ id: runId }] });

      // What is not evidence is gone: her sealed email; the erasure logged.
      const erased = await waitFor(async () => {
        const documents = (await documentsOf(tenant.tenantId, `retention:${second}`)).filter((document) => document.documentType === 'retention.erased');
        return documents.length > 0 ? documents : undefined;
      });
      expect(erased).toHaveLength(1);
      const rows = await principalRecordsWithContact(tenant.tenantId, second);
      expect(rows.map((row) => row.sealedContact)).toEqual([undefined]);

      // Her external id too: the clear id and its lookup are gone; the logged binding ties her evidence without it to the proof hash.
      const [{ record: herRecord }] = rows as [(typeof rows)[number]];
      const content = (JSON.parse(erased[0]!.canonical) as { content: { erased: string[]; records: string[]; externalIds: unknown[] } }).content;
      expect(content.erased).toEqual(['sealedContact', 'externalId']);
      expect(content.records).toEqual([herRecord.recordId]);
      expect(content.externalIds).toEqual([{ recordId: herRecord.recordId, proofHash: herRecord.proofHash, externalIdSha256: sha256('customer-1'), evidenceSha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
      expect(herRecord).toMatchObject({ externalId: null, externalIdSha256: sha256('customer-1') });
      expect(JSON.stringify(await getItem(consentKeys.record(tenant.tenantId, herRecord.recordId)))).not.toContain('customer-1');
      expect((await call('GET', '/api/v1/consent/by-external-id/customer-1', { token: tenant.token })).body.data).toEqual([]);
      const proof = (await call('GET', `/api/v1/consent/records/${herRecord.recordId}/proof`, { token: tenant.token })).body.data;
      expect(proof).toMatchObject({ proofHash: herRecord.proofHash, matches: true, payload: { externalId: { sha256: sha256('customer-1') } }, externalIdErasure: { documentId: erased[0]!.documentId, externalIdSha256: sha256('customer-1') } });
      expect(proof.canonicalPayload).not.toContain('customer-1');
      expect(proof.recomputedHash).toBe(proof.externalIdErasure.evidenceSha256);
      // Whoever holds the clear id puts it back and recomputes the original proof hash.
      expect(sha256(canonicalize({ ...proof.payload, externalId: 'customer-1' })!)).toBe(herRecord.proofHash);

      // Her pack verifies offline and shows the erasure: when, what, why.
      // Made a day after the run, as the DPO would (the domain function the route calls: a token of
      // now would have expired on the moved clock), so nothing in it postdates the pack.
      setClock(offsetClock(32 * day));
      const pack = JSON.parse(JSON.stringify(await buildEvidencePack(tenant.tenantId, { principalHash: second }).finally(resetClock)));
      expect(pack.erasures).toHaveLength(1);
      const dir = await mkdtemp(join(tmpdir(), 'retention-pack-'));
      await writeFile(join(dir, 'pack.json'), JSON.stringify(pack));
      const verified = await run(process.execPath, ['scripts/verify-evidence-pack.mjs', join(dir, 'pack.json')]).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout + error.stderr }),
      );
      expect([0, 3], verified.stdout).toContain(verified.code);
      expect(verified.stdout).toMatch(/erasure #1 \(.+\), .+: her personal data \(sealedContact, externalId\) of 1 record erased, reason RETENTION_PERIOD_ENDED, run /);
      expect(pack.records[0].payload.externalId).toEqual({ sha256: sha256('customer-1') });
      expect(JSON.stringify(pack)).not.toContain('customer-1');
      const refusedPack = async (name: string, change: (copy: Record<string, any>) => void) => {
        const { signature: _signature, ...copy } = structuredClone(pack);
        change(copy);
        await writeFile(join(dir, name), JSON.stringify({ ...copy, signature: await signPack(copy) }));
        const result = await run(process.execPath, ['scripts/verify-evidence-pack.mjs', join(dir, name)]).then(({ stdout }) => ({ code: 0, stdout }), (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout + error.stderr }));
        expect(result.code, result.stdout).toBe(1);
        return result.stdout;
      };
      // Her evidence without the id altered, or shown without the erasure that binds it: refused, even signed again by the log's key.
      expect(await refusedPack('choices.json', (copy) => { copy.records[0].payload.consentGiven[offers] = false; })).toMatch(/erasure #1 .*not the evidence it bound to the proof hash/);
      expect(await refusedPack('another-id.json', (copy) => { copy.records[0].payload.externalId = { sha256: sha256('customer-0') }; })).toMatch(/erasure #1 .*not the evidence it bound/);
      expect(await refusedPack('unbound.json', (copy) => { delete copy.erasures; })).toMatch(/record #1 .*no erasure in the pack binds its evidence/);
      // An altered erasure is refused, even in a pack signed again by the log's key.
      const { signature: _signature, ...altered } = structuredClone(pack);
      altered.erasures[0].canonical = altered.erasures[0].canonical.replace('RETENTION_PERIOD_ENDED', 'CONSENT_WITHDRAWN');
      await writeFile(join(dir, 'altered.json'), JSON.stringify({ ...altered, signature: await signPack(altered) }));
      const refused = await run(process.execPath, ['scripts/verify-evidence-pack.mjs', join(dir, 'altered.json')]).catch((error: { code: number; stdout: string; stderr: string }) => error);
      expect('code' in refused && refused.code).toBe(1);
      expect('stdout' in refused && `${refused.stdout}${refused.stderr}`).toContain('erasure #1');

      // The log's own verification re-reads her record and accepts it by the logged binding, once the erasure is in the log; her evidence altered is still found.
      const documentId = erased[0]!.documentId;
      await waitFor(() => positionsOf(tenant.tenantId, [documentId]).then((positions) => positions.get(documentId)));

      // Her single record, checked from the proof endpoint's answer alone: the erasure as logged, its inclusion against the record's checkpoint, and its binding.
      const answer = await waitFor(async () => {
        const body = (await call('GET', `/api/v1/consent/records/${herRecord.recordId}/proof`, { token: tenant.token })).body.data;
        return body.externalIdErasure.log.status === 'INTEGRATED' && body.log.status === 'INTEGRATED' ? body : undefined;
      }, 30_000);
      expect(answer.externalIdErasure.document).toEqual({ documentId, canonical: erased[0]!.canonical, hash: erased[0]!.hash });
      const erasureLeaf = (await positionsOf(tenant.tenantId, [documentId])).get(documentId);
      expect(answer.externalIdErasure.log.leafIndex).toBe(erasureLeaf);
      const keys = (await call('GET', '/api/v1/consent/log/keys')).body;
      await writeFile(join(dir, 'keys.json'), JSON.stringify(keys));
      await writeFile(join(dir, 'receipt.jws'), answer.receipt);
      const receiptCheck = async (name: string, body: unknown) => {
        await writeFile(join(dir, name), JSON.stringify({ data: body }));
        return run(process.execPath, ['scripts/verify-receipt.mjs', join(dir, 'receipt.jws'), join(dir, name), join(dir, 'keys.json')]).then(
          ({ stdout }) => ({ code: 0, stdout }),
          (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout + error.stderr }),
        );
      };
      const erasureSaid = `its external id was erased on ${erased[0]!.at} by the retention run ${runId}, bound by log entry ${erasureLeaf}`;
      const good = await receiptCheck('proof.json', answer);
      expect(good.code, good.stdout).toBe(0);
      expect(good.stdout).toMatch(new RegExp(`^VALID: record ${herRecord.recordId} \\(attribution VERIFIED\\) is leaf \\d+ of the tenant.s log`));
      expect(good.stdout).toContain(erasureSaid);
      const dashboard = await verifyProof(answer, keys.keys, tenant.tenantId);
      expect(dashboard.failure).toBeUndefined();
      expect(dashboard).toMatchObject({ holds: true, erasure: `Verified; ${erasureSaid.replace('its external id', 'the external id')}.` });
      expect(dashboard.checks.every((check) => check.ok)).toBe(true);

      // Tampered: her evidence altered; the binding rewritten to fit it (the logged text then is no leaf of the log); the binding's text altered under its hash; not yet in the checkpoint.
      const tampered = (change: (copy: Record<string, any>) => void) => {
        const copy = structuredClone(answer);
        change(copy);
        return copy;
      };
      const alteredEvidence = tampered((copy) => { copy.canonicalPayload = copy.canonicalPayload.replace(`"${offers}":true`, `"${offers}":false`); });
      expect(alteredEvidence.canonicalPayload).not.toBe(answer.canonicalPayload);
      const rebound = tampered((copy) => {
        copy.canonicalPayload = alteredEvidence.canonicalPayload;
        const document = JSON.parse(copy.externalIdErasure.document.canonical);
        document.content.externalIds[0].evidenceSha256 = sha256(alteredEvidence.canonicalPayload);
        copy.externalIdErasure.document.canonical = canonicalize(document);
        copy.externalIdErasure.document.hash = sha256(copy.externalIdErasure.document.canonical);
      });
      const otherProof = tampered((copy) => { copy.externalIdErasure.document.canonical = copy.externalIdErasure.document.canonical.replace(herRecord.proofHash, sha256('another')); });
      const pending = tampered((copy) => { copy.externalIdErasure.log = { status: 'PENDING', leafIndex: copy.externalIdErasure.log.leafIndex, inclusionProof: [] }; });
      const cases: [string, Record<string, any>, RegExp, RegExp][] = [
        ['altered-evidence.json', alteredEvidence, /not the evidence the erasure bound/, /not the evidence the logged erasure bound/],
        ['rebound.json', rebound, /does not place the erasure at leaf/, /does not lead from the logged erasure/],
        ['other-proof.json', otherProof, /the logged erasure does not hash to its hash/, /The logged erasure does not hash to its hash/],
        ['pending.json', pending, /the erasure is not yet in a signed checkpoint/, /erasure of the external id is pending/],
      ];
      for (const [name, body, offline, browser] of cases) {
        const refused = await receiptCheck(name, body);
        expect(refused.code, `${name}: ${refused.stdout}`).toBe(1);
        expect(refused.stdout).toMatch(offline);
        const checked = await verifyProof(body as typeof answer, keys.keys, tenant.tenantId);
        expect(checked.holds, name).toBe(false);
        expect(checked.failure).toMatch(browser);
        expect(checked.erasure).toBeUndefined();
      }

      const entry = { kind: 'record' as const, id: herRecord.recordId, hash: herRecord.proofHash, position: 0 };
      expect(await entryProblems(tenant.tenantId, [entry])).toEqual([]);
      await db().send(new UpdateCommand({ TableName: tableName(), Key: consentKeys.record(tenant.tenantId, herRecord.recordId), UpdateExpression: 'SET cg.#offers = :no', ExpressionAttributeNames: { '#offers': offers }, ExpressionAttributeValues: { ':no': false } }));
      expect(await entryProblems(tenant.tenantId, [entry])).toEqual([expect.objectContaining({ reason: expect.stringContaining('no retention.erased in the log binds its evidence without it') })]);
    } finally {
      resetClock();
      await receiver.close();
    }
  }, 120_000);
});
