import * as z from 'zod/mini';
import {
  portalLinkBody,
  portalLinkResult,
  portalViewResult,
  portalWithdrawBody,
  publicWithdrawalResult,
  taskParams,
  taskQuery,
  taskView,
  tokenParams,
  withdrawalResult,
  withdrawalTokenBody,
  withdrawalTokenResult,
  withdrawBody,
  withdrawPublicBody,
} from '../../consent/schemas';
import { prose, type RouteDefinition } from '../route';
import { withdrawPublicLimits } from './limits';

const tags = ['Withdrawal'];
const withdrawalEffects =
  'Writes an immutable WithdrawalRecord and a ComplianceTask due in 7 days, updates the records (isWithdrawn and withdrawnAt only on full withdrawal; withdrawnPurposes accumulates), emits one consent.withdrawn per record and mails a confirmation to the principal (when an email is known) and to the DPO. The withdrawal, its task, mails and (for a link) the token are committed in one transaction; the records are then updated 40 per transaction, idempotently, so any number of records can be withdrawn and a crash halfway is finished by the completer.';

const linkErrors =
  'Only the spec\'s codes, with the reason in error.details.reason (extension): unknown link 404 NOT_FOUND (reason NOT_FOUND); used 409 CONFLICT (reason USED, with usedAt); expired 409 CONFLICT (reason EXPIRED, with expiredAt); used and expired also name the tenant and newLinkUrl, its public withdrawal page. Every answer carries Cache-Control: no-store.';

