import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { principalHash } from '../shared/consent/principal';
import { signCheckpoint } from '../shared/evidence/checkpoint';
import { jwks } from '../shared/evidence/signer';
import { newTenant, uniqueEmail, useApi } from './support/api';
import { publishedNotice, recordConsent } from './support/consent';
import { waitForLog } from './support/evidence';
import { es256Signer } from './support/signers';
import { ownTenants, useTestWorkers } from './support/workers';

/**
 * The evidence pack end to end: built through the API from real records, withdrawals, notice
 * snapshots and the signed log, then checked offline by scripts/verify-evidence-pack.mjs, which
 * must reject each part of the pack altered on its own, naming where.
 */
const { call, state } = useApi();
useTestWorkers();
const run = promisify(execFile);

let tenant: Awaited<ReturnType<typeof newTenant>>;
let email: string;
let apiKey: string;
let notice: Awaited<ReturnType<typeof publishedNotice>>;
let dir: string;
/** The principal's records (English, then Hindi) and the withdrawal of both, all logged and signed. */
let recordIds: string[];
const hostileReason = '</script><img src=x onerror=alert(1)> =cmd';
const hostileAgent = '<script>alert("agent")</script>';

const packOf = async (body: Record<string, unknown>) => call('POST', '/api/v1/consent/evidence-packs', { token: tenant.token, body });
const verify = async (pack: unknown, name = 'pack.json', keys?: unknown) => {
  const file = join(dir, `${Math.random().toString(36).slice(2)}-${name}`);
  await writeFile(file, typeof pack === 'string' ? pack : JSON.stringify(pack));
  const args = ['scripts/verify-evidence-pack.mjs', file];
  if (keys) {
    args.push(join(dir, 'keys.json'));
    await writeFile(args[2]!, JSON.stringify(keys));
  }
  return run(process.execPath, args).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout + error.stderr }),
  );
};
const copy = <T>(value: T): T => structuredClone(value);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evidence-pack-'));
  tenant = await newTenant(call);
  apiKey = await tenant.apiKey();
  notice = await publishedNotice(call, tenant.token);
  // A Hindi translation needs a new version: revise, translate, publish.
  const revised = await call('POST', `/api/v1/notices/${notice.noticeId}/revise`, { token: tenant.token, body: {} });
  const draftId = revised.body.data.id as string;
  await call('POST', `/api/v1/notices/${draftId}/translations`, { token: tenant.token, body: { language: 'HI', title: 'गोपनीयता सूचना', purposes: { [notice.required]: { name: 'ऑर्डर प्रोसेसिंग' } } } });
  expect((await call('POST', `/api/v1/notices/${draftId}/publish`, { token: tenant.token, body: {} })).status).toBe(200);
  email = uniqueEmail('principal');
  const consentGiven = { [notice.required]: true, [notice.optional]: false };
  const english = await recordConsent(call, tenant.token, { noticeId: draftId, dataPrincipalIdentifier: email, consentGiven, userAgent: hostileAgent });
  const hindi = await recordConsent(call, tenant.token, { noticeId: draftId, dataPrincipalIdentifier: email.toUpperCase(), consentGiven: { ...consentGiven, [notice.optional]: true }, language: 'HI' });
  expect([english.status, hindi.status]).toEqual([201, 201]);
  recordIds = [english.body.data.consentRecordId, hindi.body.data.consentRecordId];
  // Someone else's consent, which no pack of this principal may hold.
  await recordConsent(call, tenant.token, { noticeId: draftId, dataPrincipalIdentifier: uniqueEmail('other'), consentGiven });
  const withdrawn = await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId: draftId, reason: hostileReason } });
  expect(withdrawn.status).toBe(200);
  await waitForLog(tenant.tenantId, 4);
});

