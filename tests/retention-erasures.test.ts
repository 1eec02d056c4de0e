import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import canonicalize from 'canonicalize';
import { consentKeys } from '../shared/consent/keys';
import { noticeTextHash } from '../shared/consent/notice-text';
import { proofHashOf } from '../shared/consent/proof';
import { genesisHash, type ConsentRecord } from '../shared/consent/record';
import { principalRecordsWithContact } from '../shared/consent/store';
import { db, tableName } from '../shared/db/client';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '../shared/db/commands';
import { renderDocument } from '../shared/documents/render';
import { packDocumentModel } from '../shared/evidence-pack/document';
import { newTimeOrderedId } from '../shared/ids';
import { getNotice, getVersion } from '../shared/notices/store';
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
 * gone, and so are her external ids (their lookup finds nothing), her user agents and IP addresses
 * (of a record of the hash-chain era too) and the reason she typed for a withdrawal, while her
 * records' proofs, her evidence pack offline (and its page) and the log's verification still hold
 * by the bindings the erasure logged; an altered choice, a swapped hash or a missing erasure is
 * refused by every checker.
 */
const { call } = useApi();
useTestWorkers();
useClockReset();

const day = 86_400_000;
const hookSecret = 'retention-hook-secret-0123456789';
const run = promisify(execFile);
const getItem = async (key: Record<string, string>) => (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
const run_ = (script: string, files: string[]) =>
  run(process.execPath, [script, ...files]).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout + error.stderr }),
  );

/**
 * A record of the hash-chain era (proof format 1), stored whole under the tenant's own partition as
 * records then were, with its external id, user agent and IP address as attributes, before the
 * tenant's log was first sequenced (the migration makes it the log's first leaf).
 */
