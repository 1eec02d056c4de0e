import { verify, type JsonWebKey } from 'node:crypto';
import { publicKeyOf, type Signer } from './signer';

/**
 * Compact JWS (RFC 7515) with an explicit media type (RFC 8725 §3.11): the one signing and
 * checking of the service's receipts (a consent receipt, a grievance's closure receipt) and of its
 * evidence packs' signatures, so a signed thing of one kind can never pass for another signed by
 * the same key. The signature itself is the signer's (a key file, or AWS KMS that jose cannot hold):
 * this file only lays out the RFC's serialisation around it.
 */
const encode = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/** The protected header's and the payload's base64url, signed: [header, signature]. */
const signed = async (typ: string, encodedPayload: string, signer: Signer): Promise<[string, string]> => {
  const header = encode({ alg: signer.alg, kid: signer.keyId, typ });
  const signature = await signer.sign(Buffer.from(`${header}.${encodedPayload}`, 'ascii'));
  return [header, Buffer.from(signature).toString('base64url')];
};

/** Signs `payload` (its keys in the order given) with a header naming the key and `typ`. */
export const signCompactJws = async (typ: string, payload: Record<string, unknown>, signer: Signer): Promise<string> => {
  const body = encode(payload);
  const [header, signature] = await signed(typ, body, signer);
  return `${header}.${body}.${signature}`;
};

/**
 * A compact JWS with detached content (RFC 7515 Appendix F): `payload` is signed as usual (its
 * base64url in the signing input) but left out of the serialisation, `<header>..<signature>`;
 * whoever checks it puts BASE64URL(payload) back between the dots.
 */
export const signDetachedJws = async (typ: string, payload: Uint8Array, signer: Signer): Promise<string> => {
  const [header, signature] = await signed(typ, Buffer.from(payload).toString('base64url'), signer);
  return `${header}..${signature}`;
};

const decode = (part: string): Buffer | undefined => {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) return undefined;
  const bytes = Buffer.from(part, 'base64url');
  return bytes.toString('base64url') === part ? bytes : undefined;
};

const objectOf = (part: string): Record<string, unknown> | undefined => {
  const bytes = decode(part);
  if (!bytes) return undefined;
  const value: unknown = JSON.parse(bytes.toString('utf8'));
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
};

/** The payload of a JWS of type `typ` signed by the JWKS key its header names; undefined otherwise, never a throw. */
export const verifyCompactJws = (jws: string, keys: JsonWebKey[], typ: string): Record<string, unknown> | undefined => {
  try {
    const parts = jws.trim().split('.');
    if (parts.length !== 3) return undefined;
    const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
    const header = objectOf(headerPart);
    const signature = decode(signaturePart);
    if (!header || !signature || header.typ !== typ || 'crit' in header) return undefined;
    const jwk = keys.find((candidate) => (candidate as { kid?: unknown }).kid === header.kid);
    if (!jwk || (jwk.alg !== undefined && jwk.alg !== header.alg)) return undefined;
    const input = Buffer.from(`${headerPart}.${payloadPart}`, 'ascii');
    const key = publicKeyOf(jwk);
    let valid: boolean;
    if (header.alg === 'EdDSA' && jwk.kty === 'OKP' && jwk.crv === 'Ed25519') valid = verify(null, input, key, signature);
    else if (header.alg === 'ES256' && jwk.kty === 'EC' && jwk.crv === 'P-256') valid = signature.length === 64 && verify('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, signature);
    else return undefined;
    return valid ? objectOf(payloadPart) : undefined;
  } catch {
    return undefined;
  }
};
