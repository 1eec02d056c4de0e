import type { LoggedDocument } from '../evidence/documents';
import { actorOfEntry, currentActors, type ActorView } from '../users/actor';
import { userIdOf } from '../users/actor-words';
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

/** The team members a request's entries name by id only (written before snapshots were kept), as they read now. */
export const actorsOf = (request: RightsRequest): Promise<Map<string, ActorView>> =>
  currentActors(
    request.tenantId,
    [...request.timeline.filter((entry) => !entry.actor).map((entry) => userIdOf(entry.by)), ...request.assets.filter((asset) => !asset.updatedByActor).map((asset) => userIdOf(asset.updatedBy))].filter((id): id is string => id !== undefined),
  );

/** The team's view of one request: who did what named as they were then (or as they read now, said so). */
export const detailView = (request: RightsRequest, now: Date, documents: readonly LoggedDocument[], closure: Closure, actors: ReadonlyMap<string, ActorView>) => ({
  ...listItemView(request, now),
  details: request.details,
  teamNote: request.teamNote ?? null,
  nominee: request.nominee,
  response: request.response,
  timeline: request.timeline.map(({ at, status, by, actor }) => ({ at, status, by, actor: actorOfEntry({ by, actor }, actors) })),
  assets: request.assets.map(({ updatedByActor, ...asset }) => ({ ...asset, updatedByActor: actorOfEntry({ by: asset.updatedBy, actor: updatedByActor }, actors) })),
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