/** Group consent-staff: withdrawals and withdrawal links made by the dashboard. */
export const withdrawalStaffRoutes = {
  withdrawConsent: {
    method: 'POST',
    path: '/api/v1/consent/withdraw',
    group: 'consent-staff',
    auth: { kind: 'bearer', access: 'write' },
    summary: "Withdraw a principal's consent for a notice (dashboard)",
    description: /* @__PURE__ */ prose(`Full withdrawal of every record of the principal for that notice. `, withdrawalEffects, ` No consent for that notice: 404; already fully withdrawn: 409. Exactly one withdrawal per decision: of simultaneous identical calls one withdraws and the others get 409 CONFLICT.`),
    tags,
    request: { body: withdrawBody },
    response: { status: 200, description: 'The withdrawal', data: withdrawalResult },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  createWithdrawalToken: {
    method: 'POST',
    path: '/api/v1/consent/withdrawal-token',
    group: 'consent-staff',
    auth: { kind: 'bearer', access: 'write' },
    summary: 'A single-use withdrawal link for a principal',
    description: 'The token has 256 random bits, is stored hashed, is valid 7 days and can be redeemed once. portalUrl is PORTAL_BASE_URL/<token>.',
    tags,
    request: { body: withdrawalTokenBody },
    response: { status: 201, description: 'The link', data: withdrawalTokenResult },
    errors: ['NOT_FOUND'],
  },
} as const satisfies Record<string, RouteDefinition>;

/** Group portal: the principal's withdrawal page and the link to it. */
export const portalRoutes = {
  portalView: {
    method: 'GET',
    path: '/api/v1/consent/portal/:token',
    group: 'portal',
    auth: { kind: 'none' },
    summary: 'The consent a withdrawal link is for',
    description:
      /* @__PURE__ */ prose(`What the portal page shows: the notice as consented to (title, version, contact, rights and complaint text) and each purpose's state, with the notice's words in every language it was published in (availableLanguages, translations: English where a language has no text). The spec leaves the body's fields beyond the notice and purposes unstated; these are extensions. Only reads: opening the link never spends it (mail scanners prefetch links). `, linkErrors),
    tags,
    noStore: true,
    request: { params: tokenParams },
    response: { status: 200, description: 'What the portal page shows', data: portalViewResult },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  portalWithdraw: {
    method: 'POST',
    path: '/api/v1/consent/portal/:token/withdraw',
    group: 'portal',
    auth: { kind: 'none' },
    summary: 'Redeem a withdrawal link',
    description: /* @__PURE__ */ prose(`withdrawAll (default true) withdraws everything; withdrawAll false with purposeIds withdraws those only. purposeIds with withdrawAll true (sent or defaulted) is 400 VALIDATION_ERROR, and so is a purpose the consent never granted (both on purposeIds). The token is spent in the same transaction: of simultaneous redemptions exactly one succeeds, the others get 409 CONFLICT with reason USED; 409 CONFLICT without a reason when nothing is left to withdraw. `, linkErrors, ` `, withdrawalEffects),
    tags,
    noStore: true,
    request: { params: tokenParams, body: portalWithdrawBody },
    response: { status: 200, description: 'The withdrawal', data: withdrawalResult },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  portalVisit: {
    method: 'POST',
    path: '/api/v1/consent/portal/:token/visit',
    group: 'portal',
    auth: { kind: 'none' },
    summary: 'The principal is on her link\'s page (her activity)',
    description:
      /* @__PURE__ */ prose(`Extension (rule 8(1): she approached the fiduciary). The portal page sends it once, at the person's first gesture on it (a tap, a key), never on load: opening a link is not a visit, as mail scanners open links. It records her activity (her last activity, at most one write a day: docs/retention.md) and nothing else; the link is not spent. `, linkErrors),
    tags,
    noStore: true,
    request: { params: tokenParams },
    response: { status: 202, description: 'Accepted: her activity is recorded', data: portalLinkResult },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  requestPortalLink: {
    method: 'POST',
    path: '/api/v1/consent/portal-link',
    group: 'portal',
    auth: { kind: 'none' },
    limits: [{ limit: 'portalLinkPerIp', per: 'ip', code: 'RATE_LIMIT' }],
    summary: 'Mail a withdrawal link (the public withdrawal page)',
    description:
      "Extension, behind the tenant's public withdrawal page (PORTAL_BASE_URL/t/<slug>, the public notice's withdrawalUrl when the notice names none). When the email has active consent with the tenant, a single-use withdrawal link (as POST /consent/withdrawal-token makes, for the notice of the latest consent in force) is mailed to it. Always 202 with the same body, held to at least PORTAL_LINK_MIN_MS, whether or not the email has consent, so emails cannot be enumerated. Unknown tenant slug: 404. Limits: 10 per hour per IP and 3 per hour per email address and tenant (429 RATE_LIMIT with Retry-After).",
    tags,
    request: { body: portalLinkBody },
    response: { status: 202, description: 'Accepted: a link is mailed if the email has consent', data: portalLinkResult },
    errors: ['NOT_FOUND', 'RATE_LIMIT'],
  },
} as const satisfies Record<string, RouteDefinition>;

/** Group consent-public: a withdrawal by the tenant's page, with the publishable key. */
export const publicWithdrawalRoutes = {
  withdrawPublic: {
    method: 'POST',
    path: '/api/v1/consent/withdraw-public',
    group: 'consent-public',
    auth: { kind: 'apiKey', in: 'body', checkOrigin: true, secretKey: 'accepted' },
    limits: withdrawPublicLimits,
    summary: 'Withdraw consent by email (public)',
    description: /* @__PURE__ */ prose(`Empty purposeIds withdraws everything. `, withdrawalEffects, ` Always 200: with no active consent for the email, withdrawalId is null and withdrawnCount 0, and the answer takes as long (it is held to at least WITHDRAW_PUBLIC_MIN_MS), so emails cannot be enumerated. Purposes the principal never consented to are ignored. 5 requests per hour per IP. The trade-off of the spec's behaviour (the default, the tenant's consent setting publicWithdrawal IMMEDIATE): the key is public, so anyone who knows an email can withdraw that person's consent. Such a withdrawal is recorded as what it is (extension): its attribution, in the withdrawal's logged evidence, the evidence pack, GET /compliance-tasks, the record's proof (lastWithdrawal) and every consent.withdrawn event, is level CLAIMED, method PUBLIC_EMAIL_CLAIM, attributedBy key:<keyId>, origin (the request's Origin, else its Referer's origin) and ipHash (SHA-256 of ip:<address>); with a secret key, VERIFIED, SECRET_KEY. With publicWithdrawal CONFIRM_BY_EMAIL (extension, recommended) nothing is withdrawn by this call: the address is mailed a single-use link to the withdrawal pages (as POST /consent/portal-link does, 3 per hour per address: 429 RATE_LIMIT) and the withdrawal happens when the person confirms there; the answer is the same for every address (withdrawalId null, withdrawnCount 0, confirmationRequired true), held to the same minimum time. A secret key may call it too (from a server, no Origin).`),
    tags,
    request: { body: withdrawPublicBody },
    response: { status: 200, description: 'The withdrawal, or nothing withdrawn', data: publicWithdrawalResult },
    errors: ['RATE_LIMIT'],
  },
} as const satisfies Record<string, RouteDefinition>;

/** Group consent: the compliance tasks withdrawals make. */
export const complianceTaskRoutes = {
  listComplianceTasks: {
    method: 'GET',
    path: '/api/v1/compliance-tasks',
    group: 'consent',
    auth: { kind: 'bearer', access: 'read' },
    summary: 'Compliance tasks created by withdrawals',
    description: 'Extension. status OPEN (due date not passed), OVERDUE (open past its due date) or DONE; all when omitted. By due date.',
    tags,
    request: { query: taskQuery },
    response: { status: 200, description: 'Tasks', data: /* @__PURE__ */ z.array(taskView) },
  },
  completeComplianceTask: {
    method: 'POST',
    path: '/api/v1/compliance-tasks/:id/complete',
    group: 'consent',
    auth: { kind: 'bearer', access: 'write' },
    summary: 'Mark a compliance task done',
    description: 'Extension. Completing a DONE task is 409 CONFLICT.',
    tags,
    request: { params: taskParams },
    response: { status: 200, description: 'The task', data: taskView },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
} as const satisfies Record<string, RouteDefinition>;
