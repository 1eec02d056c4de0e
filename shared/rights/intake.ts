import type * as z from 'zod/mini';
import { clock } from '../clock';
import { limitConfig } from '../config';
import { principalHash } from '../consent/principal';
import { waitUntil } from '../consent/answer-timing';
import { randomToken, sha256Hex } from '../crypto/hash';
import { writeTransaction } from '../db/transact';
import { AppError, ConflictError, NotFoundError } from '../errors';
import { newTimeOrderedId } from '../ids';
import { consumeRateLimit } from '../rate-limit/limiter';
import { assertRightsFeature } from '../tenants/features';
import { getTenantBySlug, requireTenant } from '../tenants/store';
import { closureOf, requestDocuments } from './evidence';
import { dpoContactOf } from '../notices/dpo-contact';
import { confirmationMail } from './mails';
import { answerKeptMs, confirmWindowMs, effectiveStatus, type RightsRequest } from './request';
import type { publicRequestBody } from './schemas';
import { getAnswer, getRequest, getToken, requestInsert, requestReplace, tokenExpiry, tokenInsert } from './store';
import { asSubmitted, submissionItems } from './submit';
import type { AccessSummary } from './summary';
import { publicView } from './views';

/** An expired request's link keeps saying so for a week, then goes (TTL). */
const expiredLinkKeptSeconds = 7 * 86_400;

/**
 * The public request form. Anyone may make a request for any address, so it is stored
 * UNVERIFIED and the address gets a single-use link (256 random bits, stored hashed) whose page
 * confirms it: only the mailbox's owner can make it reach the tenant. The same work is done and the
 * same 202 given for every address, no sooner than RIGHTS_INTAKE_MIN_MS, so nothing tells whether an
 * address has consent on record or a request open. 3 an hour per (tenant, address) on top of the
 * route's 5 an hour per IP, so nobody floods a mailbox.
 */
export const submitPublicRequest = async (input: z.output<typeof publicRequestBody>) => {
  const deadline = Date.now() + limitConfig.rightsIntakeMinMs;
  const email = input.email.trim().toLowerCase();
  try {
    const tenant = await getTenantBySlug(input.tenantSlug);
    if (!tenant) throw new NotFoundError('Organisation');
    assertRightsFeature(tenant);
    const hash = principalHash(email);
    await consumeRateLimit(limitConfig.limits.rightsIntakePerEmail, `${tenant.tenantId}#${hash}`, 'RATE_LIMIT');
    const now = clock.now();
    const token = randomToken(32);
    const tokenHash = sha256Hex(token);
    const createdAt = now.toISOString();
    const confirmBy = new Date(now.getTime() + confirmWindowMs).toISOString();
    const request: RightsRequest = {
      tenantId: tenant.tenantId,
      requestId: newTimeOrderedId(now),
      requestType: input.type,
      status: 'UNVERIFIED',
      channel: 'WEB',
      principalHash: hash,
      principalEmail: email,
      language: input.language,
      details: input.details,
      nominee: input.nominee ?? null,
      createdAt,
      confirmBy,
      submittedAt: null,
      dueAt: null,
      outcome: null,
      response: null,
      resolvedAt: null,
      timeline: [{ at: createdAt, status: 'UNVERIFIED', by: 'principal' }],
      assets: [],
      loggedBy: null,
      tokenHashes: [tokenHash],
      withdrawalId: null,
      closureReceipt: null,
      submissionDocumentId: null,
      resolutionDocumentId: null,
      dueStage: 'EXPIRY',
      version: 1,
    };
    await writeTransaction([
      requestInsert(request),
      tokenInsert(tokenHash, { tenantId: tenant.tenantId, requestId: request.requestId, createdAt, expiresAt: Math.floor(Date.parse(confirmBy) / 1000) + expiredLinkKeptSeconds }),
      ...(await confirmationMail(request, tenant, token)),
    ]);
    return { accepted: true as const };
  } finally {
    await waitUntil(deadline);
  }
};

/** The request a link opens: unknown, and 90 days after the answer, 404. */
const requestOfLink = async (token: string): Promise<RightsRequest> => {
  const link = await getToken(sha256Hex(token));
  const request = link && (await getRequest(link.tenantId, link.requestId));
  const answerGone = request?.resolvedAt && Date.parse(request.resolvedAt) + answerKeptMs <= clock.now().getTime();
  if (!request || answerGone) throw new NotFoundError('Request');
  return request;
};

const viewOf = async (request: RightsRequest) => {
  const tenant = await requireTenant(request.tenantId);
  const answered = request.status === 'RESOLVED';
  const [dpoContact, documents, summary] = await Promise.all([
    dpoContactOf(tenant),
    answered && request.requestType === 'GRIEVANCE' ? requestDocuments(request) : [],
    answered && request.requestType === 'ACCESS' && request.outcome === 'FULFILLED' ? (getAnswer(request.tenantId, request.requestId) as Promise<AccessSummary | undefined>) : undefined,
  ]);
  return publicView(request, tenant, clock.now(), { dpoContact, summary: summary ?? null, closure: await closureOf(request, documents) });
};

/** GET by the principal's link: their request, and once answered, the answer. Only reads (mail scanners open links). */
export const publicRequest = async (token: string) => viewOf(await requestOfLink(token));

const expiredError = (request: RightsRequest) =>
  new AppError('GONE', 'This request was not confirmed within 24 hours and has expired; make a new one', { details: { reason: 'EXPIRED', confirmBy: request.confirmBy } });

/**
 * The page's Confirm: UNVERIFIED to SUBMITTED, with its due date, assets, logged submission,
 * rights.submitted and the DPO's mail in one transaction conditional on the request as read, so a
 * confirmation racing the expiry sweep (or itself) lands once. After the day: 410 GONE.
 */
export const confirmPublicRequest = async (token: string) => {
  const request = await requestOfLink(token);
  const now = clock.now();
  const status = effectiveStatus(request, now);
  if (status === 'EXPIRED') throw expiredError(request);
  if (status !== 'UNVERIFIED') throw new ConflictError(`The request is already ${status}`);
  const tenant = assertRightsFeature(await requireTenant(request.tenantId));
  const { request: submitted, items } = submissionItems(await asSubmitted(request, now, 'principal'), { contact: await dpoContactOf(tenant), timeZone: tenant.timeZone });
  try {
    // The link now lives as long as the request is open.
    await writeTransaction([requestReplace(submitted, request.version), ...request.tokenHashes.map((hash) => tokenExpiry(hash, null)), ...items]);
  } catch (error) {
    const current = await getRequest(request.tenantId, request.requestId);
    if (current && effectiveStatus(current, clock.now()) === 'EXPIRED') throw expiredError(current);
    throw error;
  }
  return viewOf(submitted);
};
