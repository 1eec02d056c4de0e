import { execFile } from 'node:child_process';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign as signWith, verify } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logOrigin, openCheckpoint, signCheckpoint } from '../shared/evidence/checkpoint';
import { buildTree } from '../shared/evidence/full-tree';
import { consistencyProof } from '../shared/evidence/merkle';
import { signReceipt, verifyReceipt, type ReceiptClaims } from '../shared/evidence/receipt';
import { ecdsaDerToRaw, ecdsaRawToDer, jwks, localSigner, seedSigner, type Signer } from '../shared/evidence/signer';
import { es256Signer } from './support/signers';

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evidence-signing-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('signers', () => {
  it('creates a local key file (0600) once and reuses its key and kid', async () => {
    const path = join(dir, 'nested', 'keys', 'log.pem');
    const first = await localSigner(path, 'consent-service-log');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(first.keyId).toMatch(/^consent-service-log-[0-9a-f]{16}$/);
    expect(first.publicJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', kid: first.keyId, alg: 'EdDSA', use: 'sig' });
    expect(first.publicJwk).not.toHaveProperty('d');
    const pem = await readFile(path, 'utf8');
    const second = await localSigner(path, 'consent-service-log');
    expect(second.keyId).toBe(first.keyId);
    expect(second.publicJwk).toEqual(first.publicJwk);
    expect(await readFile(path, 'utf8')).toBe(pem);
  });

  it('agrees on one key when several callers create the file at once', async () => {
    const path = join(dir, 'race', 'receipts.pem');
    const signers = await Promise.all(Array.from({ length: 8 }, () => localSigner(path, 'consent-service-receipts')));
    expect(new Set(signers.map((signer) => signer.keyId)).size).toBe(1);
    expect(await readdir(join(dir, 'race'))).toEqual(['receipts.pem']);
    const again = await localSigner(path, 'consent-service-receipts');
    expect(again.keyId).toBe(signers[0]!.keyId);
  });

  it('derives the same Ed25519 key from the same secret, and another from another', async () => {
    const a = await seedSigner('a secret of the receipt key', 'receipts');
    const b = await seedSigner('a secret of the receipt key', 'receipts');
    const c = await seedSigner('another secret', 'receipts');
    expect(a.publicJwk).toEqual(b.publicJwk);
    expect(a.keyId).toBe(b.keyId);
    expect(c.keyId).not.toBe(a.keyId);
    const message = Buffer.from('hello');
    expect(Buffer.from(await a.sign(message))).toEqual(Buffer.from(await b.sign(message)));
    expect(jwks([a, b, c]).keys.map((key) => key.kid)).toEqual([a.keyId, c.keyId]);
  });

  it('converts DER ECDSA signatures to raw r||s and back', () => {
    // r with its high bit set (a leading zero in DER), s a short integer (left-padded in raw).
    const r = Buffer.concat([Buffer.from([0x80]), Buffer.alloc(31, 1)]);
    const s = Buffer.from([0x7f, 0x02]);
    const der = Buffer.concat([Buffer.from([0x30, 2 + 33 + 2 + 2, 0x02, 33, 0x00]), r, Buffer.from([0x02, 2]), s]);
    const raw = ecdsaDerToRaw(der);
    expect(Buffer.from(raw)).toEqual(Buffer.concat([r, Buffer.alloc(30), s]));
    expect(Buffer.from(ecdsaRawToDer(raw))).toEqual(der);
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    for (let round = 0; round < 50; round += 1) {
      const message = randomBytes(20);
      const signature = signWith('sha256', message, { key: privateKey, dsaEncoding: 'der' });
      const converted = ecdsaDerToRaw(signature);
      expect(converted).toHaveLength(64);
      expect(verify('sha256', message, { key: publicKey, dsaEncoding: 'ieee-p1363' }, converted)).toBe(true);
      expect(Buffer.from(ecdsaRawToDer(converted))).toEqual(signature);
    }
    expect(() => ecdsaDerToRaw(Buffer.from([0x31, 0x00]))).toThrow();
    expect(() => ecdsaDerToRaw(Buffer.concat([der, Buffer.from([0])]))).toThrow();
    expect(() => ecdsaDerToRaw(der.subarray(0, der.length - 1))).toThrow();
  });
});

describe('checkpoints', () => {
  const rootHash = sha256(Buffer.from('root'));
  const body = { origin: logOrigin('tenant-1'), treeSize: 5, rootHash };

  it.each([
    ['Ed25519', () => seedSigner('checkpoint key', 'consent-service-log')],
    ['ES256', async () => es256Signer('consent-service-log')],
  ])('signs and opens a note with an %s key', async (_alg, make) => {
    const signer = await make();
    const note = await signCheckpoint(body, signer);
    const lines = note.split('\n');
    expect(lines.slice(0, 5)).toEqual(['consent-service/log/tenant-1', '5', rootHash.toString('base64'), '', expect.stringMatching(new RegExp(`^\u2014 ${signer.keyId} [A-Za-z0-9+/]+=*$`))]);
    expect(note.endsWith('\n')).toBe(true);
    const opened = openCheckpoint(note, jwks([signer]).keys);
    expect(opened).toEqual({ origin: body.origin, treeSize: 5, rootHash: new Uint8Array(rootHash), keyId: signer.keyId });
    // The tree of size 0 (the empty root) is a valid checkpoint too.
    const empty = await signCheckpoint({ origin: body.origin, treeSize: 0, rootHash: sha256() }, signer);
    expect(openCheckpoint(empty, jwks([signer]).keys)?.treeSize).toBe(0);
  });

  it('uses the signed-note key IDs: Ed25519 over name and key, ECDSA over the SPKI', async () => {
    const ed = await seedSigner('checkpoint key', 'consent-service-log');
    const edLine = (await signCheckpoint(body, ed)).split('\n')[4]!;
    const raw = Buffer.from(ed.publicJwk.x!, 'base64url');
    const edId = sha256(Buffer.from(`${ed.keyId}\n`), Buffer.from([1]), raw).subarray(0, 4);
    expect(Buffer.from(edLine.split(' ')[2]!, 'base64').subarray(0, 4)).toEqual(edId);
    const ec = es256Signer('kms');
    const ecSignature = Buffer.from((await signCheckpoint(body, ec)).split('\n')[4]!.split(' ')[2]!, 'base64');
    const spki = createPublicKey({ key: ec.publicJwk, format: 'jwk' }).export({ format: 'der', type: 'spki' });
    expect(ecSignature.subarray(0, 4)).toEqual(sha256(spki).subarray(0, 4));
    expect(ecSignature[4]).toBe(0x30); // DER, as transparency-dev's ECDSA note verifier expects
  });

  it('interoperates with the Go signed-note implementations (their published test vectors)', async () => {
    // golang.org/x/mod/sumdb/note: PRIVATE+KEY+PeterNeumann+c74f20a3+AYEK… has the key ID c74f20a3.
    const seed = Buffer.from('AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz', 'base64').subarray(1);
    const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' });
    const peter: Signer = {
      keyId: 'PeterNeumann',
      alg: 'EdDSA',
      publicJwk: { ...createPublicKey(privateKey).export({ format: 'jwk' }), kid: 'PeterNeumann', alg: 'EdDSA', use: 'sig' },
      sign: async (data) => signWith(null, data, privateKey),
    };
    expect(Buffer.from(peter.publicJwk.x!, 'base64url')).toEqual(Buffer.from('ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW', 'base64').subarray(1));
    const line = (await signCheckpoint(body, peter)).split('\n')[4]!;
    expect(Buffer.from(line.split(' ')[2]!, 'base64').subarray(0, 4).toString('hex')).toBe('c74f20a3');
    // transparency-dev/formats note_verifier_test.go: ECDSA (type 0x02) checkpoints of Sigstore Rekor and the Pixel 6 log.
    const spkiJwk = (material: string, kid: string) => ({
      ...createPublicKey({ key: Buffer.from(material, 'base64').subarray(1), format: 'der', type: 'spki' }).export({ format: 'jwk' }),
      kid,
      alg: 'ES256',
    });
    const rekor = spkiJwk('AjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABNhtmPtrWm3U1eQXBogSMdGvXwBcK5AW5i0hrZLOC96l+smGNM7nwZ4QvFK/4sueRoVj//QP22Ni4Qt9DPfkWLc=', 'rekor.sigstore.dev');
    const rekorNote = 'Rekor\n798034\nf+7CoKgXKE/tNys9TTXcr/ad6U/K3xvznmzew9y6SP0=\n\n\u2014 rekor.sigstore.dev wNI9ajBEAiARInWIWyCdyG27CO6LPnPekyw20qO0YJfoaPaowGp/XgIgc+qEHS3+GKVClgqq20uDLet7MCoTURUCRdxwWBHHufk=\n';
    expect(openCheckpoint(rekorNote, [rekor])).toMatchObject({ origin: 'Rekor', treeSize: 798034, keyId: 'rekor.sigstore.dev' });
    expect(openCheckpoint(rekorNote.replace('798034', '798035'), [rekor])).toBeUndefined();
    const pixel = spkiJwk('AjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABN+4x0Jk1yTwvLFI9A4NDdGZcX0aiWVdWM5XJVy0M4VWD3AvyW5Q6Hs9A0mcDkpUoYgn+KKPNzFC0H3nN3q6JQ8=', 'pixel6_transparency_log');
    const pixelNote = 'DEFAULT\n10\nbsWRucJU5xJPHb5eBdOm6+DM+VelCZBuvtI3sHERJ9Y=\n\n\u2014 pixel6_transparency_log kcFuMDBFAiEAhqMAP8P6qf6QxtUJhzMhbN+MbZ9dwfUHzGQJmffJHtoCIGD0cNe47dHWBoPwYdgBCepB06/+g5O1FmYjXl06owL4\n';
    expect(openCheckpoint(pixelNote, [pixel])).toMatchObject({ origin: 'DEFAULT', treeSize: 10, keyId: 'pixel6_transparency_log' });
  });

  it('rejects altered sizes and roots, unknown keys and garbage', async () => {
    const signer = await seedSigner('checkpoint key', 'consent-service-log');
    const ec = es256Signer('kms');
    const keys = jwks([signer, ec]).keys;
    for (const note of [await signCheckpoint(body, signer), await signCheckpoint(body, ec)]) {
      expect(openCheckpoint(note, keys)).toBeDefined();
      expect(openCheckpoint(note.replace('\n5\n', '\n6\n'), keys)).toBeUndefined();
      expect(openCheckpoint(note.replace(rootHash.toString('base64'), sha256(Buffer.from('other')).toString('base64')), keys)).toBeUndefined();
      expect(openCheckpoint(note.replace('tenant-1', 'tenant-2'), keys)).toBeUndefined();
      expect(openCheckpoint(note.slice(0, -1), keys)).toBeUndefined();
      expect(openCheckpoint(note, [])).toBeUndefined();
    }
    // Signed by a key not in the JWKS, and by a different key that claims a listed kid.
    const stranger = await seedSigner('someone else', 'consent-service-log');
    expect(openCheckpoint(await signCheckpoint(body, stranger), keys)).toBeUndefined();
    const impostor = { ...stranger, keyId: signer.keyId, publicJwk: { ...stranger.publicJwk, kid: signer.keyId } };
    expect(openCheckpoint(await signCheckpoint(body, impostor), keys)).toBeUndefined();
    // A listed key's signature that fails rejects the note even beside a good one.
    const good = await signCheckpoint(body, signer);
    const [, goodLine] = good.split('\n\n');
    const badLine = goodLine!.replace(/[A-Za-z0-9+/]{8}=*\n$/, (tail) => `${tail.startsWith('A') ? 'B' : 'A'}${tail.slice(1)}`);
    expect(openCheckpoint(`${good}${badLine}`, keys)).toBeUndefined();
    // An unknown extra signer is ignored.
    const cosigned = `${good}${(await signCheckpoint(body, stranger)).split('\n\n')[1]}`;
    expect(openCheckpoint(cosigned, keys)?.keyId).toBe(signer.keyId);
    for (const garbage of ['', 'hello', '\n\n', 'a\n1\nAAAA\n\n\u2014 k AAAAAAA=\n', `${good}x`, good.replace('\u2014', '-'), randomBytes(200).toString('latin1')]) {
      expect(openCheckpoint(garbage, keys)).toBeUndefined();
    }
    expect(openCheckpoint(undefined as unknown as string, keys)).toBeUndefined();
    expect(openCheckpoint(good, [{ kid: signer.keyId, kty: 'OKP', crv: 'Ed25519', x: 'bad' } as any])).toBeUndefined();
  });
});

describe('receipts', () => {
  const claims: ReceiptClaims = { rid: 'rec-1', ph: 'ab'.repeat(32), tid: 'tenant-1', nid: 'notice-1', nv: 3, iat: 1_760_000_000 };

  it.each([
    ['EdDSA', () => seedSigner('receipt key', 'consent-service-receipts')],
    ['ES256', async () => es256Signer('receipts')],
  ])('signs and verifies an %s receipt, and rejects an altered one', async (alg, make) => {
    const signer = await make();
    const keys = jwks([signer]).keys;
    const jws = await signReceipt(claims, signer);
    const [header, payload, signature] = jws.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg, kid: signer.keyId, typ: 'consent-receipt+jwt' });
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toEqual(claims);
    expect(verifyReceipt(jws, keys)).toEqual(claims);
    const altered = `${header}.${Buffer.from(JSON.stringify({ ...claims, nv: 4 })).toString('base64url')}.${signature}`;
    expect(verifyReceipt(altered, keys)).toBeUndefined();
    expect(verifyReceipt(jws, [])).toBeUndefined();
    expect(verifyReceipt(`${jws}x`, keys)).toBeUndefined();
    expect(verifyReceipt('not a jws', keys)).toBeUndefined();
    const other = await seedSigner('another receipt key', 'consent-service-receipts');
    expect(verifyReceipt(jws, [{ ...other.publicJwk, kid: signer.keyId }])).toBeUndefined();
  });
});

