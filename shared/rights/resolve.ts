import type * as z from 'zod/mini';
import { clock } from '../clock';
import { canonicalJson } from '../consent/proof';
import { forgetContact } from '../consent/contact';
import { principalRecords } from '../consent/store';
import { withdraw } from '../consent/withdrawal';
import { randomToken, sha256Hex } from '../crypto/hash';
import { ContentionError } from '../db/errors';
import { named, writeTransaction, type NamedItem } from '../db/transact';
import { AppError, ConflictError } from '../errors';
import { newEvent, outboxPut } from '../events/outbox';
import { requireRightsFeature } from '../tenants/features';
import type { Tenant } from '../tenants/tenant';
import { closureOf, requestDocuments, resolutionDocument, signClosureReceipt } from './evidence';
import { dpoContactOf } from '../notices/dpo-contact';
import { answerMail } from './mails';
import { answerKeptMs, isOpen, type RightsRequest } from './request';
import { requireRequest } from './requests';
import type { resolveBody } from './schemas';
import { answerInsert, linkWithdrawal, nomineeInsert, requestReplace, tokenExpiry, tokenInsert } from './store';
import { accessSummaryOf, type AccessSummary } from './summary';
import { actorSnapshot } from '../users/actor';
import type { ActorSnapshot } from '../users/actor-words';
import { actorsOf, detailView } from './views';

type Resolution = z.output<typeof resolveBody>;

/** ERASURE fulfilled needs every asset worked through: erased (DONE) or kept with its reason (RETAINED). */
const checkErasable = (request: RightsRequest, input: Resolution) => {
  if (request.requestType !== 'ERASURE' || input.outcome !== 'FULFILLED') return;
  const pending = request.assets.filter((asset) => asset.state === 'PENDING');
  if (pending.length > 0) {
    throw new AppError('CONFLICT', `Mark every asset DONE or RETAINED before fulfilling an erasure: ${pending.map((asset) => asset.name).join(', ')} still pending`, {
      details: { reason: 'ASSETS_PENDING', pendingAssets: pending.map(({ assetId, name }) => ({ assetId, name })) },
    });
  }
};

/**
 * Everything the resolution writes, in one transaction with it: the request (over the version
 * read, so of two racing resolves exactly one lands), the logged resolution, rights.resolved, the
 * principal's links kept 90 days more and a new one mailed with the answer, and what the outcome
 * records: the frozen access summary (ACCESS), the nominee (NOMINATION). A grievance's answer
 * carries the closure receipt, signed over the logged resolution's hash.
 */
const resolutionOf = async (tenant: Tenant, request: RightsRequest, input: Resolution, by: string, now: Date, actor: ActorSnapshot) => {
  const fulfilled = input.outcome === 'FULFILLED';
  const resolvedAt = now.toISOString();
  const summary: AccessSummary | null = request.requestType === 'ACCESS' && fulfilled ? await accessSummaryOf(tenant, request.principalHash) : null;
  const resolved: RightsRequest = {
    ...request,
    status: 'RESOLVED',
    outcome: input.outcome,
    response: input.response,
    resolvedAt,
    dueStage: null,
    timeline: [...request.timeline, { at: resolvedAt, status: 'RESOLVED', by, actor }],
    version: request.version + 1,
  };
  const document = resolutionDocument(resolved, by, summary ? sha256Hex(canonicalJson(summary)) : null);
  const closureReceipt =
    request.requestType === 'GRIEVANCE'
      ? await signClosureReceipt({ rid: request.requestId, rt: request.requestType, out: input.outcome, rat: resolvedAt, tid: request.tenantId, dh: document.document.hash, iat: Math.floor(now.getTime() / 1000) })
      : null;
  const token = request.principalEmail ? randomToken(32) : null;
  const next: RightsRequest = { ...resolved, closureReceipt, resolutionDocumentId: document.document.documentId, tokenHashes: token ? [...request.tokenHashes, sha256Hex(token)] : request.tokenHashes };
  const keepUntil = Math.floor((now.getTime() + answerKeptMs) / 1000);
  const contact = await dpoContactOf(tenant);
  const items: NamedItem[] = [
    requestReplace(next, request.version),
    document.item,
    named('event', outboxPut(newEvent(request.tenantId, 'rights.resolved', { requestId: request.requestId, type: request.requestType, outcome: input.outcome, principalHash: request.principalHash, resolvedAt }))),
    ...request.tokenHashes.map((hash) => tokenExpiry(hash, keepUntil)),
    ...(token ? [tokenInsert(sha256Hex(token), { tenantId: request.tenantId, requestId: request.requestId, createdAt: resolvedAt, expiresAt: keepUntil }), ...(await answerMail(next, tenant, token, contact))] : []),
    ...(summary ? [answerInsert(request.tenantId, request.requestId, summary)] : []),
    ...(request.requestType === 'NOMINATION' && fulfilled && request.nominee
      ? [nomineeInsert(request.tenantId, request.principalHash, { ...request.nominee, nominatedAt: resolvedAt, requestId: request.requestId })]
      : []),
  ];
  return { next, items };
};

