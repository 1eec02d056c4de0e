import type * as z from 'zod/mini';
import { clock } from '../clock';
import { principalHash } from '../consent/principal';
import { tenantPortalPageUrl } from '../consent/portal-urls';
import { openCursor, sealCursor } from '../crypto/cursor';
import { randomToken, sha256Hex } from '../crypto/hash';
import { tryTransaction, writeTransaction } from '../db/transact';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { newTimeOrderedId } from '../ids';
import { assertRightsFeature, requireRightsFeature } from '../tenants/features';
import { getTenantBySlug } from '../tenants/store';
import { closureOf, requestDocuments } from './evidence';
import { dpoContactOf } from '../notices/dpo-contact';
import { receivedMail } from './mails';
import { hasChecklist, isOpen, requestTypes, type RequestStatus, type RightsRequest } from './request';
import type { assetStateBody, listRequestsQuery, loggedRequestBody, settingsBody } from './schemas';
import { getRequest, getSettings, putSettings, queryRequests, requestInsert, requestRange, requestReplace, tokenInsert } from './store';
import { asSubmitted, submissionItems } from './submit';
import { accessSummaryOf } from './summary';
import { summaryDocumentModel } from './summary-document';
import { phaseOf } from './keys';
import { actorSnapshot } from '../users/actor';
import { actorsOf, detailView, listItemView } from './views';

export const requireRequest = async (tenantId: string, requestId: string): Promise<RightsRequest> => {
  const request = await getRequest(tenantId, requestId);
  if (!request) throw new NotFoundError('Rights request');
  return request;
};

const detailOf = async (request: RightsRequest) => {
  const [documents, actors] = await Promise.all([requestDocuments(request), actorsOf(request)]);
  return detailView(request, clock.now(), documents, await closureOf(request, documents), actors);
};

/**
 * A request the team took by email, phone, letter or in person: SUBMITTED at once, the logging
 * user recorded. A principal known by email is mailed a link to follow it (and later the answer).
 */
export const logRequest = async (tenantId: string, userId: string, input: z.output<typeof loggedRequestBody>) => {
  const tenant = await requireRightsFeature(tenantId);
  const identifier = input.dataPrincipalIdentifier.trim();
  const email = identifier.includes('@') ? identifier.toLowerCase() : null;
  const now = clock.now();
  const token = email ? randomToken(32) : null;
  const draft: RightsRequest = {
    tenantId,
    requestId: newTimeOrderedId(now),
    requestType: input.type,
    status: 'SUBMITTED',
    channel: input.channel,
    principalHash: principalHash(identifier),
    principalEmail: email,
    language: 'EN',
    details: input.details,
    teamNote: input.teamNote ?? null,
    nominee: input.nominee ?? null,
    createdAt: now.toISOString(),
    confirmBy: null,
    submittedAt: null,
    dueAt: null,
    outcome: null,
    response: null,
    resolvedAt: null,
    timeline: [],
    assets: [],
    loggedBy: userId,
    tokenHashes: token ? [sha256Hex(token)] : [],
    withdrawalId: null,
    closureReceipt: null,
    submissionDocumentId: null,
    resolutionDocumentId: null,
    dueStage: null,
    version: 0,
  };
  const contact = await dpoContactOf(tenant);
  const { request, items } = submissionItems(await asSubmitted(draft, now, `user:${userId}`, await actorSnapshot(tenantId, userId)), { contact, timeZone: tenant.timeZone });
  await writeTransaction([
    requestInsert(request),
    ...(token ? [tokenInsert(sha256Hex(token), { tenantId, requestId: request.requestId, createdAt: request.createdAt }), ...(await receivedMail(request, tenant, token, contact))] : []),
    ...items,
  ]);
  return detailOf(request);
};

type ListQuery = z.output<typeof listRequestsQuery>;

const openStatuses: RequestStatus[] = ['SUBMITTED', 'IN_PROGRESS'];

/** The filter of a listing: which range (all, or a phase) and what the FilterExpression keeps. */
const filterOf = (query: ListQuery, now: Date) => {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const overdue = query.overdue === 'true';
  if (query.status && openStatuses.includes(query.status)) {
    conditions.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = query.status;
  }
  if (query.type) {
    conditions.push('requestType = :type');
    values[':type'] = query.type;
  }
  if (overdue) {
    conditions.push('dueAt < :now');
    values[':now'] = now.toISOString();
  }
  const phase = query.status ? phaseOf(query.status) : overdue ? 'OPEN' : undefined;
  // Overdue requests are open ones: any other status filter with overdue lists nothing.
  const empty = overdue && query.status !== undefined && phase !== 'OPEN';
  return { phase, empty, filter: { expression: conditions.length > 0 ? conditions.join(' AND ') : undefined, names, values } };
};

