import type { JsonWebKey } from 'node:crypto';
import { sha256Hex } from '../crypto/hash';
import type { NamedItem } from '../db/transact';
import { documentPut, documentsOf, type LoggedDocument } from '../evidence/documents';
import { signCompactJws, verifyCompactJws } from '../evidence/jws';
import { logProofOf } from '../evidence/proofs';
import { receiptSigner } from '../evidence/signers';
import type { Outcome, RequestType, RightsRequest } from './request';

/**
 * A request's entries in the tenant's Merkle log: its submission and its resolution, each a logged
 * document written in the transaction of the change. They hold hashes, never the principal's
 * email, details or answer: the log proves what was filed and when, the request holds the words.
 */
const hashOrNull = (text: string | null | undefined) => (text ? sha256Hex(text) : null);

export const submissionDocument = (request: RightsRequest): { document: LoggedDocument; item: NamedItem } =>
  documentPut({
    tenantId: request.tenantId,
    documentType: 'rights.submitted',
    subjectId: request.requestId,
    at: request.submittedAt!,
    content: {
      requestId: request.requestId,
      type: request.requestType,
      channel: request.channel,
      principalHash: request.principalHash,
      submittedAt: request.submittedAt,
      dueAt: request.dueAt,
      detailsHash: sha256Hex(request.details),
      nomineeHash: request.nominee ? sha256Hex(JSON.stringify([request.nominee.name, request.nominee.email.toLowerCase(), request.nominee.relationship])) : null,
      assetIds: request.assets.map((asset) => asset.assetId),
      loggedBy: request.loggedBy,
    },
  });

export const resolutionDocument = (request: RightsRequest, by: string, summaryHash: string | null): { document: LoggedDocument; item: NamedItem } =>
  documentPut({
    tenantId: request.tenantId,
    documentType: 'rights.resolved',
    subjectId: request.requestId,
    at: request.resolvedAt!,
    content: {
      requestId: request.requestId,
      type: request.requestType,
      outcome: request.outcome,
      principalHash: request.principalHash,
      resolvedAt: request.resolvedAt,
      resolvedBy: by,
      responseHash: hashOrNull(request.response),
      summaryHash,
      assets: request.assets.map((asset) => ({ assetId: asset.assetId, state: asset.state, noteHash: hashOrNull(asset.note) })),
    },
  });

/** The claims of a grievance's closure receipt. */
export interface ClosureClaims {
  /** request id */
  rid: string;
  /** request type (GRIEVANCE) */
  rt: RequestType;
  /** outcome */
  out: Outcome;
  /** resolvedAt, ISO 8601 */
  rat: string;
  /** tenant (data fiduciary) id */
  tid: string;
  /** SHA-256 hex of the logged resolution document: the leaf the tenant's log commits to */
  dh: string;
  /** issued at, seconds since the epoch */
  iat: number;
}

/** Explicit media type, so a closure receipt never passes for a consent receipt signed by the same key. */
export const closureReceiptType = 'rights-closure+jwt';

export const signClosureReceipt = async (claims: ClosureClaims): Promise<string> =>
  signCompactJws(closureReceiptType, { rid: claims.rid, rt: claims.rt, out: claims.out, rat: claims.rat, tid: claims.tid, dh: claims.dh, iat: claims.iat }, await receiptSigner());

export const verifyClosureReceipt = (jws: string, keys: JsonWebKey[]): ClosureClaims | undefined => {
  const payload = verifyCompactJws(jws, keys, closureReceiptType);
  if (!payload || typeof payload.rid !== 'string' || typeof payload.dh !== 'string' || typeof payload.tid !== 'string') return undefined;
  return payload as unknown as ClosureClaims;
};

/** The request's log entries (its submission and resolution), oldest first. */
export const requestDocuments = (request: RightsRequest): Promise<LoggedDocument[]> => documentsOf(request.tenantId, request.requestId);

/** A resolved grievance's receipt with the logged resolution it names and that entry's place in the log. */
export const closureOf = async (request: RightsRequest, documents: readonly LoggedDocument[]) => {
  const resolution = documents.find((document) => document.documentId === request.resolutionDocumentId);
  if (!request.closureReceipt || !resolution) return null;
  return {
    receipt: request.closureReceipt,
    document: { documentId: resolution.documentId, canonical: resolution.canonical, hash: resolution.hash },
    log: await logProofOf(request.tenantId, resolution.documentId),
  };
};
