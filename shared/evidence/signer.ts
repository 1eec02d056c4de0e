import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign as signWith, type JsonWebKey, type KeyObject } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { derToJose, joseToDer } from 'ecdsa-sig-formatter';

/** A public JWK as served in the JWKS: the kid names the key in receipts and checkpoint notes. */
export type PublicJwk = JsonWebKey & { kid: string; alg: string; use: string };

export interface Signer {
  keyId: string;
  alg: 'EdDSA' | 'ES256';
  /** public JWK with kid, alg, use: 'sig' */
  publicJwk: PublicJwk;
  /** Ed25519: the 64-byte signature; ES256: raw r||s (64 bytes, the JWS form), never DER. */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

export const sha256 = (data: Uint8Array): Buffer => createHash('sha256').update(data).digest();

/** The kid: a hash of the public key, so every process holding the same key names it the same. */
export const keyIdOf = (name: string, publicKeyBytes: Uint8Array): string => `${name}-${sha256(publicKeyBytes).subarray(0, 8).toString('hex')}`;

export const publicJwkOf = (publicKey: KeyObject, kid: string, alg: Signer['alg']): PublicJwk => ({ ...publicKey.export({ format: 'jwk' }), kid, alg, use: 'sig' });

/** The key object of a JWKS entry (its kid/alg/use are ignored by node:crypto). Throws on a malformed key. */
export const publicKeyOf = (jwk: JsonWebKey): KeyObject => {
  const { kty, crv, x, y } = jwk;
  return createPublicKey({ key: { kty, crv, x, ...(y === undefined ? {} : { y }) } as JsonWebKey, format: 'jwk' });
};

const ed25519Signer = (privateKey: KeyObject, name: string): Signer => {
  const publicKey = createPublicKey(privateKey);
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  const keyId = keyIdOf(name, raw);
  return {
    keyId,
    alg: 'EdDSA',
    publicJwk: publicJwkOf(publicKey, keyId, 'EdDSA'),
    sign: async (data) => new Uint8Array(signWith(null, data, privateKey)),
  };
};

const isCode = (error: unknown, code: string): boolean => (error as { code?: unknown } | null)?.code === code;

/**
 * An Ed25519 key in a PKCS8 PEM file, created on first use. Several processes (the API, the log
 * workers) may start together: the key is written to a private temporary file and hard-linked into
 * place, so the file appears complete or not at all and exactly one process's key wins (EEXIST:
 * the others read the winner's).
 */
export const localSigner = async (pemPath: string, name: string): Promise<Signer> => {
  const read = async () => ed25519Signer(createPrivateKey(await readFile(pemPath, 'utf8')), name);
  try {
    return await read();
  } catch (error) {
    if (!isCode(error, 'ENOENT')) throw error;
  }
  await mkdir(dirname(pemPath), { recursive: true });
  const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' });
  const temporary = `${pemPath}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, pem, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, pemPath);
  } catch (error) {
    if (!isCode(error, 'EEXIST')) throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  return read();
};

/** PKCS8 DER of an Ed25519 private key before its 32-byte seed (RFC 8410). */
const ed25519Pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');

/** Ed25519 from a secret: the seed is SHA-256(secret), so every Lambda holding the secret has the same key. */
export const seedSigner = async (secret: string, name: string): Promise<Signer> =>
  ed25519Signer(createPrivateKey({ key: Buffer.concat([ed25519Pkcs8Prefix, sha256(Buffer.from(secret, 'utf8'))]), format: 'der', type: 'pkcs8' }), name);

/**
 * ECDSA-Sig-Value (SEQUENCE { r INTEGER, s INTEGER }), as KMS returns it, to the raw r||s of JWS,
 * and back (the signed-note ECDSA type carries DER, checkpoint.ts): ecdsa-sig-formatter, the
 * conversion the JOSE libraries of the field use. Malformed DER throws.
 */
export const ecdsaDerToRaw = (der: Uint8Array): Uint8Array => new Uint8Array(Buffer.from(derToJose(Buffer.from(der), 'ES256'), 'base64url'));

export const ecdsaRawToDer = (raw: Uint8Array): Uint8Array => new Uint8Array(joseToDer(Buffer.from(raw), 'ES256'));

/**
 * A JWKS the stack itself put in a function's environment at deploy (TOKEN_PUBLIC_KEYS,
 * LOG_PUBLIC_KEYS): its own output, not a caller's input, so a malformed one is the deployment's
 * fault, thrown as it is (a 500), never taken as "no key" (which would refuse every token, or
 * report every checkpoint as forged). Every key needs a kid and one of `algorithms`.
 */
export const publishedJwks = (variable: string, published: string, algorithms: readonly string[]): { keys: PublicJwk[] } => {
  const set = JSON.parse(published) as { keys?: unknown };
  const keys = Array.isArray(set?.keys) ? (set.keys as PublicJwk[]) : [];
  if (keys.length === 0 || keys.some((key) => typeof key?.kid !== 'string' || !algorithms.includes(String(key.alg)))) {
    throw new Error(`${variable} must be a JWKS whose every key has a kid and alg ${algorithms.join(' or ')}`);
  }
  return { keys };
};

/** The public halves as a JWKS (RFC 7517), one entry per kid. */
export const jwks = (signers: Pick<Signer, 'keyId' | 'publicJwk'>[]): { keys: PublicJwk[] } => ({
  keys: [...new Map(signers.map((signer) => [signer.keyId, signer.publicJwk])).values()],
});
