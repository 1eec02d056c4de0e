import { consentStatusQuery, consentStatusView, publicConfigParams, publicConfigView, serverEventBody, serverEventView, webEventBody, webEventResult } from '../../cmp/visitor-schemas';
import type { RouteDefinition } from '../route';

const tags = ['Cookie consent'];
const visitorGated =
  'Needs a saved configuration (PUT /cmp/config): until then, and always on a collect-only plan, 404 CMP_NOT_CONFIGURED.';

/** The cookie banner's visitor-facing routes and the tenant servers' per-visitor calls: the cmp-public function. */
export const cmpPublicRoutes = {
  getCmpPublicConfig: {
    method: 'GET',
    path: '/api/v1/cmp/config/:tenantId',
    group: 'cmp-public',
    auth: { kind: 'none' },
    summary: "The tenant's cookie banner: configuration, trackers and labels",
    description:
      "Public, for the widget. One read of a document precomputed at every change. Cache-Control public, max-age=300 and a strong ETag; a request whose If-None-Match lists the current ETag gets 304 with no body. labelSets are the widget's part of the tenant's words (GET /words): en always (its English, the built-in English unless edited), and each other language with the words principals are shown in it (reviewed, or machine drafts when the tenant chose to show them: PUT /words/settings), over the service's built-in words in each language the banner offers (languages) unless the tenant chose ENGLISH; status BUILT_IN for a language with none of the tenant's words; a key a language lacks is read in English. A change of the tenant's words or of the banner's languages that changes these is a new revision (the built-in words as of that change: a new release's reach a configuration with its next change). 404 CMP_NOT_CONFIGURED until the first PUT /cmp/config, and always for a collect-only tenant.",
    tags,
    request: { params: publicConfigParams },
    response: {
      status: 200,
      description: 'The configuration',
      data: publicConfigView,
      headers: { 'Cache-Control': 'public, max-age=300', ETag: 'Strong validator of this body' },
      alternatives: { 304: 'Not modified: If-None-Match listed the current ETag' },
    },
    errors: ['CMP_NOT_CONFIGURED'],
  },
  recordCmpWebEvent: {
    method: 'POST',
    path: '/api/v1/cmp/web-event',
    group: 'cmp-public',
    auth: { kind: 'none' },
    limits: [{ limit: 'webEventPerTenantIp', per: 'tenantIp', code: 'CMP_RATE_LIMIT' }],
    summary: "Record a visitor's cookie decision",
    description: `From the widget. consentRecordId is the visitor id kept in the visitor's cookie: send it when the browser has one; without it a new id is generated and returned. Category keys are upper-cased. Each event is written to the append-only ConsentAuditLog (channel WEB_COOKIE) with IP address, user agent and the configuration revision live at that moment, and becomes the visitor's latest state (a withdrawal turns every category but NECESSARY off). 60 per minute per (tenantId, IP): 429 CMP_RATE_LIMIT with Retry-After. ${visitorGated}`,
    tags,
    request: { body: webEventBody },
    response: { status: 201, description: 'Recorded', data: webEventResult },
    errors: ['CMP_NOT_CONFIGURED', 'CMP_RATE_LIMIT'],
  },
  getCmpConsentStatus: {
    method: 'GET',
    path: '/api/v1/cmp/consent-status',
    group: 'cmp-public',
    auth: { kind: 'apiKey', in: 'header', checkOrigin: false, secretKey: 'accepted' },
    limits: [{ limit: 'consentStatusPerKey', per: 'key', code: 'SDK_RATE_LIMIT' }],
    summary: "A visitor's current cookie consent, for the tenant's servers",
    description: `Server to server, key in X-API-Key. One BatchGet of the visitor's latest state and the tenant's small cookie settings item (reconsentDays read fresh on every call). found false means no decision on record, or the last one is older than reconsentDays (the banner asks again): treat every category but NECESSARY as false. NECESSARY is always true. withdrawn is true when the last event was COOKIE_CONSENT_WITHDRAWN. 600 per minute per key: 429 SDK_RATE_LIMIT with Retry-After. ${visitorGated}`,
    tags,
    request: { query: consentStatusQuery },
    response: { status: 200, description: 'The state', data: consentStatusView },
    errors: ['CMP_NOT_CONFIGURED', 'SDK_RATE_LIMIT'],
  },
  logCmpServerEvent: {
    method: 'POST',
    path: '/api/v1/cmp/server-event-log',
    group: 'cmp-public',
    auth: { kind: 'apiKey', in: 'header', checkOrigin: false, secretKey: 'accepted' },
    limits: [{ limit: 'serverEventPerKey', per: 'key', code: 'SDK_RATE_LIMIT' }],
    summary: 'Log that a server-side tracker fired or was suppressed',
    description: `Server to server, key in X-API-Key. The entry is appended to the visitor's audit log with what the visitor's state allowed at that moment; firedWithoutConsent marks a tracker that fired while its category was not allowed. Extension: 3,000 per minute per key (RATE_LIMIT_CMP_SERVER_EVENT_PER_MINUTE), 429 SDK_RATE_LIMIT. ${visitorGated}`,
    tags,
    request: { body: serverEventBody },
    response: { status: 201, description: 'The stored entry', data: serverEventView },
    errors: ['CMP_NOT_CONFIGURED', 'SDK_RATE_LIMIT'],
  },
} as const satisfies Record<string, RouteDefinition>;
