import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import canonicalize from 'canonicalize';
import { flattenedVerify, importJWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { consentKeys } from '../shared/consent/keys';
import { principalHash } from '../shared/consent/principal';
import { canonicalJson } from '../shared/consent/proof';
import { sha256Hex } from '../shared/crypto/hash';
import { packSignatureType, packSigningPayload, signPack } from '../shared/evidence-pack/signature';
import { signCheckpoint } from '../shared/evidence/checkpoint';
import { signDetachedJws } from '../shared/evidence/jws';
import { evidenceLogConsumer } from '../shared/evidence/log-consumer';
import { jwks, type Signer } from '../shared/evidence/signer';
import { receiptSigner } from '../shared/evidence/signers';
import { newTenant, uniqueEmail, useApi } from './support/api';
import { publishedNotice, recordConsent } from './support/consent';
import { insertsOf, waitForLog } from './support/evidence';
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
/** The pack without its signature: what the signature covers. */
const unsigned = (pack: any) => {
  const { signature: _signature, ...rest } = pack;
  return rest;
};
/**
 * The pack signed again after a change, as the service signs (the log's key), or with `signer`:
 * a pack the service's key vouches for, yet whose content does not hold together (rows forged in
 * the table and then packed, or whoever holds the key), which the checks after the signature must
 * still refuse.
 */
const resigned = async (pack: any, signer?: Signer) => ({
  ...unsigned(pack),
  signature: signer ? await signDetachedJws(packSignatureType, packSigningPayload(unsigned(pack)), signer) : await signPack(unsigned(pack)),
});
/** A withdrawal's evidence with its hash as the service computes it (what whoever holds the file can recompute). */
const withHash = (withdrawal: any) => ({ ...withdrawal, hash: sha256Hex(canonicalJson(withdrawal.evidence)) });
const shifted = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

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
    expect(pack).toMatchObject({ packVersion: 2, kind: 'consent-service/evidence-pack', tenant: { tenantId: tenant.tenantId, slug: tenant.slug }, principalHash: principalHash(email) });
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
    expect({ ...byHash, generatedAt: null, signature: null }).toEqual({ ...pack, generatedAt: null, signature: null });
    // Signed as a whole by the log's key: a standard JWS, detached payload, over the pack's RFC 8785 form (checked here with jose).
    const [header, payload, signature] = pack.signature.split('.');
    expect(payload).toBe('');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: expect.stringMatching(/^(EdDSA|ES256)$/), kid: pack.log.checkpoint.keyId, typ: 'consent-evidence-pack+jws' });
    const jwk = pack.keys.keys.find((key: { kid: string }) => key.kid === pack.log.checkpoint.keyId);
    const detached = Buffer.from(canonicalize(unsigned(pack))!, 'utf8').toString('base64url');
    await expect(flattenedVerify({ protected: header, payload: detached, signature }, await importJWK(jwk, jwk.alg))).resolves.toBeTruthy();
    expect(Date.parse(pack.generatedAt)).toBeGreaterThanOrEqual(Date.parse(pack.withdrawals[0].evidence.withdrawnAt));
  });

  it('takes exactly one of the identifier and the hash, naming the field, and 404s a principal without records', async () => {
    const both = await packOf({ dataPrincipalIdentifier: email, principalHash: principalHash(email) });
    expect(both).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_ERROR', fields: { principalHash: expect.stringContaining('not both') } } } });
    expect((await packOf({})).body.error.fields).toEqual({ dataPrincipalIdentifier: expect.stringContaining('principalHash') });
    expect((await packOf({ principalHash: 'ABC' })).body.error.fields).toHaveProperty('principalHash');
    expect((await packOf({ dataPrincipalIdentifier: email, extra: 1 })).body.error.fields).toHaveProperty('extra');
    const unknown = await call('POST', '/api/v1/consent/evidence-packs?format=docx', { token: tenant.token, body: { dataPrincipalIdentifier: email } });
    expect(unknown.body.error.fields).toHaveProperty('format');
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
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
    const html = await response.text();
    // One script element, a data block; no external reference of any kind.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('<script type="application/json" id="evidence-pack">');
    expect(html).not.toMatch(/<[^>]*\s(src|href)=|@import|url\(/);
    expect(html).not.toContain(hostileReason);
    expect(html).not.toContain(hostileAgent);
    expect(html).toContain('&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; =cmd');
    // The decisions in plain words, and the Hindi text marked as Hindi.
    expect(html).toContain('Agreed to ');
    expect(html).toContain('Did not agree to ');
    expect(html).toContain('withdrew consent for every purpose by the Data Fiduciary’s team, in the dashboard');
    expect(html).toContain('<span lang="hi">गोपनीयता सूचना</span>');
    const embedded = JSON.parse(html.slice(html.indexOf('>', html.indexOf('id="evidence-pack"')) + 1, html.lastIndexOf('</script>')));
    expect(embedded.records.map((record: { recordId: string }) => record.recordId)).toEqual(recordIds);
    expect(await verify(html, 'pack.html')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^VALID \(on the pack's own keys only\): evidence pack of principal/) });
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
    // On its own keys the verdict says so, and the tenant's name is the pack's claim, not a finding.
    expect(result.stdout).toMatch(/^VALID \(on the pack's own keys only\): evidence pack of principal [0-9a-f]{12}… that names its tenant ".+" \(.+\), which only the service's keys can confirm: 2 record\(s\), 1 withdrawal\(s\), 2 notice text\(s\)\.\n/);
    expect(result.stdout).toContain(`Signed as a whole by the evidence log's key ${pack.log.checkpoint.keyId}`);
    expect(result.stdout).toContain("Keys: only the pack's own keys. They show the pack agrees with itself, not that the service made it");
    expect(result.stdout).toContain('/api/v1/consent/log/keys > keys.json) and run again');
    expect(result.stdout).toContain("no withdrawal predates its record and no entry postdates the pack; 3 entries are in the tenant's log of size");
    expect(result.stdout).toMatch(new RegExp(`record #1 \\(${recordIds[0]}\\), .+?: in the signed checkpoint of size \\d+, leaf \\d+\\.`));
    expect(result.stdout).toMatch(/withdrawal #1 \(.+\), .+: in the signed checkpoint of size/);
    const withKeys = await verify(pack, 'pack.json', keys);
    expect(withKeys).toMatchObject({ code: 0, stdout: expect.stringMatching(/^VALID: evidence pack of principal [0-9a-f]{12}… at .+: 2 record\(s\)/) });
    expect(withKeys.stdout).toMatch(/Keys: from .*keys\.json, given on the command line\. The verdict is only as good as that file: fetch it from the service itself/);
    const usage = await run(process.execPath, ['scripts/verify-evidence-pack.mjs']).catch((error: { code: number; stderr: string }) => error);
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining('exit 0 VALID, 3 COMPLETE BUT NOT YET CHECKPOINTED, 1 INVALID, 2 usage') });
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
      // The log's key signs the pack too: its signature is the first thing to fail.
    }, /^INVALID: the pack's signature does not verify/],
    ['a receipt', (p: any) => {
      const [header, claims, signature] = p.records[0].receipt.split('.');
      const altered = { ...JSON.parse(Buffer.from(claims, 'base64url').toString()), nv: 7 };
      p.records[0].receipt = `${header}.${Buffer.from(JSON.stringify(altered)).toString('base64url')}.${signature}`;
    }, /^INVALID: record #1 \(.+\): the receipt signature does not verify/],
    ['a record of another principal slipped in', (p: any) => (p.principalHash = '0'.repeat(64)), /^INVALID: record #1 \(.+\): the payload is of another principal/],
    ['a notice text left out', (p: any) => p.notices.pop(), /^INVALID: record #2 \(.+\): the pack has no text of notice/],
  ])('rejects the pack with %s altered, naming where: unsigned, by its signature; signed again with the log\'s key, by its own check', async (_part, alter, message) => {
    const altered = copy(pack);
    alter(altered);
    expect(await verify(altered)).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the pack's signature does not verify: the pack was changed after the service signed it/) });
    const result = await verify(await resigned(altered));
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toMatch(message);
  });

  /**
   * What the review did: the withdrawal moved to a later date, by another method and actor, with a
   * new reason, its hash recomputed and its log status set to PENDING (checked only against its own
   * hash, which anyone can recompute); and an invented withdrawal dated before the record existed.
   */
  const rewrittenWithdrawal = (p: any, at: string) => {
    const [withdrawal] = p.withdrawals;
    withdrawal.evidence = { ...withdrawal.evidence, withdrawnAt: at, method: 'WIDGET', actor: 'principal:widget', reason: 'I never agreed to this' };
    p.withdrawals[0] = withHash({ ...withdrawal, log: { status: 'PENDING', leafIndex: withdrawal.log.leafIndex, inclusionProof: [] } });
  };
  const inventedWithdrawal = (p: any) => {
    const [record] = p.records;
    const evidence = {
      ...p.withdrawals[0].evidence,
      withdrawalId: '01900000-0000-7000-8000-000000000001',
      recordIds: [record.recordId],
      withdrawnAt: shifted(record.payload.createdAt, -60_000),
      reason: 'withdrew before agreeing',
    };
    p.withdrawals.push(withHash({ withdrawalId: evidence.withdrawalId, evidence, log: { status: 'PENDING', leafIndex: null, inclusionProof: [] } }));
  };

  it("refuses the review's rewritten and invented withdrawals by the pack's signature, first", async () => {
    const forged = copy(pack);
    rewrittenWithdrawal(forged, shifted(pack.generatedAt, 86_400_000));
    inventedWithdrawal(forged);
    const result = await verify(forged);
    expect(result).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the pack's signature does not verify: the pack was changed after the service signed it/) });
    // The same with the service's keys obtained apart.
    expect(await verify(forged, 'pack.json', (await call('GET', '/api/v1/consent/log/keys')).body)).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the pack's signature does not verify/) });
  });

  it.each([
    ['the rewritten withdrawal moved past the pack', (p: any) => rewrittenWithdrawal(p, shifted(p.generatedAt, 86_400_000)), /^INVALID: withdrawal #1 \(.+\): it is dated .+, after the pack was made \(/],
    ['the rewritten withdrawal marked PENDING at a place the checkpoint covers', (p: any) => rewrittenWithdrawal(p, p.withdrawals[0].evidence.withdrawnAt), /^INVALID: withdrawal #1 \(.+\): it is marked not yet checkpointed, yet the signed checkpoint of size \d+ covers its position \d+: it should carry an inclusion proof/],
    ['an invented withdrawal dated before its record', inventedWithdrawal, /^INVALID: withdrawal #2 \(01900000-0000-7000-8000-000000000001\): it is dated .+, before record .+ it withdraws was given \(/],
    ['the pack dated before its entries', (p: any) => (p.generatedAt = shifted(p.records[0].payload.createdAt, -1000)), /^INVALID: record #1 \(.+\): it is dated .+, after the pack was made \(/],
    ['a withdrawn record left out', (p: any) => p.records.shift(), /^INVALID: withdrawal #1 \(.+\): it names record .+, which the pack does not hold/],
    ['a notice text left out', (p: any) => (p.notices = p.notices.slice(1)), /^INVALID: record #1 \(.+\): the pack has no text of notice/],
  ])('refuses a pack signed by the log\'s key yet holding %s, with its own reason', async (_case, alter, message) => {
    const altered = copy(pack);
    alter(altered);
    expect(await verify(altered)).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the pack's signature does not verify/) });
    const result = await verify(await resigned(altered));
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toMatch(message);
  });

  it('refuses a pack without its signature, signed by another key, by the receipt key, or of the unsigned format 1', async () => {
    const keys = (await call('GET', '/api/v1/consent/log/keys')).body;
    expect(await verify(unsigned(pack))).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the pack carries no signature: anyone holding it could have rewritten it/) });
    expect(await verify({ ...pack, signature: pack.signature.replace(/\.\.[\w-]{4}/, '..AAAA') })).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the pack's signature does not verify/) });
    const [header, , signature] = pack.signature.split('.');
    const attached = `${header}.${Buffer.from(canonicalize(unsigned(pack))!).toString('base64url')}.${signature}`;
    expect(await verify({ ...pack, signature: attached })).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the pack's signature carries a payload: it must be detached/) });
    // A key of someone else's, named like the log's.
    const stranger = es256Signer('consent-service-log');
    expect(await verify(await resigned(pack, stranger))).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the pack's signature names key consent-service-log-[0-9a-f]{16}, which is not in the pack's keys/) });
    // ...and put into the pack's own keys: the pack agrees with itself, and the verifier says that
    // is all it shows; with the service's keys it is refused.
    const selfSigned = await resigned({ ...pack, keys: { keys: [...pack.keys.keys, ...jwks([stranger]).keys] } }, stranger);
    const ownKeys = await verify(selfSigned);
    expect(ownKeys).toMatchObject({ code: 0, stdout: expect.stringContaining("Keys: only the pack's own keys. They show the pack agrees with itself, not that the service made it") });
    expect(await verify(selfSigned, 'pack.json', keys)).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the pack's signature names key consent-service-log-[0-9a-f]{16}, which is not in .*keys\.json/) });
    // A key of the service's, but not the log's.
    expect(await verify(await resigned(pack, await receiptSigner()), 'pack.json', keys)).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the pack is signed by key consent-service-receipts-[0-9a-f]{16}, not by the evidence log's key/) });
    expect(await verify({ ...unsigned(pack), packVersion: 1 })).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the pack is of format 1, which carries no signature/) });
  });

  it('accepts a checkpoint and a pack signed with an ES256 (KMS) key, as in AWS', async () => {
    const signer = es256Signer('consent-service-log');
    const [origin, size, root] = pack.log.checkpoint.note.split('\n');
    const note = await signCheckpoint({ origin, treeSize: Number(size), rootHash: Buffer.from(root, 'base64') }, signer);
    const kms = copy(pack);
    kms.log.checkpoint = { ...kms.log.checkpoint, note, keyId: signer.keyId };
    kms.log.latestCheckpoint = kms.log.checkpoint;
    const receiptKeys = pack.keys.keys.filter((key: { kid: string }) => key.kid !== pack.log.checkpoint.keyId);
    kms.keys = { keys: [...receiptKeys, ...jwks([signer]).keys] };
    expect(await verify(await resigned(kms, signer))).toMatchObject({ code: 0, stdout: expect.stringMatching(/^VALID.*\nSigned as a whole by the evidence log's key consent-service-log-[0-9a-f]{16} \(ES256\)/) });
  });

  it('checks a consistency proof to a later checkpoint, and rejects it altered', async () => {
    const size = pack.log.checkpoint.treeSize as number;
    await recordConsent(call, tenant.token, { noticeId: pack.records[0].payload.noticeId, dataPrincipalIdentifier: uniqueEmail('later'), consentGiven: { [notice.required]: true } });
    await waitForLog(tenant.tenantId, size + 1);
    const latest = (await call('GET', '/api/v1/consent/log/checkpoint', { token: tenant.token })).body.data;
    const consistency = (await call('GET', `/api/v1/consent/log/consistency?from=${size}&to=${latest.treeSize}`, { token: tenant.token })).body.data;
    expect(consistency.proof.length).toBeGreaterThan(0);
    // As the service makes it when a checkpoint is signed while the pack is built.
    const extended = await resigned({ ...copy(pack), log: { ...pack.log, latestCheckpoint: latest, consistencyProof: consistency.proof } });
    expect(await verify(extended)).toMatchObject({ code: 0, stdout: expect.stringContaining(`consistent with the latest checkpoint of size ${latest.treeSize}`) });
    const altered = copy(extended);
    altered.log.consistencyProof[0] = '2'.repeat(64);
    expect(await verify(await resigned(altered))).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: consistency proof/) });
    const swapped = copy(extended);
    swapped.log.latestCheckpoint.note = pack.log.checkpoint.note;
    expect(await verify(await resigned(swapped))).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: latest checkpoint: its tree size or root differs/) });
  });

  it('calls a pack whose newest entry no checkpoint covers yet complete but not checkpointed (exit 3), still checking it, and VALID once made after the next checkpoint', async () => {
    // This file's workers stop logging the tenant: its next record stays unsequenced, and the
    // request's wait for a checkpoint (one second here) runs out.
    ownTenants.delete(tenant.tenantId);
    process.env.EVIDENCE_PACK_WAIT_SECONDS = '1';
    let recordId: string;
    try {
      const pending = await recordConsent(call, tenant.token, { noticeId: pack.records[0].payload.noticeId, dataPrincipalIdentifier: email, consentGiven: { [notice.required]: true } });
      recordId = pending.body.data.consentRecordId;
      const withPending = (await packOf({ dataPrincipalIdentifier: email })).body.data.pack;
      expect(withPending.records[2]).toMatchObject({ recordId, log: { status: 'PENDING', leafIndex: null, inclusionProof: [] } });
      const result = await verify(withPending);
      expect(result.code, result.stdout).toBe(3);
      expect(result.stdout).toMatch(/^COMPLETE BUT NOT YET CHECKPOINTED \(on the pack's own keys only\): .*3 record\(s\)/);
      expect(result.stdout).toMatch(/record #1 \(.+\), .+: in the signed checkpoint of size \d+, leaf \d+\./);
      expect(result.stdout).toContain(`record #3 (${recordId}), ${withPending.records[2].payload.createdAt}: on the pack's signature alone, as of ${withPending.generatedAt}: no signed checkpoint covered it yet`);
      expect(result.stdout).toContain("1 entry rests on the pack's signature alone");
      // Still every check: the pending record's evidence altered (signed again, or not) is INVALID.
      const altered = copy(withPending);
      altered.records[2].payload.ipAddress = '203.0.113.9';
      expect(await verify(altered)).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the pack's signature does not verify/) });
      expect(await verify(await resigned(altered))).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: record #3 .*payload does not hash/) });
    } finally {
      ownTenants.add(tenant.tenantId);
      delete process.env.EVIDENCE_PACK_WAIT_SECONDS;
    }
    // The stream's late delivery of the record the workers passed over; then the next checkpoint.
    await evidenceLogConsumer.handle(await insertsOf([consentKeys.record(tenant.tenantId, recordId)]));
    await waitForLog(tenant.tenantId, pack.log.checkpoint.treeSize + 2);
    const later = (await packOf({ dataPrincipalIdentifier: email })).body.data.pack;
    expect(later.records[2]).toMatchObject({ recordId, log: { status: 'INTEGRATED' } });
    const result = await verify(later);
    expect(result, result.stdout).toMatchObject({ code: 0, stdout: expect.stringMatching(/^VALID \(on the pack's own keys only\): .*3 record\(s\)/) });
    expect(result.stdout).toMatch(new RegExp(`record #3 \\(${recordId}\\), .+?: in the signed checkpoint of size \\d+, leaf \\d+\\.`));
  });
});
