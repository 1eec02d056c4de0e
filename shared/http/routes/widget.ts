import { edgeCacheControl, edgeCachePolicies } from '../edge-cache';
import type { RouteDefinition } from '../route';
import { widgetBootstrapQuery, widgetBootstrapView } from '../../widget/schemas';

const policy = edgeCachePolicies.widgetBootstrap;
const bound = policy.maxAgeSeconds;

/** The widget's one read per page view, cached at the edge: the consent-public function. */
export const widgetRoutes = {
  getWidgetBootstrap: {
    method: 'GET',
    path: '/api/v1/widget/bootstrap',
    group: 'consent-public',
    // Its key is the publishable key and the language, nothing else: no Origin reaches it, so no origin check (the answer is public: what the tenant publishes to every visitor).
    auth: { kind: 'apiKey', in: 'query', checkOrigin: false, secretKey: 'refused' },
    edgeCache: 'widgetBootstrap',
    summary: 'Everything the widget shows, for a tenant and language, in one edge-cached answer',
    description:
      `Extension: the widget's one request per page view, in place of GET /consent/public-notice and GET /cmp/config/:tenantId (which stay as they are). Served by the CDN with a cache key of apiKey and language only: no cookie, header or other query string reaches the function, and the answer holds nothing about the visitor. Cache-Control ${edgeCacheControl(policy, 200)} on every answer but a 429 or 5xx (no-store), a strong ETag (If-None-Match → 304): a publish, a cookie configuration change, a change of words or a key's revocation reaches every page within ${bound} s, and the widget refuses an answer whose Age is over ${bound} (a CDN serving a stale copy while its origin fails). The key is read fresh on every call (no instance cache). No origin check, unlike public-notice: no Origin reaches the function, and the answer is what the tenant shows every visitor. A secret key is refused (403 FORBIDDEN: URLs are logged); an unknown or revoked key is 401 UNAUTHORIZED, cached for at most the same ${bound} s. No rate limit: the CDN answers repeats, and the function sees at most one request per key, language and regional cache every ${bound} s.`,
    tags: ['SDK'],
    request: { query: widgetBootstrapQuery },
    response: {
      status: 200,
      description: 'The bootstrap',
      data: widgetBootstrapView,
      headers: { 'Cache-Control': edgeCacheControl(policy, 200), ETag: 'Strong validator of this body' },
      alternatives: { 304: 'Not modified: If-None-Match listed the current ETag' },
    },
  },
} as const satisfies Record<string, RouteDefinition>;
