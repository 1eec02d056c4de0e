import {
  approveBody,
  childrenSettingsBody,
  childrenSettingsView,
  fourthScheduleView,
  guardianDecisionView,
  guardianEvidenceView,
  guardianRequestParams,
  guardianTokenParams,
  guardianView,
  listRequestsQuery,
  refuseBody,
  requestPage,
  resendView,
} from '../../children/schemas';
import type { RouteDefinition } from '../route';

const tags = ['Children'];
const decisionLimits = [{ limit: 'guardianDecisionPerIp', per: 'ip', code: 'RATE_LIMIT' }] as const;
const linkRule =
  'The link (/portal/g/<token>) is the only credential: mailed once to guardianEmail, never shown by any route, page or receipt, stored only as its SHA-256. An unknown, used, voided (resent) or expired link is the same 404 NOT_FOUND.';

/**
 * Extension (s.9 of the Act; rules 10, 11 and 12 and the Fourth Schedule of the DPDP Rules, 2025):
 * the tenant's children policy, the guardian's public routes behind /portal/g/<token>, and the
 * team's view of guardian requests. docs/children.md.
 */
export const childrenRoutes = {
  getChildrenSettings: {
    method: 'GET',
    path: '/api/v1/children/settings',
    group: 'children',
    auth: { kind: 'bearer', access: 'read' },
    summary: "The tenant's policy for children and guarded persons",
    description: 'Extension. Defaults until saved: audience ADULTS (a child\'s decision is 400), askAge false, methods [SELF_DECLARED], no issuers, no Fourth Schedule class or exemptions.',
    tags,
    response: { status: 200, description: 'The policy', data: childrenSettingsView },
  },
  saveChildrenSettings: {
    method: 'PUT',
    path: '/api/v1/children/settings',
    group: 'children',
    auth: { kind: 'bearer', access: 'write' },
    summary: "Change the tenant's policy for children and guarded persons",
    description:
      "Extension. Merges: a field not sent keeps its value. Applies from the next child's decision on (read strongly consistent). VIRTUAL_TOKEN needs an issuer; issuers are unique; a childProhibited purpose cannot be exempt. tokenIssuers' jwksUrl is fetched through the address policy when a token is checked (never a private or loopback address; locally, CHILDREN_JWKS_LOCAL_EXCEPTION names the one host:port allowed).",
    tags,
    request: { body: childrenSettingsBody },
    response: { status: 200, description: 'The policy as saved', data: childrenSettingsView },
  },
  getFourthSchedule: {
    method: 'GET',
    path: '/api/v1/children/fourth-schedule',
    group: 'children',
    auth: { kind: 'bearer', access: 'read' },
    summary: 'The Fourth Schedule of the DPDP Rules, 2025: classes (Part A) and purposes (Part B) with their conditions and sources',
    tags,
    response: { status: 200, description: 'The schedule', data: fourthScheduleView },
  },
  listGuardianRequests: {
    method: 'GET',
    path: '/api/v1/children/guardian-requests',
    group: 'children',
    auth: { kind: 'bearer', access: 'read' },
    summary: 'Guardian requests by status, newest first',
    description:
      'Extension. One status per listing (default PENDING), from its own index partition (no Scan): a page per call; nextCursor is signed for the tenant and the status. Never the guardian\'s email, never a link.',
    tags,
    request: { query: listRequestsQuery },
    response: { status: 200, description: 'One page', data: requestPage },
  },
  getGuardianRequest: {
    method: 'GET',
    path: '/api/v1/children/guardian-requests/:requestId',
    group: 'children',
    auth: { kind: 'bearer', access: 'read' },
    summary: "A guardian request and its decision's evidence",
    description: "Extension. The request, and the logged documents of its record's decision (approval, refusal or expiry: the canonical JSON each log leaf hashes). Another tenant's request is 404.",
    tags,
    request: { params: guardianRequestParams },
    response: { status: 200, description: 'The request and its evidence', data: guardianEvidenceView },
    errors: ['NOT_FOUND'],
  },
  resendGuardianRequest: {
    method: 'POST',
    path: '/api/v1/children/guardian-requests/:requestId/resend',
    group: 'children',
    auth: { kind: 'bearer', access: 'write' },
    summary: 'Mail the guardian a fresh link; the old one stops working',
    description: 'Extension. The new link is valid 7 days from now. Only a PENDING request has a link: 409 CONFLICT otherwise. Another tenant\'s request is 404.',
    tags,
    request: { params: guardianRequestParams },
    response: { status: 200, description: 'The request after the resend', data: resendView },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  getGuardianPage: {
    method: 'GET',
    path: '/api/v1/children/guardian/:token',
    group: 'children',
    auth: { kind: 'none' },
    summary: "The guardian's page: the notice, the child's choices, the methods offered",
    description: `Extension, behind /portal/g/<token>. Reading never spends the link. The notice is in the language the child saw. ${linkRule}`,
    tags,
    noStore: true,
    request: { params: guardianTokenParams },
    response: { status: 200, description: 'What the guardian decides on', data: guardianView },
    errors: ['NOT_FOUND'],
  },
  approveGuardianRequest: {
    method: 'POST',
    path: '/api/v1/children/guardian/:token/approve',
    group: 'children',
    auth: { kind: 'none' },
    limits: decisionLimits,
    summary: 'The parent or lawful guardian approves (verifiable consent, rule 10 or 11)',
    description: `Extension. method is one the page offered: TENANT_ATTESTED (the tenant's server attested this adult with the child's record), SELF_DECLARED (name, birthYear making them 18 or over, declaration true; the link proves the mailbox) or VIRTUAL_TOKEN (a compact JWS of a configured issuer: iss, aud = tenant id, exp, the age claim true, verified with the issuer's JWKS). For a GUARDED person guardianship (authority, orderReference) is required. consentGiven may switch purposes off, never on. A proof that fails is 400 VALIDATION_ERROR naming it, and nothing changes. Approval makes the record ACTIVE (guardianVerification GUARDIAN_VERIFIED and the method), logs one document (guardian hash, method, hash of the proof, decision), sends consent.guardian_verified and consent.recorded, and mails the guardian a receipt with a withdrawal link. Exactly once: the link is spent in the same transaction. ${linkRule}`,
    tags,
    noStore: true,
    request: { params: guardianTokenParams, body: approveBody },
    response: { status: 200, description: 'The decision', data: guardianDecisionView },
    errors: ['NOT_FOUND'],
  },
  refuseGuardianRequest: {
    method: 'POST',
    path: '/api/v1/children/guardian/:token/refuse',
    group: 'children',
    auth: { kind: 'none' },
    limits: decisionLimits,
    summary: 'The parent or lawful guardian refuses',
    description: `Extension. The record becomes GUARDIAN_REFUSED and never comes into force; logged, and consent.guardian_refused is sent. ${linkRule}`,
    tags,
    noStore: true,
    request: { params: guardianTokenParams, body: refuseBody },
    response: { status: 200, description: 'The decision', data: guardianDecisionView },
    errors: ['NOT_FOUND'],
  },
} as const satisfies Record<string, RouteDefinition>;