const chainEraRecord = async (tenantId: string, noticeId: string, principalHash: string, consentGiven: Record<string, boolean>) => {
  const notice = (await getNotice(tenantId, noticeId))!;
  const snapshot = (await getVersion(tenantId, notice.lineageId, 1))!;
  const createdAt = new Date(Date.now() - 60_000).toISOString();
  const evidence = {
    tenantId, recordId: newTimeOrderedId(new Date(createdAt)), noticeId, noticeVersionNumber: 1, noticeTextHash: noticeTextHash(snapshot, 'EN'), languageShown: 'EN', positionShown: 'api',
    dataPrincipalHash: principalHash, externalId: 'legacy-7', consentGiven, createdAt, ipAddress: '198.51.100.23', userAgent: 'Old browser/0.9', chainSeq: 1, prevProofHash: genesisHash,
  };
  const proofHash = proofHashOf({ ...evidence, proofVersion: 1 });
  await db().send(new TransactWriteCommand({
    TransactItems: [
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...consentKeys.legacyRecord(tenantId, evidence.recordId), ...consentKeys.principal(tenantId, principalHash, createdAt, evidence.recordId),
            ...consentKeys.status(tenantId, 'active', createdAt, evidence.recordId), ...consentKeys.external(tenantId, 'legacy-7', createdAt, evidence.recordId), ...consentKeys.chain(tenantId, 1),
            type: 'ConsentRecord', ...evidence, proofHash, noticeTitle: snapshot.title, lineageId: notice.lineageId, channel: 'DASHBOARD', decision: null, requiredPurposesDeclined: [], prevRecordId: null,
            withdrawnPurposes: [], withdrawnAt: null, isWithdrawn: false, isPartiallyWithdrawn: false, withdrawalVersion: 0,
          },
        },
      },
      { Put: { TableName: tableName(), Item: { ...consentKeys.chainHead(tenantId), seq: 1, headHash: proofHash, headRecordId: evidence.recordId } } },
    ],
  }));
  return { recordId: evidence.recordId, proofHash };
};

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
      const second = sha256(emails[1]!);
      // Her record of the hash-chain era, before anything of the tenant is logged.
      const chained = await chainEraRecord(tenant.tenantId, noticeId, second, { [offers]: true, [profile]: true });
      const consentedAt = Date.now();
      for (const [index, email] of emails.entries()) {
        const body = { noticeId, dataPrincipalIdentifier: email, externalId: `customer-${index}`, consentGiven: { [offers]: true, [profile]: true }, ipAddress: `203.0.113.${index + 1}`, userAgent: `Her browser/${index + 1}.0` };
        expect((await recordConsent(call, tenant.token, body)).status).toBe(201);
        await waitFor(() => lastActivityOf(tenant.tenantId, sha256(email)).then((at) => at ?? undefined));
      }
      // She withdraws (both her records: the notice's), with a reason she typed.
      const withdrawn = await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: emails[1], noticeId, reason: 'Too many mails from Shop' } });
      expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
      const withdrawalId = withdrawn.body.data.withdrawalId as string;
      const hashes = emails.map(sha256).sort();
      const withdrawalSalt = (await getItem(consentKeys.withdrawal(tenant.tenantId, withdrawalId)))?.salt as string | undefined;
      const before = await principalRecordsWithContact(tenant.tenantId, second);
      expect(before.map((row) => typeof row.sealedContact)).toEqual(['string', 'undefined']);
      const saltBefore = before[0]!.record.salt;
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
      expect(rows.map((row) => row.sealedContact)).toEqual([undefined, undefined]);

      // Her external ids, user agents and IP addresses too, her record of the hash-chain era's as well, and the reason she typed with
      // her email on the withdrawal: the values and the lookups by them are gone; the logged bindings tie her evidence without them to its hashes.
      const [herRecord, oldRecord] = rows.map((row) => row.record) as [ConsentRecord, ConsentRecord];
      expect(oldRecord).toMatchObject({ recordId: chained.recordId, proofVersion: 1, consentState: 'EXPIRED' });
      const reason = 'Too many mails from Shop';
      const clear = ['customer-1', 'Her browser/2.0', '203.0.113.2', 'legacy-7', 'Old browser/0.9', '198.51.100.23', reason, emails[1]!];
      const hex64 = expect.stringMatching(/^[0-9a-f]{64}$/);
      type Content = { erased: string[]; records: string[]; withdrawals: string[]; recordBindings: Record<string, string>[]; withdrawalBindings: Record<string, string>[] };
      const content = (JSON.parse(erased[0]!.canonical) as { content: Content }).content;
      expect(content.erased).toEqual(['sealedContact', 'externalId', 'userAgent', 'ipAddress', 'salt', 'withdrawalReason', 'withdrawalSalt', 'withdrawalEmail']);
      expect(content.records).toEqual([herRecord.recordId, oldRecord.recordId]);
      expect(content.withdrawals).toEqual([withdrawalId]);
      // Her record (proof format 4): each value's hash keyed by the record's salt, read before the sweep; the salt erased too, as its SHA-256.
      // Her record of the hash-chain era has no salt: the plain SHA-256 of each value (docs/retention.md says so).
      expect(herRecord.proofVersion).toBe(4);
      expect(saltBefore).toMatch(/^[\w-]{22}$/);
      const salt = saltBefore!;
      const sha256s = (values: string[]) => ({ externalId: sha256(values[0]!), userAgent: sha256(values[1]!), ipAddress: sha256(values[2]!) });
      const keyed = (value: string) => sha256(canonicalize({ salt, value })!);
      const herSha256 = { externalId: keyed(clear[0]!), userAgent: keyed(clear[1]!), ipAddress: keyed(clear[2]!), salt: sha256(salt) };
      expect(herSha256.ipAddress).not.toBe(sha256(clear[2]!));
      const oldSha256 = sha256s(clear.slice(3, 6));
      const bindingOf = (recordId: string, proofHash: string, fields: ReturnType<typeof sha256s> & { salt?: string }) => ({ recordId, proofHash, externalIdSha256: fields.externalId, userAgentSha256: fields.userAgent, ipAddressSha256: fields.ipAddress, ...(fields.salt ? { saltSha256: fields.salt } : {}), evidenceSha256: hex64 });
      expect(content.recordBindings).toEqual([bindingOf(herRecord.recordId, herRecord.proofHash, herSha256), bindingOf(chained.recordId, chained.proofHash, oldSha256)]);
      // Her withdrawal's reason likewise, keyed by the withdrawal's own salt (erased with it).
      expect(withdrawalSalt).toMatch(/^[\w-]{22}$/);
      const reasonSha256 = sha256(canonicalize({ salt: withdrawalSalt, value: reason })!);
      expect(reasonSha256).not.toBe(sha256(reason));
      expect(content.withdrawalBindings).toEqual([{ withdrawalId, hash: hex64, reasonSha256, saltSha256: sha256(withdrawalSalt!), evidenceSha256: hex64 }]);
      expect(herRecord).toMatchObject({ externalId: null, userAgent: null, ipAddress: null, salt: null, erasedSha256: herSha256 });
      expect(oldRecord).toMatchObject({ externalId: null, userAgent: null, ipAddress: null, erasedSha256: oldSha256 });
      const stored = JSON.stringify(await Promise.all([consentKeys.record(tenant.tenantId, herRecord.recordId), consentKeys.legacyRecord(tenant.tenantId, oldRecord.recordId), consentKeys.withdrawal(tenant.tenantId, withdrawalId)].map(getItem)));
      for (const value of [...clear, salt, withdrawalSalt!]) expect(stored).not.toContain(value);
      for (const externalId of ['customer-1', 'legacy-7']) expect((await call('GET', `/api/v1/consent/by-external-id/${externalId}`, { token: tenant.token })).body.data).toEqual([]);
      const proof = (await call('GET', `/api/v1/consent/records/${herRecord.recordId}/proof`, { token: tenant.token })).body.data;
      const markers = (fields: ReturnType<typeof sha256s> & { salt?: string }) => ({ externalId: { sha256: fields.externalId }, userAgent: { sha256: fields.userAgent }, ipAddress: { sha256: fields.ipAddress }, ...(fields.salt ? { salt: { sha256: fields.salt } } : {}) });
      expect(proof).toMatchObject({ proofHash: herRecord.proofHash, matches: true, payload: markers(herSha256), erasure: { documentId: erased[0]!.documentId, at: erased[0]!.at, runId, erasedFields: herSha256 } });
      for (const value of [...clear, salt]) expect(proof.canonicalPayload).not.toContain(value);
      expect(proof.recomputedHash).toBe(proof.erasure.evidenceSha256);
      expect(proof.lastWithdrawal).toMatchObject({ withdrawalId, reason: null, reasonSha256 });
      // Whoever holds the clear values, and the salt shown with her evidence before, puts them back and recomputes the original proof hash.
      expect(sha256(canonicalize({ ...proof.payload, externalId: 'customer-1', userAgent: 'Her browser/2.0', ipAddress: '203.0.113.2', salt })!)).toBe(herRecord.proofHash);
      const oldProof = (await call('GET', `/api/v1/consent/records/${oldRecord.recordId}/proof`, { token: tenant.token })).body.data;
      expect(oldProof).toMatchObject({ proofVersion: 1, matches: true, payload: { chainSeq: 1, prevProofHash: genesisHash, ...markers(oldSha256) }, erasure: { erasedFields: oldSha256 } });
      expect(sha256(canonicalize({ ...oldProof.payload, externalId: 'legacy-7', userAgent: 'Old browser/0.9', ipAddress: '198.51.100.23' })!)).toBe(chained.proofHash);

      // Her pack verifies offline and shows the erasure: when, what, why; so does its page (the PDF is that page printed).
      // Made a day after the run, as the DPO would (the domain function the route calls: a token of
      // now would have expired on the moved clock), so nothing in it postdates the pack.
      setClock(offsetClock(32 * day));
      const pack = JSON.parse(JSON.stringify(await buildEvidencePack(tenant.tenantId, { principalHash: second }).finally(resetClock)));
      expect(pack.erasures).toHaveLength(1);
      expect(pack.records.map((record: { recordId: string }) => record.recordId)).toEqual([oldRecord.recordId, herRecord.recordId]);
      expect(pack.withdrawals[0]).toMatchObject({ withdrawalId, hash: content.withdrawalBindings[0]!.hash, evidence: { reason: { sha256: reasonSha256 }, salt: { sha256: sha256(withdrawalSalt!) } } });
      expect(sha256(canonicalize({ ...pack.withdrawals[0].evidence, reason, salt: withdrawalSalt })!)).toBe(pack.withdrawals[0].hash);
      for (const value of [...clear, salt, withdrawalSalt!]) expect(JSON.stringify(pack)).not.toContain(value);
      const dir = await mkdtemp(join(tmpdir(), 'retention-pack-'));
      await writeFile(join(dir, 'pack.json'), JSON.stringify(pack));
      const verified = await run_('scripts/verify-evidence-pack.mjs', [join(dir, 'pack.json')]);
      expect([0, 3], verified.stdout).toContain(verified.code);
      expect(verified.stdout).toMatch(
        /erasure #1 \(.+\), .+: her personal data \(sealedContact, externalId, userAgent, ipAddress, salt, withdrawalReason, withdrawalSalt, withdrawalEmail\) of 2 records and 1 withdrawal erased, reason RETENTION_PERIOD_ENDED, run .+; the evidence stays, its erased values \(externalId, userAgent, ipAddress, salt, withdrawal reason\) bound by their SHA-256\./,
      );
      const page = renderDocument(packDocumentModel(pack, { dpoContact: null, timeZone: undefined, actors: new Map() }));
      const shown = page.slice(0, page.indexOf('<script'));
      for (const words of ['What was erased when consent lapsed', `Erasure ${erased[0]!.documentId.slice(0, 8)}`, runId, 'Her browser (user agent), in the evidence', 'The reason she gave for a withdrawal, in its evidence', 'giving a reason (erased when consent lapsed)']) expect(shown).toContain(words);
      for (const value of [...clear, salt, withdrawalSalt!]) expect(shown).not.toContain(value);
      const refusedPack = async (name: string, change: (copy: Record<string, any>) => void) => {
        const { signature: _signature, ...copy } = structuredClone(pack);
        change(copy);
        await writeFile(join(dir, name), JSON.stringify({ ...copy, signature: await signPack(copy) }));
        const result = await run_('scripts/verify-evidence-pack.mjs', [join(dir, name)]);
        expect(result.code, result.stdout).toBe(1);
        return result.stdout;
      };
      const [old, mine] = [0, 1];
      // A choice altered, another value's hash swapped in, a withdrawal altered, a record dropped, or shown without the erasure that binds them:
      // refused, even signed again by the log's key.
      expect(await refusedPack('choices.json', (copy) => { copy.records[mine].payload.consentGiven[offers] = false; })).toMatch(/erasure #1 .*not what it bound: the evidence shown is not the evidence it bound to the proof hash/);
      expect(await refusedPack('another-id.json', (copy) => { copy.records[mine].payload.externalId = { sha256: sha256('customer-0') }; })).toMatch(/erasure #1 .*its externalId is not the erased value/);
      expect(await refusedPack('swapped.json', (copy) => { copy.records[old].payload.userAgent = copy.records[old].payload.ipAddress; })).toMatch(/erasure #1 .*its userAgent is not the erased value/);
      expect(await refusedPack('withdrawal.json', (copy) => { copy.withdrawals[0].evidence.purposeIds = [offers]; })).toMatch(/erasure #1 .*withdrawal .*not the evidence it bound to its hash/);
      expect(await refusedPack('reason.json', (copy) => { copy.withdrawals[0].evidence.reason = { sha256: sha256('Nothing') }; })).toMatch(/erasure #1 .*its reason is not the erased value/);
      expect(await refusedPack('dropped.json', (copy) => { copy.records.splice(old, 1); })).toMatch(/names record .*which the pack does not hold/);
      expect(await refusedPack('unbound.json', (copy) => { delete copy.erasures; })).toMatch(/record #1 .*no erasure in the pack binds its evidence/);
      // Nor can an erasure hide a choice, even one resting on the pack's signature alone: a binding names only what retention may erase.
      expect(await refusedPack('forged.json', (copy) => {
        const payload = copy.records[mine].payload;
        payload.consentGiven = { sha256: sha256(canonicalize(payload.consentGiven)!) };
        const document = JSON.parse(copy.erasures[0].canonical);
        Object.assign(document.content.recordBindings[0], { consentGivenSha256: payload.consentGiven.sha256, evidenceSha256: sha256(canonicalize(payload)!) });
        copy.erasures[0] = { ...copy.erasures[0], canonical: canonicalize(document), hash: sha256(canonicalize(document)!), log: { status: 'PENDING', leafIndex: null, inclusionProof: [] } };
      })).toMatch(/names consentGivenSha256, which is no field of a record that retention may erase/);
      // An altered erasure is refused, even in a pack signed again by the log's key.
      expect(await refusedPack('altered.json', (copy) => { copy.erasures[0].canonical = copy.erasures[0].canonical.replace('RETENTION_PERIOD_ENDED', 'CONSENT_WITHDRAWN'); })).toContain('erasure #1');

      // The log's own verification re-reads her records and withdrawal and accepts them by the logged bindings, once the erasure is in the log.
      const documentId = erased[0]!.documentId;
      await waitFor(() => positionsOf(tenant.tenantId, [documentId]).then((positions) => positions.get(documentId)));
      const erasureLeaf = (await positionsOf(tenant.tenantId, [documentId])).get(documentId);
      expect((await call('GET', '/api/v1/consent/proof-chain/verify', { token: tenant.token })).body.data).toMatchObject({ intact: true, problems: [] });

      // Each of her records, checked from the proof endpoint's answer alone: the erasure as logged, its inclusion against the record's checkpoint, and its binding.
      const keys = (await call('GET', '/api/v1/consent/log/keys')).body;
      await writeFile(join(dir, 'keys.json'), JSON.stringify(keys));
      const erasureSaid = `were erased on ${erased[0]!.at} by the retention run ${runId}, bound by log entry ${erasureLeaf}`;
      const answers = new Map<string, Record<string, any>>();
      for (const record of [herRecord, oldRecord]) {
        const answer = await waitFor(async () => {
          const body = (await call('GET', `/api/v1/consent/records/${record.recordId}/proof`, { token: tenant.token })).body.data;
          return body.erasure.log.status === 'INTEGRATED' && body.log.status === 'INTEGRATED' ? body : undefined;
        }, 30_000);
        expect(answer.erasure.document).toEqual({ documentId, canonical: erased[0]!.canonical, hash: erased[0]!.hash });
        expect(answer.erasure.log.leafIndex).toBe(erasureLeaf);
        await writeFile(join(dir, `${record.recordId}.jws`), answer.receipt);
        answers.set(record.recordId, answer);
      }
      const receiptCheck = async (recordId: string, name: string, body: unknown) => {
        await writeFile(join(dir, name), JSON.stringify({ data: body }));
        return run_('scripts/verify-receipt.mjs', [join(dir, `${recordId}.jws`), join(dir, name), join(dir, 'keys.json')]);
      };
      const said = { offline: ['external id, user agent, IP address and salt', 'external id, user agent and IP address'], dashboard: ['the external id, the user agent, the IP address and the salt', 'the external id, the user agent and the IP address'] };
      for (const [index, [recordId, attribution]] of ([[herRecord.recordId, ' \\(attribution VERIFIED\\)'], [oldRecord.recordId, '']] as const).entries()) {
        const good = await receiptCheck(recordId, 'proof.json', answers.get(recordId));
        expect(good.code, good.stdout).toBe(0);
        expect(good.stdout).toMatch(new RegExp(`^VALID: record ${recordId}${attribution} is leaf \\d+ of the tenant.s log`));
        expect(good.stdout).toContain(`its ${said.offline[index]!} ${erasureSaid}`);
        const dashboard = await verifyProof(answers.get(recordId) as never, keys.keys, tenant.tenantId);
        expect(dashboard.failure).toBeUndefined();
        expect(dashboard).toMatchObject({ holds: true, erasure: `Verified; ${said.dashboard[index]!} ${erasureSaid}.` });
        expect(dashboard.checks.every((check) => check.ok)).toBe(true);
      }

      // Tampered: her evidence altered; another value's hash swapped in; the erasure left out; the binding rewritten to fit (the logged text then is no
      // leaf of the log); the binding's text altered under its hash; not yet in the checkpoint.
      const answer = answers.get(herRecord.recordId)!;
      const tampered = (change: (copy: Record<string, any>) => void) => {
        const copy = structuredClone(answer);
        change(copy);
        return copy;
      };
      const alteredEvidence = tampered((copy) => { copy.canonicalPayload = copy.canonicalPayload.replace(`"${offers}":true`, `"${offers}":false`); });
      expect(alteredEvidence.canonicalPayload).not.toBe(answer.canonicalPayload);
      const swapped = tampered((copy) => {
        const payload = JSON.parse(copy.canonicalPayload);
        copy.canonicalPayload = canonicalize({ ...payload, userAgent: payload.ipAddress });
      });
      const unbound = tampered((copy) => { copy.erasure = null; });
      const clearSalt = tampered((copy) => { copy.canonicalPayload = canonicalize({ ...JSON.parse(copy.canonicalPayload), salt }); });
      const rebound = tampered((copy) => {
        copy.canonicalPayload = alteredEvidence.canonicalPayload;
        const document = JSON.parse(copy.erasure.document.canonical);
        document.content.recordBindings[0].evidenceSha256 = sha256(alteredEvidence.canonicalPayload);
        copy.erasure.document.canonical = canonicalize(document);
        copy.erasure.document.hash = sha256(copy.erasure.document.canonical);
      });
      const otherProof = tampered((copy) => { copy.erasure.document.canonical = copy.erasure.document.canonical.replace(herRecord.proofHash, sha256('another')); });
      const pending = tampered((copy) => { copy.erasure.log = { status: 'PENDING', leafIndex: copy.erasure.log.leafIndex, inclusionProof: [] }; });
      const cases: [string, Record<string, any>, RegExp, RegExp][] = [
        ['altered-evidence.json', alteredEvidence, /not the evidence the erasure bound/, /not the evidence the logged erasure bound/],
        ['swapped.json', swapped, /its userAgent is not the erased value/, /its userAgent is not the erased value/],
        ['unbound.json', unbound, /the proof names no erasure that binds them/, /the proof names no erasure that binds it/],
        ['clear-salt.json', clearSalt, /its salt is not the erased value/, /its salt is not the erased value/],
        ['rebound.json', rebound, /does not place the erasure at leaf/, /does not lead from the logged erasure/],
        ['other-proof.json', otherProof, /the logged erasure does not hash to its hash/, /The logged erasure does not hash to its hash/],
        ['pending.json', pending, /the erasure is not yet in a signed checkpoint/, /erasure of its values is pending/],
      ];
      for (const [name, body, offline, browser] of cases) {
        const refused = await receiptCheck(herRecord.recordId, name, body);
        expect(refused.code, `${name}: ${refused.stdout}`).toBe(1);
        expect(refused.stdout).toMatch(offline);
        const checked = await verifyProof(body as typeof answer as never, keys.keys, tenant.tenantId);
        expect(checked.holds, name).toBe(false);
        expect(checked.failure).toMatch(browser);
        expect(checked.erasure).toBeUndefined();
      }

      // The log's verification, entry by entry: her records and her withdrawal stand by the logged bindings; altered, they are found.
      const entries = [
        { kind: 'record' as const, id: herRecord.recordId, hash: herRecord.proofHash, position: 0 },
        { kind: 'record' as const, id: oldRecord.recordId, hash: oldRecord.proofHash, position: 1 },
        { kind: 'withdrawal' as const, id: withdrawalId, hash: content.withdrawalBindings[0]!.hash!, position: 2 },
      ];
      expect(await entryProblems(tenant.tenantId, entries)).toEqual([]);
      await db().send(new UpdateCommand({ TableName: tableName(), Key: consentKeys.record(tenant.tenantId, herRecord.recordId), UpdateExpression: 'SET cg.#offers = :no', ExpressionAttributeNames: { '#offers': offers }, ExpressionAttributeValues: { ':no': false } }));
      await db().send(new UpdateCommand({ TableName: tableName(), Key: consentKeys.withdrawal(tenant.tenantId, withdrawalId), UpdateExpression: 'SET purposeIds = :one', ExpressionAttributeValues: { ':one': [offers] } }));
      expect(await entryProblems(tenant.tenantId, entries)).toEqual([
        expect.objectContaining({ id: herRecord.recordId, reason: expect.stringContaining('no retention.erased in the log binds its evidence without them') }),
        expect.objectContaining({ id: withdrawalId, reason: expect.stringContaining('its reason was erased, and no retention.erased in the log binds') }),
      ]);
    } finally {
      resetClock();
      await receiver.close();
    }
  }, 120_000);
});
