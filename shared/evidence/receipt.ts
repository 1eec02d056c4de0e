import type { JsonWebKey } from 'node:crypto';
import { signCompactJws, verifyCompactJws } from './jws';
import type { Signer } from './signer';

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
  /** attribution (VERIFIED, CLAIMED, IP) of proof format 3 and 4 records; absent for older records */
  att?: string;
  /** issued at, seconds since the epoch */
  iat: number;
}

/** Explicit media type (RFC 8725 §3.11) so a receipt is never mistaken for another token signed by the same key. */
export const receiptType = 'consent-receipt+jwt';

export const signReceipt = (claims: ReceiptClaims, signer: Signer): Promise<string> =>
  // Only the known claims, in a fixed order.
  signCompactJws(receiptType, { rid: claims.rid, ph: claims.ph, tid: claims.tid, nid: claims.nid, nv: claims.nv, ...(claims.att ? { att: claims.att } : {}), iat: claims.iat }, signer);

const claimsOf = (payload: Record<string, unknown>): ReceiptClaims | undefined => {
  const { rid, ph, tid, nid, nv, att, iat } = payload;
  if (typeof rid !== 'string' || typeof ph !== 'string' || typeof tid !== 'string' || typeof nid !== 'string') return undefined;
  if (!Number.isSafeInteger(nv) || !Number.isSafeInteger(iat) || (att !== undefined && typeof att !== 'string')) return undefined;
  return { rid, ph, tid, nid, nv: nv as number, ...(att === undefined ? {} : { att: att as string }), iat: iat as number };
};

/** The claims of a receipt signed by the JWKS key its header names; undefined otherwise, never a throw. */
export const verifyReceipt = (jws: string, keys: JsonWebKey[]): ReceiptClaims | undefined => {
  const payload = verifyCompactJws(jws, keys, receiptType);
  return payload && claimsOf(payload);
};
