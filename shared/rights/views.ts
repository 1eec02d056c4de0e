import type { LoggedDocument } from '../evidence/documents';
import type { Tenant } from '../tenants/tenant';
import type { closureOf } from './evidence';
import { answerKeptMs, daysLeft, effectiveStatus, isOverdue, type RightsRequest } from './request';
import type { AccessSummary } from './summary';

type Closure = Awaited<ReturnType<typeof closureOf>>;

/** The fields every view of a request shows; the status is EXPIRED once an unconfirmed request's day is over, swept or not. */
const common = (request: RightsRequest, now: Date) => {
  const status = effectiveStatus(request, now);
  return {
    requestId: request.requestId,
    type: request.requestType,
    status,
    createdAt: request.createdAt,
    submittedAt: request.submittedAt,
    dueAt: request.dueAt,
    daysLeft: daysLeft({ status, dueAt: request.dueAt }, now),
    overdue: isOverdue({ status, dueAt: request.dueAt }, now),
    outcome: request.outcome,
    resolvedAt: request.resolvedAt,
  };
};

/** A row of the team's list: never the principal's email, details or answer. */
export const listItemView = (request: RightsRequest, now: Date) => ({ ...common(request, now), channel: request.channel, principalHash: request.principalHash });

/** The team's view of one request. */
export const detailView = (request: RightsRequest, now: Date, documents: readonly LoggedDocument[], closure: Closure) => ({
  ...listItemView(request, now),
  details: request.details,
  nominee: request.nominee,
  response: request.response,
  timeline: request.timeline,
  assets: request.assets,
  loggedBy: request.loggedBy,
  withdrawalId: request.withdrawalId,
  documents: documents.map(({ documentId, documentType, at, hash }) => ({ documentId, documentType, at, hash })),
  closure,
});

/** What the principal's link shows: their own request, whom to contact, and once answered, the answer. */
export const publicView = (request: RightsRequest, tenant: Tenant, now: Date, extras: { dpoContact: string | null; summary: AccessSummary | null; closure: Closure }) => ({
  tenant: { name: tenant.name, slug: tenant.slug },
  ...common(request, now),
  details: request.details,
  nominee: request.nominee ? { name: request.nominee.name, relationship: request.nominee.relationship } : null,
  confirmBy: request.status === 'UNVERIFIED' ? request.confirmBy : null,
  response: request.response,
  language: request.language,
  dpoContact: extras.dpoContact,
  linkValidUntil: request.resolvedAt ? new Date(Date.parse(request.resolvedAt) + answerKeptMs).toISOString() : null,
  summary: extras.summary,
  closure: extras.closure,
});
