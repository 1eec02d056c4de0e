import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, importJWK, jwtVerify } from 'jose';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CdkCustomResourceEvent } from 'aws-lambda';
import { handler as readTokenPublicKeys } from '../functions/token-public-keys/handler';
import { signAccessToken } from '../shared/auth/access-token-signer';
import { clockToleranceSeconds, verifyAccessToken } from '../shared/auth/jwt';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { config } from '../shared/config';
import { TokenInvalidError } from '../shared/errors';
import { jwks, localSigner } from '../shared/evidence/signer';
import { openCheckpoint, signCheckpoint } from '../shared/evidence/checkpoint';
import { kmsSigner } from '../shared/evidence/kms-signer';
import { logKeyName, logPublicKeys } from '../shared/evidence/log-public-keys';
import { fakeKms } from './support/kms-fake';

/**
 * Access tokens: signed by the auth function's key (a key file here, as in the local stack; a KMS
 * key in AWS, below against a fake), verified by everyone with the public keys found by kid: key
 * files locally, in AWS the JWKS the stack read at deploy (TOKEN_PUBLIC_KEYS).
 */
const claims = { tenantId: 'tenant-1', userId: 'user-1', role: 'DPO' as const };
const keyDir = mkdtempSync(join(tmpdir(), 'cms-token-keys-'));
const keyFile = (name: string) => join(keyDir, `${name}.pem`);
const now = () => Math.floor(Date.now() / 1000);
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const goodPayload = () => ({ iss: config.jwtIssuer, sub: 'user-1', aud: config.jwtAudience, tid: 'tenant-1', role: 'DPO', iat: now(), exp: now() + 600 });

/**
 * Signs the service's keys as they stand: `signing` signs, `verifying` are accepted, given as key
 * files (locally) or, with `published`, as the JWKS of their public halves (in AWS).
 */
const useKeys = async (signing: string, verifying: string[], published = false) => {
  vi.stubEnv('TOKEN_SIGNING_KEY', signing);
  if (!published) return vi.stubEnv('TOKEN_VERIFY_KEYS', verifying.join(','));
  vi.stubEnv('TOKEN_VERIFY_KEYS', keyFile('never-read'));
  vi.stubEnv('TOKEN_PUBLIC_KEYS', JSON.stringify(jwks(await Promise.all(verifying.map((file) => localSigner(file, 'access-token'))))));
};

/** What CloudFormation sends the deploy-time reader through the CDK's provider framework. */
const readerEvent = (RequestType: 'Create' | 'Update' | 'Delete', KeyArns: unknown): CdkCustomResourceEvent =>
  ({ RequestType, ServiceToken: 'arn', ResponseURL: 'https://example.invalid/', StackId: 'stack', RequestId: 'request', LogicalResourceId: 'Keys', ResourceType: 'Custom::TokenPublicKeys', ResourceProperties: { ServiceToken: 'arn', KeyArns }, ...(RequestType === 'Create' ? {} : { PhysicalResourceId: 'access-token-1', OldResourceProperties: { ServiceToken: 'arn', KeyArns } }) }) as CdkCustomResourceEvent;

const privateKeyOf = (file: string): KeyObject => createPrivateKey(readFileSync(file, 'utf8'));

/** A compact JWS over exactly this header and payload, signed by the given Ed25519 key (node:crypto: jose would refuse to sign some of them). */
const signedBy = async (key: KeyObject, header: Record<string, unknown>, payload: unknown) => {
  const input = `${part(header)}.${part(payload)}`;
  return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
};

const refusal = async (token: string) => {
  const error = await verifyAccessToken(token).then(() => undefined, (caught: unknown) => caught);
  expect(error, token).toBeInstanceOf(TokenInvalidError);
  return (error as TokenInvalidError).message;
};

beforeEach(() => useKeys(keyFile('a'), [keyFile('a')]));
afterEach(() => {
  resetClock();
  vi.unstubAllEnvs();
});
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

