import { verify, type JsonWebKey } from 'node:crypto';
import { publicKeyOf, type Signer } from './signer';

/**
 * The consent receipt: a compact JWS (RFC 7515) the principal or tenant keeps, naming the record
 * and its proof hash (ISO/IEC TS 27560-inspired: record, notice and version, time). With the
 * record's proof and the JWKS, scripts/verify-receipt.mjs checks it offline.
 */
export interface ReceiptClaims {
  /** consent record id */
  rid: string;
  /** proof hash: SHA-256 hex of the record's canonical evidence, the leaf the log commits to */
  ph: string;
  /** tenant (data fiduciary) id */
  tid: string;
  /** notice id */
  nid: string;
  /** notice version number */
  nv: number;
  /** attribution (VERIFIED, CLAIMED, IP) of proof format 3 records; absent for older records */
  att?: string;
  /** issued at, seconds since the epoch */
  iat: number;
}

/** Explicit media type (RFC 8725 §3.11) so a receipt is never mistaken for another token signed by the same key. */
export const receiptType = 'consent-receipt+jwt';

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

export const signReceipt = async (claims: ReceiptClaims, signer: Signer): Promise<string> => {
  const header = encode({ alg: signer.alg, kid: signer.keyId, typ: receiptType });
  // Only the known claims, in a fixed order.
  const payload = encode({ rid: claims.rid, ph: claims.ph, tid: claims.tid, nid: claims.nid, nv: claims.nv, ...(claims.att ? { att: claims.att } : {}), iat: claims.iat });
  const signature = await signer.sign(Buffer.from(`${header}.${payload}`, 'ascii'));
  return `${header}.${payload}.${Buffer.from(signature).toString('base64url')}`;
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

const claimsOf = (payload: Record<string, unknown>): ReceiptClaims | undefined => {
  const { rid, ph, tid, nid, nv, att, iat } = payload;
  if (typeof rid !== 'string' || typeof ph !== 'string' || typeof tid !== 'string' || typeof nid !== 'string') return undefined;
  if (!Number.isSafeInteger(nv) || !Number.isSafeInteger(iat) || (att !== undefined && typeof att !== 'string')) return undefined;
  return { rid, ph, tid, nid, nv: nv as number, ...(att === undefined ? {} : { att: att as string }), iat: iat as number };
};

/** The claims of a receipt signed by the JWKS key its header names; undefined otherwise, never a throw. */
export const verifyReceipt = (jws: string, keys: JsonWebKey[]): ReceiptClaims | undefined => {
  try {
    const parts = jws.trim().split('.');
    if (parts.length !== 3) return undefined;
    const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
    const header = objectOf(headerPart);
    const signature = decode(signaturePart);
    if (!header || !signature || header.typ !== receiptType || 'crit' in header) return undefined;
    const jwk = keys.find((candidate) => (candidate as { kid?: unknown }).kid === header.kid);
    if (!jwk || (jwk.alg !== undefined && jwk.alg !== header.alg)) return undefined;
    const input = Buffer.from(`${headerPart}.${payloadPart}`, 'ascii');
    const key = publicKeyOf(jwk);
    let valid: boolean;
    if (header.alg === 'EdDSA' && jwk.kty === 'OKP' && jwk.crv === 'Ed25519') valid = verify(null, input, key, signature);
    else if (header.alg === 'ES256' && jwk.kty === 'EC' && jwk.crv === 'P-256') valid = signature.length === 64 && verify('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, signature);
    else return undefined;
    const payload = valid ? objectOf(payloadPart) : undefined;
    return payload && claimsOf(payload);
  } catch {
    return undefined;
  }
};
