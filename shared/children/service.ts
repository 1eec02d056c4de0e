import { clock, dayMs } from '../clock';
import { openCursor, sealCursor } from '../crypto/cursor';
import { writeTransaction } from '../db/transact';
import { documentsOf } from '../evidence/documents';
import { ConflictError, NotFoundError } from '../errors';
import { partAClasses, partBPurposes, sources } from './fourth-schedule';
import { linkDays, tokenHashOf, tokenOf, type GuardianRequest } from './request';
import type { RequestStatus } from './schemas';
import { getRequest, queryRequests, requestReplace } from './store';

/** The team's view of a request: never the guardian's email, never a link. */
export const requestView = (request: GuardianRequest) => ({
  requestId: request.requestId,
  consentRecordId: request.consentRecordId,
  status: request.status,
  method: request.method,
  principalStatus: request.principalStatus,
  createdAt: request.createdAt,
  expiresAt: request.expiresAt,
  decidedAt: request.decidedAt,
  linksSent: request.generation,
});

/** A tenant's request by id; another tenant's is 404 like an unknown one. */
const tenantRequest = async (tenantId: string, requestId: string): Promise<GuardianRequest> => {
  const request = await getRequest(requestId);
  if (!request || request.tenantId !== tenantId) throw new NotFoundError('Guardian request');
  return request;
};

/** One page of the tenant's requests in one status, newest first, with the usual signed cursor. */
export const listRequests = async (tenantId: string, query: { status: RequestStatus; limit: number; cursor?: string }) => {
  const context = [tenantId, 'guardian-requests', query.status];
  const startKey = query.cursor ? (openCursor(context, query.cursor) as Record<string, unknown>) : undefined;
  const { requests, lastKey } = await queryRequests(tenantId, query.status, query.limit, startKey);
  return { items: requests.map(requestView), nextCursor: lastKey ? sealCursor(context, lastKey) : null };
};

/**
 * Mails a fresh link and voids the old one: the request's link moves to its next generation (its
 * hash replaced, so the old link is a 404 from now on) and is valid 7 days from now, as every
 * link. One conditional write; the table's stream mails the new link (requested.ts). Only a
 * PENDING request has a link to resend (409 otherwise).
 */
export const resendRequest = async (tenantId: string, requestId: string) => {
  const request = await tenantRequest(tenantId, requestId);
  if (request.status !== 'PENDING') throw new ConflictError(`The request is ${request.status}: there is no link to resend`);
  const now = clock.now();
  const generation = request.generation + 1;
  const next: GuardianRequest = {
    ...request,
    generation,
    tokenHash: tokenHashOf(tokenOf(request.requestId, generation)),
    expiresAt: new Date(now.getTime() + linkDays * dayMs).toISOString(),
    version: request.version + 1,
  };
  await writeTransaction([requestReplace(next, { version: request.version }, () => new ConflictError('The request changed meanwhile; try again'))]);
  return { requestId, expiresAt: next.expiresAt, linksSent: generation };
};

/** A request and the logged documents of its decision, for the dashboard's evidence view. */
export const requestEvidence = async (tenantId: string, requestId: string) => {
  const request = await tenantRequest(tenantId, requestId);
  const documents = await documentsOf(tenantId, request.consentRecordId);
  return {
    request: requestView(request),
    documents: documents.map((document) => ({ documentId: document.documentId, documentType: document.documentType, at: document.at, hash: document.hash, canonical: document.canonical })),
  };
};

/** The Fourth Schedule, as data with its sources (fourth-schedule.ts). */
export const fourthSchedule = () => ({
  partA: Object.entries(partAClasses).map(([id, entry]) => ({ id, ...entry })),
  partB: Object.entries(partBPurposes).map(([id, entry]) => ({ id, ...entry })),
  sources,
});
