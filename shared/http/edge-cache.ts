/**
 * What the edge may cache, as data: the one definition that the CDK stack makes CloudFront's
 * cache and origin request policies from (infra/web.ts) and that the local server's edge keys its
 * cache by (infra/local/edge.ts). A route names its policy in the route table (`edgeCache`); every
 * other route passes the edge uncached.
 */
export interface EdgeCachePolicy {
  /**
   * The query strings the cache key holds, and the only part of the request the origin receives:
   * no header (no Cookie, no Authorization, no Origin) and no cookie, so an answer can depend on
   * nothing about the visitor.
   */
  queryStrings: readonly string[];
  /**
   * How long after the origin made an answer any cache may serve it: the propagation bound of
   * every change it carries, and of a key's revocation. No stale-while-revalidate and no
   * stale-if-error: either would let a cache serve an answer past the bound (docs/widget.md).
   */
  maxAgeSeconds: number;
  /** The edge compresses (gzip, Brotli) and keeps one copy per encoding: the normalised Accept-Encoding is the only other part of the key. */
  compress: boolean;
}

/** The widget bootstrap's bound, which the widget also applies to what it is sent (web/widget/src/bootstrap.ts). */
export const widgetBootstrapMaxAgeSeconds = 60;

export const edgeCachePolicies = {
  /** GET /widget/bootstrap: per tenant (its publishable key names it) and language. */
  widgetBootstrap: { queryStrings: ['apiKey', 'language'], maxAgeSeconds: widgetBootstrapMaxAgeSeconds, compress: true },
} as const satisfies Record<string, EdgeCachePolicy>;

export type EdgeCacheName = keyof typeof edgeCachePolicies;

/**
 * Cache-Control of an edge-cached route's answer with this status. Successes and the client
 * errors its key decides (an unknown or revoked key, a language that is no code) are shared for
 * the bound; a rate limit or a failure is nobody's to keep. `must-revalidate` forbids serving it
 * stale to a cache that honours it; CloudFront does not when its origin fails, which the widget
 * covers by refusing an answer older than the bound (its Age).
 */
export const edgeCacheControl = (policy: EdgeCachePolicy, status: number): string =>
  status < 500 && status !== 429 ? `public, max-age=${policy.maxAgeSeconds}, must-revalidate` : 'no-store';

/** The representation a viewer gets for its Accept-Encoding, as CloudFront normalises it when compression is on. */
export const normalisedEncoding = (policy: EdgeCachePolicy, acceptEncoding: string | undefined): 'br' | 'gzip' | 'identity' => {
  if (!policy.compress || !acceptEncoding) return 'identity';
  const accepted = acceptEncoding.split(',').map((part) => part.trim().split(';')[0]!.toLowerCase());
  return accepted.includes('br') ? 'br' : accepted.includes('gzip') ? 'gzip' : 'identity';
};

/** The cache key of a request: its path, the policy's query strings (every value, in order) and the encoding. Nothing else of the request is read. */
export const edgeCacheKey = (policy: EdgeCachePolicy, path: string, query: URLSearchParams, acceptEncoding: string | undefined): string =>
  JSON.stringify([path, ...policy.queryStrings.map((name) => query.getAll(name)), normalisedEncoding(policy, acceptEncoding)]);