describe('access tokens (jose, asymmetric)', () => {
  it('verifies what it signs, and an independent verifier accepts it with the published key alone', async () => {
    const token = await signAccessToken(claims);
    expect(await verifyAccessToken(token)).toEqual(claims);
    const signer = await localSigner(keyFile('a'), 'access-token');
    const { payload, protectedHeader } = await jwtVerify(token, await importJWK(signer.publicJwk, 'EdDSA'), { issuer: config.jwtIssuer, audience: config.jwtAudience, typ: 'at+jwt' });
    expect(protectedHeader).toEqual({ alg: 'EdDSA', kid: signer.keyId, typ: 'at+jwt' });
    expect(payload).toMatchObject({ tid: 'tenant-1', role: 'DPO', sub: 'user-1' });
    expect(payload.exp! - payload.iat!).toBe(config.accessTokenTtlSeconds);
  });

  it('refuses a token signed by any other key, whatever kid it names', async () => {
    const signer = await localSigner(keyFile('a'), 'access-token');
    const stranger = generateKeyPairSync('ed25519').privateKey;
    expect(await refusal(await signedBy(stranger, { alg: 'EdDSA', kid: signer.keyId, typ: 'at+jwt' }, goodPayload()))).toBe('Access token is invalid');
    expect(await refusal(await signedBy(stranger, { alg: 'EdDSA', kid: 'access-token-0000000000000000', typ: 'at+jwt' }, goodPayload()))).toMatch(/unknown key/);
    // Another key of the service's own kind, not in the verifying set.
    await useKeys(keyFile('other'), [keyFile('a')]);
    await refusal(await signAccessToken(claims));
  });

  it('refuses alg none, HS256 with the public key as the secret, and every algorithm but ES256 and EdDSA', async () => {
    const signer = await localSigner(keyFile('a'), 'access-token');
    const kid = signer.keyId;
    await refusal(`${part({ alg: 'none', kid, typ: 'at+jwt' })}.${part(goodPayload())}.`);
    // The public key in every form an attacker could feed an HMAC: the JWK, its x, the PEM.
    const publicForms = [JSON.stringify(signer.publicJwk), String(signer.publicJwk.x), Buffer.from(String(signer.publicJwk.x), 'base64url').toString('binary'), createPublicKey(privateKeyOf(keyFile('a'))).export({ format: 'pem', type: 'spki' }).toString()];
    for (const secret of publicForms) {
      const forged = await new SignJWT(goodPayload()).setProtectedHeader({ alg: 'HS256', kid, typ: 'at+jwt' }).sign(new TextEncoder().encode(secret));
      await refusal(forged);
    }
    for (const alg of ['HS512', 'RS256', 'ES384', 'eddsa']) {
      const input = `${part({ alg, kid, typ: 'at+jwt' })}.${part(goodPayload())}`;
      await refusal(`${input}.${createHmac('sha256', 'x').update(input).digest('base64url')}`);
    }
  });

  it('refuses a wrong or missing typ, crit, and a tampered payload or signature', async () => {
    const key = privateKeyOf(keyFile('a'));
    const kid = (await localSigner(keyFile('a'), 'access-token')).keyId;
    expect(await verifyAccessToken(await signedBy(key, { alg: 'EdDSA', kid, typ: 'at+jwt' }, goodPayload()))).toEqual(claims);
    for (const typ of ['JWT', 'consent-receipt+jwt', undefined]) await refusal(await signedBy(key, { alg: 'EdDSA', kid, ...(typ ? { typ } : {}) }, goodPayload()));
    await refusal(await signedBy(key, { alg: 'EdDSA', kid, typ: 'at+jwt', crit: ['exp'], exp: 1 }, goodPayload()));
    const [header, payload, signature] = (await signAccessToken(claims)).split('.') as [string, string, string];
    await refusal(`${header}.${part({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), role: 'SUPER_ADMIN' })}.${signature}`);
    await refusal(`${header}.${payload}.${'A'.repeat(86)}`);
    for (const malformed of ['', 'abc', `${header}.${payload}`, `${header}.${payload}.${signature}.extra`]) await refusal(malformed);
  });

  it(`refuses an expired token and one not yet valid, beyond ${clockToleranceSeconds} s of tolerance; iat, exp and sub are required`, async () => {
    const token = await signAccessToken(claims);
    setClock(offsetClock((config.accessTokenTtlSeconds + clockToleranceSeconds - 1) * 1000));
    expect(await verifyAccessToken(token)).toEqual(claims);
    setClock(offsetClock((config.accessTokenTtlSeconds + clockToleranceSeconds + 1) * 1000));
    expect(await refusal(token)).toMatch(/expired/);
    resetClock();
    const key = privateKeyOf(keyFile('a'));
    const kid = (await localSigner(keyFile('a'), 'access-token')).keyId;
    const header = { alg: 'EdDSA', kid, typ: 'at+jwt' };
    await refusal(await signedBy(key, header, { ...goodPayload(), nbf: now() + 60 }));
    for (const claim of ['exp', 'iat', 'sub', 'tid'] as const) {
      const { [claim]: _left, ...without } = goodPayload();
      await refusal(await signedBy(key, header, without));
    }
    await refusal(await signedBy(key, header, { ...goodPayload(), iss: 'someone-else' }));
    await refusal(await signedBy(key, header, { ...goodPayload(), aud: 'another-audience' }));
    expect(await refusal(await signedBy(key, header, { ...goodPayload(), role: 'OWNER' }))).toMatch(/tenant, user or role/);
  });

  for (const published of [false, true]) {
    it(`rotates by kid: tokens of the previous key stay valid until they expire, and none after the key is dropped (${published ? 'public keys given as a JWKS, as in AWS' : 'key files'})`, async () => {
      await useKeys(keyFile('a'), [keyFile('a')], published);
      const old = await signAccessToken(claims);
      await useKeys(keyFile('b'), [keyFile('b'), keyFile('a')], published);
      const fresh = await signAccessToken(claims);
      expect(JSON.parse(Buffer.from(fresh.split('.')[0]!, 'base64url').toString()).kid).not.toBe(JSON.parse(Buffer.from(old.split('.')[0]!, 'base64url').toString()).kid);
      expect(await verifyAccessToken(old)).toEqual(claims);
      expect(await verifyAccessToken(fresh)).toEqual(claims);
      setClock(offsetClock((config.accessTokenTtlSeconds + clockToleranceSeconds + 1) * 1000));
      expect(await refusal(old)).toMatch(/expired/);
      resetClock();
      await useKeys(keyFile('b'), [keyFile('b')], published);
      expect(await refusal(old)).toMatch(/unknown key/);
      expect(await verifyAccessToken(fresh)).toEqual(claims);
    });
  }
});