/** RFC 9162 §2.1.1 MTH and §2.1.3.1 PATH, written naively from the definitions. */
const largestPowerBelow = (n: number) => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};
const mth = (leaves: Buffer[]): Buffer => {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return sha256(Buffer.from([0]), leaves[0]!);
  const k = largestPowerBelow(leaves.length);
  return sha256(Buffer.from([1]), mth(leaves.slice(0, k)), mth(leaves.slice(k)));
};
const path = (m: number, leaves: Buffer[]): Buffer[] => {
  if (leaves.length <= 1) return [];
  const k = largestPowerBelow(leaves.length);
  return m < k ? [...path(m, leaves.slice(0, k)), mth(leaves.slice(k))] : [...path(m - k, leaves.slice(k)), mth(leaves.slice(0, k))];
};

describe('scripts/verify-receipt.mjs', () => {
  const run = async (files: { receipt: string; proof: unknown; keys: unknown }) => {
    const at = await mkdtemp(join(dir, 'verify-'));
    await writeFile(join(at, 'receipt.jws'), files.receipt);
    await writeFile(join(at, 'proof.json'), JSON.stringify(files.proof));
    await writeFile(join(at, 'keys.json'), JSON.stringify(files.keys));
    return promisify(execFile)(process.execPath, ['scripts/verify-receipt.mjs', join(at, 'receipt.jws'), join(at, 'proof.json'), join(at, 'keys.json')]).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
  };

  const setup = async (checkpointSigner: Signer, leafIndex = 2) => {
    const tenantId = 'tenant-7';
    const payloads = Array.from({ length: 5 }, (_, index) => JSON.stringify({ recordId: `rec-${index}`, tenantId, consentGiven: { p1: index % 2 === 0 } }));
    const hashes = payloads.map((payload) => sha256(Buffer.from(payload)));
    const root = mth(hashes);
    const note = await signCheckpoint({ origin: logOrigin(tenantId), treeSize: 5, rootHash: root }, checkpointSigner);
    const receiptSigner = await seedSigner('receipt key', 'consent-service-receipts');
    const proofHash = hashes[leafIndex]!.toString('hex');
    const receipt = await signReceipt({ rid: `rec-${leafIndex}`, ph: proofHash, tid: tenantId, nid: 'notice-1', nv: 1, iat: 1_760_000_000 }, receiptSigner);
    const data = {
      recordId: `rec-${leafIndex}`,
      proofHash,
      canonicalPayload: payloads[leafIndex]!,
      log: {
        status: 'INTEGRATED',
        leafIndex,
        treeSize: 5,
        inclusionProof: path(leafIndex, hashes).map((node) => node.toString('hex')),
        rootHash: root.toString('hex'),
        checkpoint: { treeSize: 5, rootHash: root.toString('hex'), signedAt: '2026-01-02T03:04:05.000Z', keyId: checkpointSigner.keyId, note },
      },
    };
    return { receipt, proof: { data }, data, keys: jwks([checkpointSigner, receiptSigner]), receiptSigner };
  };

  it.each([0, 2, 4])('accepts a genuine receipt for leaf %i of 5', async (leafIndex) => {
    const { receipt, proof, data, keys } = await setup(await seedSigner('checkpoint key', 'consent-service-log'), leafIndex);
    const result = await run({ receipt, proof, keys });
    expect(result).toEqual({ code: 0, stdout: `VALID: record rec-${leafIndex} is leaf ${leafIndex} of the tenant's log of size 5, signed 2026-01-02T03:04:05.000Z\n` });
    expect((await run({ receipt, proof: data, keys })).code).toBe(0);
  });

  it('accepts a checkpoint signed by an ES256 (KMS-like) key', async () => {
    const { receipt, proof, keys } = await setup(es256Signer('consent-service-log'));
    expect(await run({ receipt, proof, keys })).toMatchObject({ code: 0, stdout: expect.stringMatching(/^VALID/) });
  });

  it('rejects altered receipts, evidence, proofs and checkpoints', async () => {
    const signer = await seedSigner('checkpoint key', 'consent-service-log');
    const { receipt, data, keys } = await setup(signer);
    const invalid = async (files: { receipt?: string; proof?: unknown; keys?: unknown }, reason: RegExp) => {
      const result = await run({ receipt, proof: { data }, keys, ...files });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/^INVALID: /);
      expect(result.stdout).toMatch(reason);
    };
    const [header, payload, signature] = receipt.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    await invalid({ receipt: `${header}.${Buffer.from(JSON.stringify({ ...claims, rid: 'rec-3' })).toString('base64url')}.${signature}` }, /receipt signature/);
    await invalid({ proof: { data: { ...data, recordId: 'rec-3' } } }, /record rec-2, the proof for rec-3/);
    await invalid({ proof: { data: { ...data, canonicalPayload: data.canonicalPayload.replace('true', 'false') } } }, /canonical evidence/);
    await invalid({ proof: { data: { ...data, log: { ...data.log, status: 'PENDING' } } } }, /not yet/);
    const wrongPath = [...data.log.inclusionProof];
    wrongPath[0] = sha256(Buffer.from('x')).toString('hex');
    await invalid({ proof: { data: { ...data, log: { ...data.log, inclusionProof: wrongPath } } } }, /inclusion proof/);
    await invalid({ proof: { data: { ...data, log: { ...data.log, leafIndex: 3 } } } }, /inclusion proof/);
    const stranger = await seedSigner('not our key', 'consent-service-log');
    const forged = await signCheckpoint({ origin: logOrigin('tenant-7'), treeSize: 5, rootHash: Buffer.from(data.log.rootHash, 'hex') }, stranger);
    await invalid({ proof: { data: { ...data, log: { ...data.log, checkpoint: { ...data.log.checkpoint, note: forged } } } } }, /not signed by any key/);
    await invalid({ keys: { keys: keys.keys.filter((key) => key.kid !== signer.keyId) } }, /not signed by any key/);
    const older = await signCheckpoint({ origin: logOrigin('tenant-7'), treeSize: 4, rootHash: sha256(Buffer.from('the tree of size 4')) }, signer);
    await invalid({ proof: { data: { ...data, log: { ...data.log, checkpoint: { ...data.log.checkpoint, note: older } } } } }, /different tree size or root/);
    const otherTenant = await signCheckpoint({ origin: logOrigin('tenant-8'), treeSize: 5, rootHash: Buffer.from(data.log.rootHash, 'hex') }, signer);
    await invalid({ proof: { data: { ...data, log: { ...data.log, checkpoint: { ...data.log.checkpoint, note: otherTenant } } } } }, /tenant-8/);
    await invalid({ keys: { keys: keys.keys.filter((key) => key.kid === signer.keyId) } }, /not in keys\.json/);
  });

  it('exits 2 on a usage error', async () => {
    const result = await promisify(execFile)(process.execPath, ['scripts/verify-receipt.mjs', 'only-one']).catch((error: { code: number; stderr: string }) => error);
    expect(result).toMatchObject({ code: 2, stderr: expect.stringMatching(/^usage/) });
  });
});

