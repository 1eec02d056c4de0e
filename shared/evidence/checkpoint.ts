import { createHash, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { ecdsaRawToDer, publicKeyOf, type Signer } from './signer';

/**
 * A tenant's log checkpoint: the c2sp.org/tlog-checkpoint body in a c2sp.org/signed-note.
 *
 *   <origin>\n<tree size>\n<base64 root hash>\n
 *   \n
 *   — <key name> <base64(4-byte key ID || signature)>\n
 *
 * The key name is the signer's kid, so a note is checked against the JWKS of GET /consent/log/keys.
 * Signature types (signed-note's registry):
 * - 0x01 Ed25519 (the local and receipt keys): key ID = SHA-256(name || 0x0A || 0x01 || 32-byte
 *   public key)[:4], signature = Ed25519 over the note text.
 * - 0x02 ECDSA (the KMS P-256 key), as signed-note assigns it ("as implemented by
 *   transparency-dev/witness", also Sigstore Rekor's): key ID = SHA-256(SPKI DER of the public
 *   key)[:4] (no name, no type byte), signature = ASN.1 DER ECDSA over SHA-256 of the note text.
 *   Using the assigned type rather than an invented one lets Go's transparency-dev/formats/note
 *   verify our notes with the vkey `<kid>+<key ID hex>+base64(0x02 || SPKI DER)`. Signer.sign
 *   returns JWS-style r||s, so it is re-encoded as DER here.
 * scripts/verify-receipt.mjs repeats these rules (it must stay standalone): change both together.
 */

const dash = '\u2014 ';
const maxSignatures = 100;
const maxNoteBytes = 1 << 20;

export const logOrigin = (tenantId: string): string => `consent-service/log/${tenantId}`;

export interface CheckpointBody {
  origin: string;
  treeSize: number;
  rootHash: Uint8Array;
}

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** The key ID and verification of a signature line's key, by JWK type; undefined for a key type notes do not use. */
const noteKey = (name: string, jwk: JsonWebKey): { keyId: Buffer; verify(text: Buffer, signature: Buffer): boolean } | undefined => {
  let key: KeyObject;
  try {
    key = publicKeyOf(jwk);
  } catch {
    return undefined;
  }
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') {
    const raw = Buffer.from(jwk.x ?? '', 'base64url');
    return {
      keyId: sha256(Buffer.from(`${name}\n`, 'utf8'), Buffer.from([0x01]), raw).subarray(0, 4),
      verify: (text, signature) => signature.length === 64 && verify(null, text, key, signature),
    };
  }
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') {
    return {
      keyId: sha256(key.export({ format: 'der', type: 'spki' })).subarray(0, 4),
      verify: (text, signature) => verify('sha256', text, { key, dsaEncoding: 'der' }, signature),
    };
  }
  return undefined;
};

const base64Std = (text: string): Buffer | undefined => {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(text, 'base64');
  // Only the canonical encoding: no second spelling of the same bytes.
  return bytes.toString('base64') === text ? bytes : undefined;
};

/** signed-note forbids ASCII control characters but the newline (which a single line may not hold either). */
const hasControl = (text: string, newlineAllowed: boolean): boolean => [...text].some((char) => char < ' ' && !(newlineAllowed && char === '\n'));

const noteText = (body: CheckpointBody): string => {
  if (!body.origin || hasControl(body.origin, false)) {
    throw new Error('a checkpoint origin must be a non-empty line without control characters');
  }
  if (!Number.isSafeInteger(body.treeSize) || body.treeSize < 0) throw new Error('a checkpoint tree size must be a non-negative integer');
  if (body.rootHash.length !== 32) throw new Error('a checkpoint root hash must be 32 bytes');
  return `${body.origin}\n${body.treeSize}\n${Buffer.from(body.rootHash).toString('base64')}\n`;
};

/** Signs the checkpoint; returns the whole note text (body, blank line, one signature line). */
export const signCheckpoint = async (body: CheckpointBody, signer: Signer): Promise<string> => {
  const text = noteText(body);
  const key = noteKey(signer.keyId, signer.publicJwk);
  if (!key || /[\s+]/.test(signer.keyId) || !signer.keyId) throw new Error(`key ${signer.keyId} cannot sign a note`);
  const signed = await signer.sign(Buffer.from(text, 'utf8'));
  const signature = signer.alg === 'ES256' ? ecdsaRawToDer(signed) : signed;
  return `${text}\n${dash}${signer.keyId} ${Buffer.concat([key.keyId, signature]).toString('base64')}\n`;
};

/** The checkpoint body of verified note text; undefined unless it is exactly origin, size and root (plus extension lines). */
const parseBody = (text: string): CheckpointBody | undefined => {
  const lines = text.split('\n');
  lines.pop(); // the text ends in a newline
  const [origin, size, root, ...extensions] = lines;
  if (!origin || size === undefined || root === undefined || extensions.some((line) => line === '')) return undefined;
  if (!/^(0|[1-9][0-9]*)$/.test(size) || !Number.isSafeInteger(Number(size))) return undefined;
  const rootHash = base64Std(root);
  if (!rootHash || rootHash.length !== 32) return undefined;
  return { origin, treeSize: Number(size), rootHash: new Uint8Array(rootHash) };
};

/**
 * The checkpoint of a signed note, if a signature line verifies with the JWKS key whose kid is the
 * line's key name (and whose key ID matches); undefined for anything else, never a throw. A line
 * of a known key that fails to verify rejects the whole note, as signed-note recommends; lines of
 * unknown keys are ignored.
 */
export const openCheckpoint = (note: string, keys: JsonWebKey[]): (CheckpointBody & { keyId: string }) | undefined => {
  try {
    if (typeof note !== 'string' || Buffer.byteLength(note, 'utf8') > maxNoteBytes || !note.endsWith('\n')) return undefined;
    if (hasControl(note, true)) return undefined;
    const split = note.lastIndexOf('\n\n');
    if (split < 0) return undefined;
    const text = note.slice(0, split + 1);
    const lines = note.slice(split + 2, -1).split('\n');
    if (lines.length > maxSignatures) return undefined;
    const textBytes = Buffer.from(text, 'utf8');
    let verifiedBy: string | undefined;
    for (const line of lines) {
      if (!line.startsWith(dash)) return undefined;
      const [name, encoded, ...rest] = line.slice(dash.length).split(' ');
      if (!name || encoded === undefined || rest.length > 0 || name.includes('+')) return undefined;
      const signature = base64Std(encoded);
      if (!signature || signature.length < 5) return undefined;
      const jwk = keys.find((candidate) => (candidate as { kid?: unknown }).kid === name);
      const key = jwk && noteKey(name, jwk);
      if (!key || !key.keyId.equals(signature.subarray(0, 4))) continue;
      if (!key.verify(textBytes, signature.subarray(4))) return undefined;
      verifiedBy ??= name;
    }
    const body = verifiedBy === undefined ? undefined : parseBody(text);
    return body && verifiedBy !== undefined ? { ...body, keyId: verifiedBy } : undefined;
  } catch {
    return undefined;
  }
};