describe('access tokens signed by a KMS key (ES256), against a fake KMS', () => {
  it('signs ES256 through kms:Sign; the deploy-time reader publishes the public key, and a verifier given it calls no KMS', async () => {
    const kms = await fakeKms();
    await useKeys(kms.keyId, [keyFile('a')]);
    const token = await signAccessToken(claims);
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string };
    expect(header).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    const targets = () => kms.requests().map((request) => String(request.headers['x-amz-target']));
    expect(targets()).toEqual(['TrentService.GetPublicKey', 'TrentService.Sign']);
    // Not accepted before its key is published: the file key alone verifies.
    expect(await refusal(token)).toMatch(/unknown key/);
    // The stack's custom resource at deploy: one GetPublicKey per key, the JWKS as its output.
    const read = await readTokenPublicKeys(readerEvent('Create', [kms.keyId]));
    expect(targets().slice(2)).toEqual(['TrentService.GetPublicKey']);
    const published = JSON.parse(read.Data!.Jwks) as { keys: { kid: string; alg: string; kty: string; crv: string; d?: string }[] };
    expect(published.keys).toEqual([expect.objectContaining({ kid: header.kid, alg: 'ES256', kty: 'EC', crv: 'P-256', use: 'sig' })]);
    expect(published.keys[0]!.d).toBeUndefined();
    expect(read.PhysicalResourceId).toBe(header.kid);
    vi.stubEnv('TOKEN_PUBLIC_KEYS', read.Data!.Jwks);
    expect(await verifyAccessToken(token)).toEqual(claims);
    // The verifier read nothing from KMS.
    expect(targets()).toHaveLength(3);
    // A file key's tokens are not accepted where only the KMS key's public half verifies.
    vi.stubEnv('TOKEN_SIGNING_KEY', keyFile('a'));
    expect(await refusal(await signAccessToken(claims))).toMatch(/unknown key/);
  });

  it("the reader reads the checkpoint key too (KeyKind log), named as the checkpoint signer names it: the log's verification opens a KMS-signed note with what it published, and calls no KMS", async () => {
    const kms = await fakeKms();
    const event = readerEvent('Create', [kms.keyId]);
    const read = await readTokenPublicKeys({ ...event, ResourceProperties: { ...event.ResourceProperties, KeyKind: 'log' } } as CdkCustomResourceEvent);
    const signer = await kmsSigner(kms.keyId, logKeyName);
    expect(read.PhysicalResourceId).toBe(signer.keyId);
    const body = { origin: 'consent-service/log/tenant-1', treeSize: 3, rootHash: new Uint8Array(32).fill(7) };
    const note = await signCheckpoint(body, signer);
    const calls = kms.requests().length;
    vi.stubEnv('LOG_PUBLIC_KEYS', read.Data!.Jwks);
    expect(openCheckpoint(note, (await logPublicKeys()).keys)).toMatchObject({ treeSize: 3, keyId: signer.keyId });
    expect(kms.requests()).toHaveLength(calls);
    // Another kind is refused; a token key's reading (a different kid) does not open the note; a malformed set is the deployment's fault.
    await expect(readTokenPublicKeys({ ...event, ResourceProperties: { ...event.ResourceProperties, KeyKind: 'receipt' } } as CdkCustomResourceEvent)).rejects.toThrow(/KeyKind/);
    vi.stubEnv('LOG_PUBLIC_KEYS', (await readTokenPublicKeys(event)).Data!.Jwks);
    expect(openCheckpoint(note, (await logPublicKeys()).keys)).toBeUndefined();
    vi.stubEnv('LOG_PUBLIC_KEYS', '{"keys":[]}');
    await expect(logPublicKeys()).rejects.toThrow(/LOG_PUBLIC_KEYS/);
  });

  it('the reader: a key list read in its order, nothing done on delete, a malformed list refused; a verifier never reads a KMS key itself', async () => {
    const kms = await fakeKms();
    const updated = await readTokenPublicKeys(readerEvent('Update', [kms.keyId, kms.keyId]));
    // The same key twice is published once.
    expect((JSON.parse(updated.Data!.Jwks) as { keys: unknown[] }).keys).toHaveLength(1);
    expect(await readTokenPublicKeys(readerEvent('Delete', [kms.keyId]))).toEqual({ PhysicalResourceId: 'access-token-1' });
    for (const malformed of [undefined, 'arn:aws:kms:x', [42], []]) await expect(readTokenPublicKeys(readerEvent('Create', malformed))).rejects.toThrow();
    const unknown = 'arn:aws:kms:ap-south-1:111122223333:key/unknown';
    await expect(readTokenPublicKeys(readerEvent('Create', [kms.keyId, unknown]))).rejects.toThrow();
    const calls = kms.requests().length;
    // Verifying functions are given public keys, never a KMS key to read: such a configuration fails loudly, and calls nothing.
    vi.stubEnv('TOKEN_VERIFY_KEYS', kms.keyId);
    await expect(verifyAccessToken('a.b.c')).rejects.toThrow(/TOKEN_PUBLIC_KEYS/);
    expect(kms.requests()).toHaveLength(calls);
    // A malformed key set is the deployment's fault, not the token's.
    for (const set of ['{}', '{"keys":[]}', '{"keys":[{"kty":"OKP","crv":"Ed25519","x":"AA","alg":"EdDSA"}]}', '{"keys":[{"kty":"oct","k":"AA","kid":"k","alg":"HS256"}]}', 'not json']) {
      vi.stubEnv('TOKEN_PUBLIC_KEYS', set);
      const error = await verifyAccessToken(await signAccessToken(claims)).catch((caught: unknown) => caught);
      expect(error, set).toBeInstanceOf(Error);
      expect(error, set).not.toBeInstanceOf(TokenInvalidError);
    }
  });
});