describe('scripts/verify-receipt.mjs consistency', () => {
  const runConsistency = async (files: { kept: unknown; next: unknown; keys: unknown; proof?: unknown }) => {
    const at = await mkdtemp(join(dir, 'consistency-'));
    const write = (name: string, value: unknown) => writeFile(join(at, name), typeof value === 'string' ? value : JSON.stringify(value));
    await Promise.all([write('kept.json', files.kept), write('new.json', files.next), write('keys.json', files.keys), ...(files.proof === undefined ? [] : [write('proof.json', files.proof)])]);
    const args = ['scripts/verify-receipt.mjs', 'consistency', join(at, 'kept.json'), join(at, 'new.json'), join(at, 'keys.json'), ...(files.proof === undefined ? [] : [join(at, 'proof.json')])];
    return promisify(execFile)(process.execPath, args).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
  };
  const tree = buildTree(Array.from({ length: 40 }, (_, index) => sha256(Buffer.from(`entry ${index}`))));
  const origin = logOrigin('tenant-7');
  /** A log.checkpoint event as the checkpointer writes it, for `size`, following `previous`. */
  const eventAt = async (signer: Signer, size: number, previous: number, root = tree.rootAt(size)) => ({
    id: `evt_${'0'.repeat(32)}`,
    type: 'log.checkpoint',
    timestamp: '2026-01-02T03:04:05.000Z',
    tenantId: 'tenant-7',
    data: {
      treeSize: size,
      rootHash: Buffer.from(root).toString('hex'),
      note: await signCheckpoint({ origin, treeSize: size, rootHash: root }, signer),
      signedAt: '2026-01-02T03:04:05.000Z',
      keyId: signer.keyId,
      previousTreeSize: previous,
      consistencyProof: previous > 0 ? consistencyProof(previous, size, tree.node).map((node) => Buffer.from(node).toString('hex')) : [],
    },
  });
  const apiProof = (from: number, to: number) => ({ data: { from, to, proof: consistencyProof(from, to, tree.node).map((node) => Buffer.from(node).toString('hex')) } });

  it('accepts each later checkpoint against the one kept, from an event, the API or the bare note, for every kind of size', async () => {
    const cases = [[1, 2], [4, 7], [8, 8], [6, 13], [13, 40]] as const;
    for (const [index, [from, to]] of cases.entries()) {
      // The KMS key type for one of the pairs, the local Ed25519 key for the others.
      const signer = index === 1 ? es256Signer('consent-service-log') : await seedSigner('checkpoint key', 'consent-service-log');
      const keys = jwks([signer]);
      const kept = await eventAt(signer, from, 0);
      const next = await eventAt(signer, to, from);
      expect(await runConsistency({ kept, next, keys }), `${from} → ${to}`).toEqual({ code: 0, stdout: `CONSISTENT: ${origin} of size ${to} extends the checkpoint of size ${from}; keep the new note\n` });
      if (index === 3) expect((await runConsistency({ kept: kept.data.note, next: next.data, keys, proof: apiProof(from, to) })).code).toBe(0);
    }
  });

  it('rejects a rolled-back, rewritten or foreign log, an altered proof, and a gap without a proof', async () => {
    const signer = await seedSigner('checkpoint key', 'consent-service-log');
    const keys = jwks([signer]);
    const invalid = async (files: { kept: unknown; next: unknown; proof?: unknown; keys?: unknown }, reason: RegExp) => {
      const result = await runConsistency({ keys, ...files });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/^INVALID: /);
      expect(result.stdout).toMatch(reason);
    };
    const kept = await eventAt(signer, 13, 0);
    const next = await eventAt(signer, 20, 13);
    await invalid({ kept: next, next: kept }, /smaller than the one kept \(size 20\): the log was rolled back/);
    // The same sizes, but the new tree does not hold the kept one's entries: a rewritten log.
    const rewritten = buildTree(Array.from({ length: 20 }, (_, index) => sha256(Buffer.from(index === 5 ? 'changed' : `entry ${index}`))));
    const fork = { ...next, data: { ...next.data, note: await signCheckpoint({ origin, treeSize: 20, rootHash: rewritten.rootAt(20) }, signer), consistencyProof: consistencyProof(13, 20, rewritten.node).map((node) => Buffer.from(node).toString('hex')) } };
    await invalid({ kept, next: fork }, /does not extend the one of size 13/);
    const altered = [...next.data.consistencyProof];
    altered[0] = 'f'.repeat(64);
    await invalid({ kept, next: { ...next, data: { ...next.data, consistencyProof: altered } } }, /does not extend/);
    await invalid({ kept: await eventAt(signer, 9, 0), next }, /follows size 13, not the kept size 9/);
    await invalid({ kept, next, proof: apiProof(12, 20) }, /proof.json is from 12 to 20/);
    const otherLog = await signCheckpoint({ origin: logOrigin('tenant-8'), treeSize: 20, rootHash: tree.rootAt(20) }, signer);
    await invalid({ kept, next: otherLog, proof: apiProof(13, 20) }, /different logs/);
    await invalid({ kept, next, keys: jwks([await seedSigner('not our key', 'consent-service-log')]) }, /not signed by any key/);
  });
});
