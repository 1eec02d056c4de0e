import * as z from 'zod';
import {
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
import { adminRoles } from '../../roles';
import type { RouteDefinition } from '../route';
import { sdkLimits } from './limits';

const tags = ['Withdrawal'];
const withdrawalEffects =
  'Writes an immutable WithdrawalRecord and a ComplianceTask due in 7 days, updates the records (isWithdrawn and withdrawnAt only on full withdrawal; withdrawnPurposes accumulates), emits consent.withdrawn and mails a confirmation to the principal (when an email is known) and to the DPO, all in one transaction.';

export const withdrawalRoutes = {
  withdrawConsent: {
    method: 'POST',
    path: '/api/v1/consent/withdraw',
    group: 'consent',
    auth: { kind: 'bearer', roles: adminRoles },
    summary: "Withdraw a principal's consent for a notice (dashboard)",
    description: `Full withdrawal of every record of the principal for that notice. ${withdrawalEffects} No consent for that notice: 404; already fully withdrawn: 409.`,
    tags,
    request: { body: withdrawBody },
    response: { status: 200, description: 'The withdrawal', data: withdrawalResult },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  createWithdrawalToken: {
    method: 'POST',
    path: '/api/v1/consent/withdrawal-token',
    group: 'consent',
    auth: { kind: 'bearer', roles: adminRoles },
    summary: 'A single-use withdrawal link for a principal',
    description: 'The token has 256 random bits, is stored hashed, is valid 7 days and can be redeemed once. portalUrl is PORTAL_BASE_URL/<token>.',
    tags,
    request: { body: withdrawalTokenBody },
    response: { status: 201, description: 'The link', data: withdrawalTokenResult },
    errors: ['NOT_FOUND'],
  },
  portalView: {
    method: 'GET',
    path: '/api/v1/consent/portal/:token',
    group: 'portal',
    auth: { kind: 'none' },
    summary: 'The consent a withdrawal link is for',
    description:
      'The notice as consented to and each purpose\'s state. Unknown token: 404 WITHDRAWAL_TOKEN_NOT_FOUND; expired: 410 WITHDRAWAL_TOKEN_EXPIRED; already used: 409 CONFLICT.',
    tags,
    request: { params: tokenParams },
    response: { status: 200, description: 'What the portal page shows', data: portalViewResult },
    errors: ['WITHDRAWAL_TOKEN_NOT_FOUND', 'WITHDRAWAL_TOKEN_EXPIRED', 'CONFLICT'],
  },
  portalWithdraw: {
    method: 'POST',
    path: '/api/v1/consent/portal/:token/withdraw',
    group: 'portal',
    auth: { kind: 'none' },
    summary: 'Redeem a withdrawal link',
    description: `withdrawAll (default true) withdraws everything; withdrawAll false with purposeIds withdraws those only. The token is spent in the same transaction: of simultaneous redemptions exactly one succeeds, the others get 409 CONFLICT. ${withdrawalEffects}`,
    tags,
    request: { params: tokenParams, body: portalWithdrawBody },
    response: { status: 200, description: 'The withdrawal', data: withdrawalResult },
    errors: ['WITHDRAWAL_TOKEN_NOT_FOUND', 'WITHDRAWAL_TOKEN_EXPIRED', 'CONFLICT'],
  },
  withdrawPublic: {
    method: 'POST',
    path: '/api/v1/consent/withdraw-public',
    group: 'consent-public',
    auth: { kind: 'apiKey', in: 'body', checkOrigin: true },
    limits: [{ limit: 'withdrawPublicPerIp', per: 'ip', code: 'RATE_LIMIT' }, ...sdkLimits],
    summary: 'Withdraw consent by email (public)',
    description: `Empty purposeIds withdraws everything. ${withdrawalEffects} Always 200: with no active consent for the email, withdrawalId is null and withdrawnCount 0, and the answer takes as long (it is held to at least WITHDRAW_PUBLIC_MIN_MS), so emails cannot be enumerated. Purposes the principal never consented to are ignored. 5 requests per hour per IP.`,
    tags,
    request: { body: withdrawPublicBody },
    response: { status: 200, description: 'The withdrawal, or nothing withdrawn', data: publicWithdrawalResult },
  },
  listComplianceTasks: {
    method: 'GET',
    path: '/api/v1/compliance-tasks',
    group: 'consent',
    auth: { kind: 'bearer' },
    summary: 'Compliance tasks created by withdrawals',
    description: 'Extension. status OPEN (due date not passed), OVERDUE (open past its due date) or DONE; all when omitted. By due date.',
    tags,
    request: { query: taskQuery },
    response: { status: 200, description: 'Tasks', data: z.array(taskView) },
  },
  completeComplianceTask: {
    method: 'POST',
    path: '/api/v1/compliance-tasks/:id/complete',
    group: 'consent',
    auth: { kind: 'bearer', roles: adminRoles },
    summary: 'Mark a compliance task done',
    description: 'Extension. Completing a DONE task is 409 CONFLICT.',
    tags,
    request: { params: taskParams },
    response: { status: 200, description: 'The task', data: taskView },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
} as const satisfies Record<string, RouteDefinition>;