/** Newest first, `limit` (at most 50) a page, `nextCursor` for the next one. */
export const listRequests = async (tenantId: string, query: ListQuery) => {
  await requireRightsFeature(tenantId);
  const now = clock.now();
  const { phase, empty, filter } = filterOf(query, now);
  if (empty) return { items: [], nextCursor: null };
  const context = ['rights-requests', tenantId, query.status ?? '', query.type ?? '', query.overdue ?? ''];
  const startKey = query.cursor ? (openCursor(context, query.cursor) as Record<string, unknown>) : undefined;
  if (startKey !== undefined && (typeof startKey !== 'object' || startKey === null)) throw new ValidationError({ cursor: 'not a cursor this listing returned' }, 'Invalid cursor');
  const { requests, lastKey } = await queryRequests(requestRange(tenantId, phase), filter, query.limit, startKey);
  return { items: requests.map((request) => listItemView(request, now)), nextCursor: lastKey ? sealCursor(context, lastKey) : null };
};

export const readRequest = async (tenantId: string, requestId: string) => {
  await requireRightsFeature(tenantId);
  return detailOf(await requireRequest(tenantId, requestId));
};

/** The s.11 summary of the request's principal as it stands now (the DPO's preview before answering). */
export const requestSummary = async (tenantId: string, requestId: string) => (await summaryOfRequest(tenantId, requestId)).summary;

const summaryOfRequest = async (tenantId: string, requestId: string) => {
  const tenant = await requireRightsFeature(tenantId);
  const request = await requireRequest(tenantId, requestId);
  return { tenant, request, summary: await accessSummaryOf(tenant, request.principalHash) };
};

/** The same summary as a document (summary-document.ts). */
export const requestSummaryDocument = async (tenantId: string, requestId: string) => {
  const { tenant, request, summary } = await summaryOfRequest(tenantId, requestId);
  return summaryDocumentModel(summary, request, tenant.timeZone);
};

/** SUBMITTED to IN_PROGRESS; from any other status 409. */
export const startRequest = async (tenantId: string, userId: string, requestId: string) => {
  await requireRightsFeature(tenantId);
  const request = await requireRequest(tenantId, requestId);
  if (request.status !== 'SUBMITTED') throw new ConflictError(`The request is ${request.status}; only a SUBMITTED request can be started`);
  const at = clock.now().toISOString();
  const next: RightsRequest = { ...request, status: 'IN_PROGRESS', timeline: [...request.timeline, { at, status: 'IN_PROGRESS', by: `user:${userId}`, actor: await actorSnapshot(tenantId, userId) }], version: request.version + 1 };
  await writeTransaction([requestReplace(next, request.version)]);
  return detailOf(next);
};

const assetAttempts = 5;

/**
 * One asset of an s.12 request done, or retained with the law or purpose that requires it (s.12(3)).
 * Changes of different assets at once all land: each is written over the version it read and, when
 * another landed first, applied again to the new one.
 */
export const markRequestAsset = async (tenantId: string, userId: string, requestId: string, assetId: string, input: z.output<typeof assetStateBody>) => {
  await requireRightsFeature(tenantId);
  const actor = await actorSnapshot(tenantId, userId);
  for (let attempt = 1; ; attempt += 1) {
    const request = await requireRequest(tenantId, requestId);
    if (!hasChecklist(request.requestType)) throw new ConflictError(`A ${request.requestType} request has no asset checklist`);
    if (!isOpen(request.status)) throw new ConflictError(`The request is ${request.status}; its assets can change only while it is open`);
    if (!request.assets.some((asset) => asset.assetId === assetId)) throw new NotFoundError('Asset of this request');
    const at = clock.now().toISOString();
    const next: RightsRequest = {
      ...request,
      assets: request.assets.map((asset) => (asset.assetId === assetId ? { ...asset, state: input.state, note: input.note ?? null, updatedAt: at, updatedBy: `user:${userId}`, updatedByActor: actor } : asset)),
      version: request.version + 1,
    };
    if ((await tryTransaction([requestReplace(next, request.version)])) === 'ok') return detailOf(next);
    if (attempt === assetAttempts) throw new ConflictError('The request kept changing; reload and retry');
  }
};

export const readSettings = async (tenantId: string) => {
  await requireRightsFeature(tenantId);
  return getSettings(tenantId);
};

/** Fields merge into the stored settings; a changed period applies to requests submitted from now on. */
export const updateSettings = async (tenantId: string, input: z.output<typeof settingsBody>) => {
  await requireRightsFeature(tenantId);
  const { updatedAt: _previous, ...current } = await getSettings(tenantId);
  const next = { ...current, ...Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) };
  const updatedAt = clock.now().toISOString();
  await putSettings(tenantId, next, updatedAt);
  return { ...next, updatedAt };
};

/** Rule 14(1): how a principal exercises their rights here, published for anyone. */
export const rightsMeans = async (tenantSlug: string) => {
  const tenant = await getTenantBySlug(tenantSlug);
  if (!tenant) throw new NotFoundError('Organisation');
  assertRightsFeature(tenant);
  const [settings, dpoContact] = await Promise.all([getSettings(tenant.tenantId), dpoContactOf(tenant)]);
  return {
    tenant: { name: tenant.name, slug: tenant.slug },
    rights: [...requestTypes],
    identifiersRequired: settings.identifiersRequired,
    requestResponseDays: settings.requestResponseDays,
    grievanceResponseDays: settings.grievanceResponseDays,
    dpoContact,
    requestPageUrl: tenantPortalPageUrl(tenant.slug),
  };
};
