import { createHash } from 'node:crypto';
import { compactVerify, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { kmsSigner } from '../shared/evidence/kms-signer';
import { seedSigner, type Signer } from '../shared/evidence/signer';
import { receiptSigner } from '../shared/evidence/signers';
import { credentialOf, fakeAwsService, jsonAnswer, roleCredentials } from './support/aws-fake';
import type { Received } from './support/receiver';
import { fakeKms } from './support/kms-fake';

/**
 * The evidence keys as they are reached in AWS, against fakes on loopback: the checkpoint key in
 * KMS (a real P-256 key the fake holds) and the receipt key's secret in Secrets Manager.
 */

/** A compact JWS of `payload` signed by `signer`, verified by jose with the JWK the signer publishes. */
const verifiesWithPublishedKey = async (signer: Signer, payload: Uint8Array): Promise<boolean> => {
  const header = Buffer.from(JSON.stringify({ alg: signer.alg, kid: signer.keyId })).toString('base64url');
  const input = `${header}.${Buffer.from(payload).toString('base64url')}`;
  const signature = await signer.sign(new TextEncoder().encode(input));
  expect(signature).toHaveLength(64);
  const verified = await compactVerify(`${input}.${Buffer.from(signature).toString('base64url')}`, await importJWK(signer.publicJwk, 'ES256')).catch(() => undefined);
  return verified !== undefined && Buffer.from(verified.payload).equals(Buffer.from(payload));
};

const bodyOf = (request: Received) => JSON.parse(request.rawBody.toString('utf8')) as Record<string, unknown>;

/** An awsJson 1.1 request to `target`, signed with the role's credentials from the environment (session token included) for `service`. */
const expectAwsJson = (request: Received, target: string, service: string) => {
  expect(request).toMatchObject({ method: 'POST', path: '/' });
  expect(request.headers).toMatchObject({ 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': target });
  expect(credentialOf(request)).toEqual({ accessKeyId: roleCredentials.accessKeyId, region: 'ap-south-1', service, sessionToken: roleCredentials.sessionToken });
};

describe('kmsSigner against a fake KMS', () => {
  it('publishes the key KMS holds and signs ES256 that verifies with it: RAW up to 4 KiB, a DIGEST above', async () => {
    const kms = await fakeKms();
    const signer = await kmsSigner(kms.keyId, 'consent-service-log');
    expect(signer).toMatchObject({ alg: 'ES256', publicJwk: { kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: signer.keyId } });
    expect(signer.keyId).toMatch(/^consent-service-log-[0-9a-f]{16}$/);

    const small = new TextEncoder().encode('consent-service checkpoint\n42\n');
    expect(await verifiesWithPublishedKey(signer, small)).toBe(true);
    // The JWS signing input is the base64url header, `.`, then the payload's base64url: 4 KiB and more.
    expect(await verifiesWithPublishedKey(signer, new Uint8Array(6000).fill(7))).toBe(true);

    const [getPublicKey, raw, digest] = kms.requests();
    expectAwsJson(getPublicKey!, 'TrentService.GetPublicKey', 'kms');
    expect(bodyOf(getPublicKey!)).toEqual({ KeyId: kms.keyId });
    expectAwsJson(raw!, 'TrentService.Sign', 'kms');
    expect(bodyOf(raw!)).toMatchObject({ KeyId: kms.keyId, MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' });
    expectAwsJson(digest!, 'TrentService.Sign', 'kms');
    expect(bodyOf(digest!)).toMatchObject({ KeyId: kms.keyId, MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' });
    expect(Buffer.from(String(bodyOf(digest!).Message), 'base64')).toHaveLength(32);
  });

  it('sends a message of exactly 4 KiB as RAW and one byte more as its SHA-256 DIGEST', async () => {
    const kms = await fakeKms();
    const signer = await kmsSigner(kms.keyId, 'consent-service-log');
    const longest = Buffer.alloc(4096, 'a');
    const over = Buffer.alloc(4097, 'a');
    await signer.sign(longest);
    await signer.sign(over);
    const [, raw, digest] = (kms.requests()).map(bodyOf);
    expect(raw).toMatchObject({ MessageType: 'RAW', Message: longest.toString('base64') });
    expect(digest).toMatchObject({ MessageType: 'DIGEST', Message: createHash('sha256').update(over).digest('base64') });
  });

  it.each(['ECC_SECG_P256K1', 'ECC_NIST_P384', 'RSA_2048'])('refuses a key KMS says is %s', async (keySpec) => {
    const kms = await fakeKms(keySpec);
    await expect(kmsSigner(kms.keyId, 'consent-service-log')).rejects.toThrow(`must be an ECC_NIST_P256 signing key, got ${keySpec}`);
  });

  it("hands on KMS's error for a key it does not hold", async () => {
    await fakeKms();
    const failure = await kmsSigner('arn:aws:kms:ap-south-1:111122223333:key/unknown', 'consent-service-log').catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'NotFoundException', $metadata: { httpStatusCode: 400, attempts: 1 } });
  });
});

describe('receiptSigner against a fake Secrets Manager', () => {
  it('derives from GetSecretValue the same key seedSigner derives from the secret', async () => {
    const arn = 'arn:aws:secretsmanager:ap-south-1:111122223333:secret:receipt-key-AbCdEf';
    const secret = 'a receipt key seed of 64 random characters, as the stack generates one…';
    const secretsManager = await fakeAwsService('AWS_ENDPOINT_URL_SECRETS_MANAGER', () => jsonAnswer({ ARN: arn, Name: 'receipt-key', SecretString: secret, VersionId: 'v1', VersionStages: ['AWSCURRENT'] }), {
      RECEIPT_KEY_SECRET_ARN: arn,
    });
    const signer = await receiptSigner();
    const expected = await seedSigner(secret, 'consent-service-receipts');
    expect(signer.publicJwk).toEqual(expected.publicJwk);
    expect(signer.keyId).toBe(expected.keyId);
    const [request, ...more] = secretsManager.requests();
    expect(more).toEqual([]);
    expectAwsJson(request!, 'secretsmanager.GetSecretValue', 'secretsmanager');
    expect(bodyOf(request!)).toEqual({ SecretId: arn });
  });
});
