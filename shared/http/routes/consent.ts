import * as z from 'zod/mini';
import {
  analyticsView,
  consentSettingsBody,
  consentSettingsChange,
  consentSettingsView,
  externalIdItem,
  externalIdParams,
  hashParams,
  listRecordsQuery,
  proofView,
  recordBody,
  recordIdParams,
  recordPage,
  recordResult,
  statusItem,
} from '../../consent/schemas';
import type { RouteDefinition } from '../route';

const tags = ['Consent records'];

/**
 * Roles: the spec does not give them for the consent dashboard endpoints. Writing and verifying
 * evidence is for DPO and SUPER_ADMIN; reading it is open to every role.
 */
/** Group consent-staff: a consent recorded for a principal by the dashboard. */
export const consentStaffRoutes = {
  recordConsent: {
    method: 'POST',
    path: '/api/v1/consent/record',
    group: 'consent-staff',
    auth: { kind: 'bearer', access: 'write' },
    summary: 'Record a consent decision',
    description:
      'Against the published notice (another notice: 409 CONFLICT). consentGiven keys must be purposes of that notice version; purposes not listed count as not granted. A required purpose recorded as false is kept as decided (the record is still status "recorded") and listed in the record as requiredPurposesDeclined. ipAddress defaults to the caller\'s address; externalId defaults to the principal\'s latest record\'s. Extensions: language (default EN; must be a language the notice is shown in) and positionShown (default api).',
    tags,
    request: { body: recordBody },
    response: { status: 201, description: 'The record', data: recordResult },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
} as const satisfies Record<string, RouteDefinition>;

/** Group consent: the dashboard's reads of the records and the consent settings. */
export const consentRoutes = {
  getConsentSettings: {
    method: 'GET',
    path: '/api/v1/consent/settings',
    group: 'consent',
    auth: { kind: 'bearer', access: 'read' },
    summary: "The tenant's consent settings",
    description: 'Extension. requireVerifiedIdentity (default false) and publicWithdrawal (default IMMEDIATE); the defaults until a DPO or SUPER_ADMIN saves.',
    tags,
    response: { status: 200, description: 'The settings', data: consentSettingsView },
  },
  saveConsentSettings: {
    method: 'PUT',
    path: '/api/v1/consent/settings',
    group: 'consent',
    auth: { kind: 'bearer', access: 'write' },
    summary: "Change the tenant's consent settings",
    description:
      "Extension. Merges: a setting not sent keeps its value. publicWithdrawal applies from the next request on (withdraw-public reads it strongly consistent, uncached); requireVerifiedIdentity switched on applies at once in the instance that saved it and within INSTANCE_CACHE_SECONDS (10 s) in every other warm instance, which may remember the settings for that long (switched off: at once everywhere; docs/security.md, When a change applies). requireVerifiedIdentity: sdk-record then refuses anything not VERIFIED with 400 VALIDATION_ERROR: an unsigned identifierHash (naming identifierSignature) and a record without identifier, attributed to the IP (naming identifierHash and identifierSignature); turn it on only when every page that shows the notice identifies the visitor through its server. publicWithdrawal CONFIRM_BY_EMAIL: withdraw-public mails a single-use withdrawal link instead of withdrawing at once. The trade-off of IMMEDIATE (the spec's default): the API key is public, so anyone who knows a person's email can withdraw their consent, and the withdrawal is recorded as that: an unverified claim of the email (attribution PUBLIC_EMAIL_CLAIM, with the request's origin and IP hash). CONFIRM_BY_EMAIL is recommended: only the mailbox's owner can withdraw. Each value that changes is logged in the tenant's evidence log (a document consent.settings-changed: who, when, from, to), in the same transaction; GET /consent/settings/changes lists them. A change made at the same moment by someone else: retried, then 409 CONFLICT.",
    tags,
    request: { body: consentSettingsBody },
    response: { status: 200, description: 'The settings as saved', data: consentSettingsView },
    errors: ['CONFLICT'],
  },
  listConsentSettingsChanges: {
    method: 'GET',
    path: '/api/v1/consent/settings/changes',
    group: 'consent',
    auth: { kind: 'bearer', access: 'audit' },
    summary: "The logged changes of the tenant's consent settings",
    description:
      "Extension. Every change of a setting's value, newest first: when, by whom (user:<userId>), each changed setting from and to, and the SHA-256 of the logged document (its leaf in the tenant's evidence log, which GET /consent/proof-chain/verify re-reads and re-hashes). An audit read, like the notice audit trail.",
    tags,
    response: { status: 200, description: 'The changes, newest first', data: /* @__PURE__ */ z.array(consentSettingsChange) },
  },
  consentAnalytics: {
    method: 'GET',
    path: '/api/v1/consent/analytics',
    group: 'consent',
    auth: { kind: 'bearer', access: 'read' },
    summary: 'Consent totals, withdrawal rate and per-purpose counts',
    description: 'Read from counters kept on every write: a few reads whatever the number of records.',
    tags,
    response: { status: 200, description: 'Analytics', data: analyticsView },
  },
  listConsentRecords: {
    method: 'GET',
    path: '/api/v1/consent/records',
    group: 'consent',
    auth: { kind: 'bearer', access: 'read' },
    summary: 'Consent records, paginated',
    description:
      'total is exact (from counters). Sorting by withdrawnAt: only fully withdrawn records have one; the others follow them in descending order (precede them in ascending), partially withdrawn before active, each by creation time. Page N reads about N × limit records; nextCursor (extension) reads only the next page. A cursor is opaque and signed for the tenant and the listing (sortBy, sortOrder, status) that issued it; another tenant\'s, another listing\'s, a modified one or garbage is 400 VALIDATION_ERROR on cursor.',
    tags,
    request: { query: listRecordsQuery },
    response: { status: 200, description: 'One page', data: recordPage },
  },
  consentStatus: {
    method: 'GET',
    path: '/api/v1/consent/status/:hash',
    group: 'consent',
    auth: { kind: 'bearer', access: 'read' },
    summary: "A principal's consent state by identifier hash",
    description:
      ':hash is the SHA-256 hex of the identifier, trimmed, with emails lower-cased. Newest first; data[0] is the current state; an empty array means no consent on record. isWithdrawn is true only on full withdrawal: check isPartiallyWithdrawn too.',
    tags,
    request: { params: hashParams },
    response: { status: 200, description: 'Records, newest first', data: /* @__PURE__ */ z.array(statusItem) },
  },
  consentByExternalId: {
    method: 'GET',
    path: '/api/v1/consent/by-external-id/:externalId',
    group: 'consent',
    auth: { kind: 'bearer', access: 'read' },
    summary: "A principal's records by the tenant's own id",
    tags,
    request: { params: externalIdParams },
    response: { status: 200, description: 'Records, newest first; empty when none', data: /* @__PURE__ */ z.array(externalIdItem) },
  },
  consentProof: {
    method: 'GET',
    path: '/api/v1/consent/records/:id/proof',
    group: 'consent',
    auth: { kind: 'bearer', access: 'read' },
    summary: "A record's proof: canonical payload, hash and its place in the signed log",
    description:
      "Extension. proofHash is the SHA-256 hex of canonicalPayload, the RFC 8785 (JCS) form of the evidence: tenant, record id, notice id and version, the hash of the exact notice text shown in the language shown, principal hash, externalId, consentGiven, createdAt, IP, user agent, language and position (records of the hash-chain era, proofVersion 1, also hold their chain position and the previous record's proof hash; proofVersion 3 and 4 their attribution; proofVersion 4 a random salt of the record, which keys the hashes of its values once retention erases them and is erased with them). Anyone can recompute it with any JCS library. log places the record in the tenant's RFC 9162 Merkle log: its leaf index, an inclusion proof and the signed checkpoint it verifies against (PENDING for the few seconds before a checkpoint covers it). `node scripts/verify-receipt.mjs` checks a receipt against this response offline.",
    tags,
    request: { params: recordIdParams },
    response: { status: 200, description: 'The proof', data: proofView },
    errors: ['NOT_FOUND'],
  },
} as const satisfies Record<string, RouteDefinition>;
