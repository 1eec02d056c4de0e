import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { ecdsaRawToDer } from '../../shared/evidence/signer';
import { fakeAwsService, jsonAnswer } from './aws-fake';
import type { Answer } from './receiver';

/** P-256 (FIPS 186-4, D.1.2.3): the field prime, the group order, the base point; a = -3. */
const p = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const base: Point = [0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n, 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n];
type Point = readonly [bigint, bigint] | undefined;

const mod = (a: bigint, m: bigint): bigint => ((a % m) + m) % m;
const inverse = (a: bigint, m: bigint): bigint => {
  let [result, power, exponent] = [1n, mod(a, m), m - 2n];
  for (; exponent > 0n; exponent >>= 1n, power = (power * power) % m) if (exponent & 1n) result = (result * power) % m;
  return result;
};
const add = (a: Point, b: Point): Point => {
  if (!a || !b) return a ?? b;
  if (a[0] === b[0] && mod(a[1] + b[1], p) === 0n) return undefined;
  const slope = a[0] === b[0] ? mod(3n * a[0] * a[0] - 3n, p) * inverse(2n * a[1], p) : mod(b[1] - a[1], p) * inverse(b[0] - a[0], p);
  const x = mod(slope * slope - a[0] - b[0], p);
  return [x, mod(slope * (a[0] - x) - a[1], p)];
};
const multiply = (k: bigint, point: Point): Point => {
  let result: Point;
  for (let addend = point; k > 0n; k >>= 1n, addend = add(addend, addend)) if (k & 1n) result = add(result, addend);
  return result;
};
const bigintOf = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
const bytesOf = (value: bigint): Buffer => Buffer.from(value.toString(16).padStart(64, '0'), 'hex');

/** ECDSA over a SHA-256 digest taken elsewhere (KMS's MessageType DIGEST), which node:crypto cannot do: it always hashes what it signs. Raw r||s. */
const signDigest = (digest: Uint8Array, privateScalar: bigint): Uint8Array => {
  for (;;) {
    const k = mod(bigintOf(randomBytes(48)), n - 1n) + 1n;
    const r = mod(multiply(k, base)![0], n);
    const s = mod(inverse(k, n) * (bigintOf(digest) + r * privateScalar), n);
    if (r !== 0n && s !== 0n) return Buffer.concat([bytesOf(r), bytesOf(s)]);
  }
};

const failure = (type: string, message: string): Answer => jsonAnswer({ __type: type, message }, 400);

/**
 * A fake AWS KMS on 127.0.0.1 holding one real P-256 key (made with node:crypto), answering
 * TrentService.GetPublicKey (the SPKI DER, base64) and TrentService.Sign (ECDSA_SHA_256 over a RAW
 * message of at most 4 KiB or a 32-byte DIGEST, DER, base64) as the KMS API reference describes them.
 * `keySpec` is what it says the key is.
 */
export const fakeKms = async (keySpec = 'ECC_NIST_P256') => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privateScalar = bigintOf(Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url'));
  const keyId = 'arn:aws:kms:ap-south-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
  const operations: Record<string, (input: Record<string, unknown>) => Answer> = {
    GetPublicKey: () =>
      jsonAnswer({ KeyId: keyId, KeySpec: keySpec, KeyUsage: 'SIGN_VERIFY', PublicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'), SigningAlgorithms: ['ECDSA_SHA_256'] }),
    Sign: ({ Message, MessageType = 'RAW', SigningAlgorithm }) => {
      const message = Buffer.from(String(Message), 'base64');
      if (SigningAlgorithm !== 'ECDSA_SHA_256') return failure('InvalidKeyUsageException', `${String(SigningAlgorithm)} is not a signing algorithm of this key`);
      if (MessageType === 'RAW' && message.length > 4096) return failure('ValidationException', "1 validation error detected: Value at 'message' failed to satisfy constraint: Member must have length less than or equal to 4096");
      if (MessageType === 'DIGEST' && message.length !== 32) return failure('ValidationException', 'Digest is invalid length for algorithm ECDSA_SHA_256.');
      const der = MessageType === 'DIGEST' ? ecdsaRawToDer(signDigest(message, privateScalar)) : sign('sha256', message, privateKey);
      return jsonAnswer({ KeyId: keyId, Signature: Buffer.from(der).toString('base64'), SigningAlgorithm });
    },
  };
  const fake = await fakeAwsService('AWS_ENDPOINT_URL_KMS', ({ headers, rawBody }) => {
    const operation = operations[String(headers['x-amz-target']).replace(/^TrentService\./, '')];
    if (headers['content-type'] !== 'application/x-amz-json-1.1' || !operation) return failure('UnknownOperationException', 'Unknown operation');
    const input = JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>;
    return input.KeyId === keyId ? operation(input) : failure('NotFoundException', `Key '${String(input.KeyId)}' does not exist`);
  });
  return { ...fake, keyId };
};