describe('POST /api/v1/consent/evidence-packs', () => {
  it("holds the principal's records, notice texts as shown, withdrawal, proofs to one checkpoint and the keys, and nothing secret", async () => {
    const response = await packOf({ dataPrincipalIdentifier: email });
    expect(response.status).toBe(200);
    const { pack } = response.body.data;
    expect(pack).toMatchObject({ packVersion: 1, kind: 'consent-service/evidence-pack', tenant: { tenantId: tenant.tenantId, slug: tenant.slug }, principalHash: principalHash(email) });
    expect(pack.records.map((record: { recordId: string }) => record.recordId)).toEqual(recordIds);
    const proof = (await call('GET', `/api/v1/consent/records/${recordIds[1]}/proof`, { token: tenant.token })).body.data;
    // The payload exactly as the proof endpoint builds it, and its receipt.
    expect(pack.records[1]).toMatchObject({ payload: proof.payload, proofHash: proof.proofHash, proofVersion: proof.proofVersion, receipt: proof.receipt, log: { status: 'INTEGRATED' } });
    expect(pack.notices.map((shown: { language: string; text: { title: string } }) => [shown.language, shown.text.title])).toEqual([
      ['EN', 'Privacy notice'],
      ['HI', 'गोपनीयता सूचना'],
    ]);
    expect(pack.withdrawals).toHaveLength(1);
    expect(pack.withdrawals[0].evidence).toMatchObject({ kind: 'withdrawal', recordIds: expect.arrayContaining(recordIds), reason: hostileReason, method: 'DASHBOARD' });
    expect(pack.log.checkpoint.treeSize).toBeGreaterThanOrEqual(4);
    expect(pack.log.latestCheckpoint).toEqual(pack.log.checkpoint);
    expect(pack.log.consistencyProof).toEqual([]);
    expect(pack.keys).toEqual((await call('GET', '/api/v1/consent/log/keys')).body);
    const text = JSON.stringify(pack);
    for (const secret of [email, email.toUpperCase(), apiKey, 'principalEmail', 'taskId', 'withdrawalKey']) expect(text).not.toContain(secret);
    // The hash or the identifier: the same pack.
    const byHash = (await packOf({ principalHash: principalHash(email) })).body.data.pack;
    expect({ ...byHash, generatedAt: null }).toEqual({ ...pack, generatedAt: null });
  });

  it('takes exactly one of the identifier and the hash, naming the field, and 404s a principal without records', async () => {
    const both = await packOf({ dataPrincipalIdentifier: email, principalHash: principalHash(email) });
    expect(both).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_ERROR', fields: { principalHash: expect.stringContaining('not both') } } } });
    expect((await packOf({})).body.error.fields).toEqual({ dataPrincipalIdentifier: expect.stringContaining('principalHash') });
    expect((await packOf({ principalHash: 'ABC' })).body.error.fields).toHaveProperty('principalHash');
    expect((await packOf({ dataPrincipalIdentifier: email, extra: 1 })).body.error.fields).toHaveProperty('extra');
    const html = await call('POST', '/api/v1/consent/evidence-packs?format=pdf', { token: tenant.token, body: { dataPrincipalIdentifier: email } });
    expect(html.body.error.fields).toHaveProperty('format');
    expect(await packOf({ dataPrincipalIdentifier: uniqueEmail('nobody') })).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
  });

  it('renders the same pack as a self-contained page: strict policy, everything escaped, the JSON embedded', async () => {
    const response = await fetch(`${state.baseUrl}/api/v1/consent/evidence-packs?format=html`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ principalHash: principalHash(email) }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="evidence-pack-${principalHash(email).slice(0, 12)}.html"`);
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
    const html = await response.text();
    // One script element, a data block; no external reference of any kind.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('<script type="application/json" id="evidence-pack">');
    expect(html).not.toMatch(/<[^>]*\s(src|href)=|@import|url\(/);
    expect(html).not.toContain(hostileReason);
    expect(html).not.toContain(hostileAgent);
    expect(html).toContain('&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; =cmd');
    // The decisions in plain words, and the Hindi text marked as Hindi.
    expect(html).toContain('<span class="agreed">Agreed</span> to');
    expect(html).toContain('<span class="declined">Did not agree</span> to');
    expect(html).toContain('withdrew consent for every purpose by the tenant&#39;s staff, in the dashboard');
    expect(html).toContain('<span lang="hi">गोपनीयता सूचना</span>');
    const embedded = JSON.parse(html.slice(html.indexOf('>', html.indexOf('id="evidence-pack"')) + 1, html.lastIndexOf('</script>')));
    expect(embedded.records.map((record: { recordId: string }) => record.recordId)).toEqual(recordIds);
    expect(await verify(html, 'pack.html')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^VALID: evidence pack of principal/) });
  });
});

describe('GET /api/v1/consent/records/export of a logged tenant', () => {
  it('says on the first page how many records the day counters hold for the range, for a progress bar', async () => {
    const response = await call('GET', '/api/v1/consent/records/export?format=csv', { token: tenant.token });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-export-total')).toBe('3');
    expect(response.headers.get('x-export-records')).toBe('3');
    expect(response.headers.get('x-next-cursor')).toBeNull();
    expect(response.body.trim().split('\r\n')).toHaveLength(4);
  });
});

describe('scripts/verify-evidence-pack.mjs', () => {
  let pack: any;
  beforeAll(async () => {
    pack = (await packOf({ dataPrincipalIdentifier: email })).body.data.pack;
  });

  it('accepts a real pack, as the response body or the bare pack, with its own keys or keys obtained apart', async () => {
    const keys = (await call('GET', '/api/v1/consent/log/keys')).body;
    const result = await verify({ data: { pack } });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^VALID: evidence pack of principal [0-9a-f]{12}… at .+: 2 record\(s\), 1 withdrawal\(s\), 2 notice text\(s\)\.\n/);
    expect(result.stdout).toContain("with the pack's own keys; 3 entries are in the tenant's log of size");
    expect(await verify(pack, 'pack.json', keys)).toMatchObject({ code: 0, stdout: expect.stringContaining('keys.json; 3 entries') });
    expect(await run(process.execPath, ['scripts/verify-evidence-pack.mjs']).catch((error: { code: number }) => error)).toMatchObject({ code: 2 });
  });

  it.each([
    ['a payload field', (p: any) => {
      const given = p.records[0].payload.consentGiven;
      for (const id of Object.keys(given)) given[id] = !given[id];
    }, /^INVALID: record #1 \(.+\): the payload does not hash to its proof hash/],
    ['the notice text shown', (p: any) => (p.notices[1].text.purposes[0].name = 'Something else'), /^INVALID: record #2 \(.+\): the notice text in the pack does not hash to the noticeTextHash/],
    ['the withdrawal evidence', (p: any) => (p.withdrawals[0].evidence.reason = 'changed my mind'), /^INVALID: withdrawal #1 \(.+\): the evidence does not hash to its hash/],
    ['an inclusion proof node', (p: any) => (p.records[1].log.inclusionProof[0] = '0'.repeat(64)), /^INVALID: record #2 \(.+\): the inclusion proof does not place it at leaf \d+ of the signed tree/],
    ['the checkpoint note', (p: any) => (p.log.checkpoint.note = p.log.checkpoint.note.replace(/\n(\d+)\n/, (_: string, size: string) => `\n${Number(size) + 1}\n`)), /^INVALID: checkpoint: the checkpoint signature by .+ does not verify/],
    ['the consistency proof', (p: any) => p.log.consistencyProof.push('1'.repeat(64)), /^INVALID: consistency proof: it does not show the tree of size \d+ extends/],
    ['the checkpoint key in the JWKS', (p: any) => {
      const key = p.keys.keys.find((candidate: { kid: string }) => candidate.kid === p.log.checkpoint.keyId);
      key.x = `${key.x[0] === 'A' ? 'B' : 'A'}${key.x.slice(1)}`;
    }, /^INVALID: checkpoint: the checkpoint note is not signed by any key in the pack's keys/],
    ['a receipt', (p: any) => {
      const [header, claims, signature] = p.records[0].receipt.split('.');
      const altered = { ...JSON.parse(Buffer.from(claims, 'base64url').toString()), nv: 7 };
      p.records[0].receipt = `${header}.${Buffer.from(JSON.stringify(altered)).toString('base64url')}.${signature}`;
    }, /^INVALID: record #1 \(.+\): the receipt signature does not verify/],
    ['a record of another principal slipped in', (p: any) => (p.principalHash = '0'.repeat(64)), /^INVALID: record #1 \(.+\): the payload is of another principal/],
    ['a notice text left out', (p: any) => p.notices.pop(), /^INVALID: record #2 \(.+\): the pack has no text of notice/],
  ])('rejects the pack with %s altered, naming where', async (_part, alter, message) => {
    const altered = copy(pack);
    alter(altered);
    const result = await verify(altered);
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toMatch(message);
  });

  it('accepts a checkpoint signed with an ES256 (KMS) key, as in AWS', async () => {
    const signer = es256Signer('consent-service-log');
    const [origin, size, root] = pack.log.checkpoint.note.split('\n');
    const note = await signCheckpoint({ origin, treeSize: Number(size), rootHash: Buffer.from(root, 'base64') }, signer);
    const resigned = copy(pack);
    resigned.log.checkpoint = { ...resigned.log.checkpoint, note, keyId: signer.keyId };
    resigned.log.latestCheckpoint = resigned.log.checkpoint;
    const receiptKeys = pack.keys.keys.filter((key: { kid: string }) => key.kid !== pack.log.checkpoint.keyId);
    resigned.keys = { keys: [...receiptKeys, ...jwks([signer]).keys] };
    expect(await verify(resigned)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^VALID/) });
  });

  it('checks a consistency proof to a later checkpoint, and rejects it altered', async () => {
    const size = pack.log.checkpoint.treeSize as number;
    await recordConsent(call, tenant.token, { noticeId: pack.records[0].payload.noticeId, dataPrincipalIdentifier: uniqueEmail('later'), consentGiven: { [notice.required]: true } });
    await waitForLog(tenant.tenantId, size + 1);
    const latest = (await call('GET', '/api/v1/consent/log/checkpoint', { token: tenant.token })).body.data;
    const consistency = (await call('GET', `/api/v1/consent/log/consistency?from=${size}&to=${latest.treeSize}`, { token: tenant.token })).body.data;
    expect(consistency.proof.length).toBeGreaterThan(0);
    const extended = { ...copy(pack), log: { ...pack.log, latestCheckpoint: latest, consistencyProof: consistency.proof } };
    expect(await verify(extended)).toMatchObject({ code: 0, stdout: expect.stringContaining(`consistent with the latest checkpoint of size ${latest.treeSize}`) });
    const altered = copy(extended);
    altered.log.consistencyProof[0] = '2'.repeat(64);
    expect(await verify(altered)).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: consistency proof/) });
    const swapped = copy(extended);
    swapped.log.latestCheckpoint.note = pack.log.checkpoint.note;
    expect(await verify(swapped)).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: latest checkpoint: its tree size or root differs/) });
  });

  it('reports entries no checkpoint covers yet as pending, not as failures, and still checks their hashes', async () => {
    // This file's workers stop logging the tenant: its next record stays unsequenced.
    ownTenants.delete(tenant.tenantId);
    try {
      const pending = await recordConsent(call, tenant.token, { noticeId: pack.records[0].payload.noticeId, dataPrincipalIdentifier: email, consentGiven: { [notice.required]: true } });
      const withPending = (await packOf({ dataPrincipalIdentifier: email })).body.data.pack;
      expect(withPending.records[2]).toMatchObject({ recordId: pending.body.data.consentRecordId, log: { status: 'PENDING', leafIndex: null, inclusionProof: [] } });
      const result = await verify(withPending);
      expect(result.code, result.stdout).toBe(0);
      expect(result.stdout).toMatch(/^VALID: .*3 record\(s\)/);
      expect(result.stdout).toContain(`PENDING: record #3 (${pending.body.data.consentRecordId}): no signed checkpoint covered it`);
      const altered = copy(withPending);
      altered.records[2].payload.ipAddress = '203.0.113.9';
      expect(await verify(altered)).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: record #3 .*payload does not hash/) });
    } finally {
      ownTenants.add(tenant.tenantId);
    }
  });
});