/**
 * An erasure fulfilled withdraws all the principal's consent still in force, through the one
 * withdrawal path (WithdrawalRecord, 7-day task, consent.withdrawn, mails; method RIGHTS_REQUEST)
 * with the resolution in the withdrawal's own transaction. Consent records stay, as evidence.
 */
const withdrawAll = async (tenant: Tenant, request: RightsRequest, by: string, items: NamedItem[]): Promise<string | null> => {
  const active = (await principalRecords(request.tenantId, request.principalHash)).filter((record) => !record.isWithdrawn);
  if (active.length === 0) return null;
  const result = await withdraw({
    tenant,
    records: active,
    purposeIds: [],
    method: 'RIGHTS_REQUEST',
    reason: `Erasure request ${request.requestId}`,
    actor: by,
    principalEmail: request.principalEmail,
    extraItems: items,
  });
  return result?.withdrawalId ?? null;
};

const resolveOnce = async (tenant: Tenant, userId: string, requestId: string, input: Resolution) => {
  const request = await requireRequest(tenant.tenantId, requestId);
  if (!isOpen(request.status)) throw new ConflictError(`The request is ${request.status}; only a SUBMITTED or IN_PROGRESS request can be resolved`);
  checkErasable(request, input);
  const by = `user:${userId}`;
  const now = clock.now();
  const { next, items } = await resolutionOf(tenant, request, input, by, now, await actorSnapshot(tenant.tenantId, userId));
  let withdrawalId: string | null = null;
  if (request.requestType === 'ERASURE' && input.outcome === 'FULFILLED') {
    // First, and idempotent: a crash after it leaves the request open to resolve again, never an
    // erasure on record with the service still holding the email.
    await forgetContact(tenant.tenantId, request.principalHash);
    withdrawalId = await withdrawAll(tenant, request, by, items);
  }
  if (withdrawalId) await linkWithdrawal(tenant.tenantId, requestId, withdrawalId);
  else await writeTransaction(items);
  const resolved = { ...next, withdrawalId };
  const [documents, actors] = await Promise.all([requestDocuments(resolved), actorsOf(resolved)]);
  return detailView(resolved, clock.now(), documents, await closureOf(resolved, documents), actors);
};

/** To RESOLVED with an outcome and the response (required, a rejection's reasons too); decided again from a fresh read when a concurrent write cancelled it. */
export const resolveRequest = async (tenantId: string, userId: string, requestId: string, input: Resolution) => {
  const tenant = await requireRightsFeature(tenantId);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await resolveOnce(tenant, userId, requestId, input);
    } catch (error) {
      if (!(error instanceof ContentionError) || attempt === 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
    }
  }
};
