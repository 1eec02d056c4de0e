import * as z from 'zod/mini';
import type { RouteDefinition } from '../route';
import { sdkRecordBody, sdkRecordResult, sdkWithdrawBody, withdrawalResult } from '../../consent/schemas';
import { publicNoticeView } from '../../notices/schemas';
import { sdkLimits } from './limits';

export const sdkRoutes = {
  sdkRecord: {
    method: 'POST',
    path: '/api/v1/consent/sdk-record',
    group: 'consent-public',
    auth: { kind: 'apiKey', in: 'body', checkOrigin: true, secretKey: 'accepted' },
    limits: sdkLimits,
    summary: 'Record a consent decision from the widget or a server',
    description:
      "Principal: identifierHash (64 lower-case hex) is used as is; otherwise identifier is hashed by the service (SHA-256, trimmed, emails lower-cased); with neither, the client IP is hashed as the attribution. identifier is server-to-server only: with a publishable key it is 400 VALIDATION_ERROR on identifier (anyone can read that key off a page). Attribution (extension, in the record's evidence, proof format 3, and its receipt as att): VERIFIED when a secret key sent identifier or identifierHash (a secret key must send one of them: 400 otherwise) or when identifierSignature (the tenant server's lower-case hex HMAC-SHA256 of `<identifierHash>.<identifierSignedAt>`, keyed with a live secret key as issued) verifies and identifierSignedAt (integer Unix seconds, kept in the evidence) is within 15 minutes of the service's clock either way; an identifierSignature that does not verify, is stale or comes without identifierSignedAt is 400 on identifierSignature (identifierSignedAt without a signature: 400 on identifierSignedAt); CLAIMED for an unsigned identifierHash; IP without identifier. With the tenant's setting requireVerifiedIdentity, CLAIMED and IP records are 400 VALIDATION_ERROR naming identifierSignature (and identifierHash when absent). The answer carries withdrawalKey (extension), the only credential POST /consent/sdk-withdraw accepts, returned only here. noticeId defaults to the published notice. Counts against the tenant's monthly consent volume: 429 MONTHLY_LIMIT_REACHED until the 1st of next month (UTC), with Retry-After.",
    tags: ['SDK'],
    request: { body: sdkRecordBody },
    response: { status: 201, description: 'The record', data: sdkRecordResult },
    errors: ['NOT_FOUND', 'CONFLICT', 'MONTHLY_LIMIT_REACHED'],
  },
  sdkWithdraw: {
    method: 'POST',
    path: '/api/v1/consent/sdk-withdraw',
    group: 'consent-public',
    auth: { kind: 'apiKey', in: 'body', checkOrigin: true, secretKey: 'accepted' },
    limits: sdkLimits,
    summary: 'Withdraw a consent from the widget',
    description:
      "Extension: the spec has no widget withdrawal. Authorised by the API key plus proof of possession of the record: its consentRecordId and the withdrawalKey sdk-record returned to the browser with it (a secret no other route, receipt, event or screen shows; the proof hash, printed in the records list and every receipt, is no credential). A wrong key is the same 404 NOT_FOUND as an unknown record (compared in constant time), and so is a record without a key (made before withdrawal keys, or in the dashboard): the widget then sends the person to the withdrawal page. Omitting purposeIds withdraws every purpose; a purpose the record never granted is 400 on purposeIds. Writes an immutable WithdrawalRecord and a ComplianceTask due in 7 days, updates the record and emits consent.withdrawn with withdrawalMethod WIDGET; a DPO mail is sent. Exactly one withdrawal per decision: of simultaneous identical calls one withdraws, the others get 409 CONFLICT, as does a call when the consent is already fully withdrawn.",
    tags: ['SDK'],
    request: { body: sdkWithdrawBody },
    response: { status: 200, description: 'The withdrawal', data: withdrawalResult },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  getPublicNotice: {
    method: 'GET',
    path: '/api/v1/consent/public-notice',
    group: 'consent-public',
    auth: { kind: 'apiKey', in: 'query', checkOrigin: true, secretKey: 'refused' },
    limits: sdkLimits,
    summary: "The tenant's published notice, for the widget",
    description:
      'One read of a document precomputed at publish. description is the notice introText, privacyPolicyUrl its contactUrl; purposes are in display order; translations hold only languages with real translations (not NEEDS_TRANSLATION placeholders). Extensions for the widget: rightsText (and translated rightsText and complaintText), versionNumber, and the material baseline materialVersion and materialNoticeId, which a wording-only publish inherits and a material change (a purpose added or removed, data categories or legal basis changed) resets; a widget asks again only when materialNoticeId differs from the one consented to. 404 NOT_FOUND while nothing is published.',
    tags: ['SDK'],
    request: { query: z.object({ apiKey: z.string().check(z.maxLength(200)) }) },
    response: { status: 200, description: 'The public notice', data: publicNoticeView },
    errors: ['NOT_FOUND'],
  },
  verifySdkKey: {
    method: 'GET',
    path: '/api/v1/sdk/verify',
    group: 'consent-public',
    auth: { kind: 'apiKey', in: 'query', checkOrigin: true, secretKey: 'refused' },
    limits: sdkLimits,
    summary: 'Check an API key and the calling origin',
    description:
      'Lets an integrator confirm, from the page that will embed the widget, that the key is valid and the page origin is allowed. Same key, origin and rate-limit rules as the other SDK endpoints.',
    tags: ['SDK'],
    request: { query: z.object({ apiKey: z.string().check(z.maxLength(200)) }) },
    response: { status: 200, description: 'The key is usable here', data: z.object({ valid: z.literal(true), keyId: z.uuid() }) },
  },
} as const satisfies Record<string, RouteDefinition>;
