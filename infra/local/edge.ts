import { brotliCompressSync, gzipSync } from 'node:zlib';
import { clock } from '../../shared/clock';
import { etagMatches } from '../../shared/etag';
import { edgeCacheKey, edgeCachePolicies, normalisedEncoding, type EdgeCacheName } from '../../shared/http/edge-cache';

/**
 * The local stand-in for CloudFront's cache in front of the API, beside the asset layer
 * (static.ts): a route the route table marks `edgeCache` is answered from an in-memory cache
 * keyed exactly as the stack's cache policy is (shared/http/edge-cache.ts), by the service's
 * injectable clock, so a test moves time instead of sleeping. What it copies of CloudFront:
 * - the origin gets the policy's query strings and nothing else of the viewer's request (no
 *   header, no cookie), plus If-None-Match when it revalidates a copy it holds;
 * - an answer is kept for its max-age, capped at the policy's (the cache policy's maximum TTL),
 *   unless its Cache-Control says no-store, private or no max-age; a 304 from the origin renews it;
 * - each encoding (Brotli, gzip, none) is a copy of its own, compressed here as CloudFront does
 *   for bodies of 1,000 bytes or more;
 * - a viewer's If-None-Match that lists the copy's ETag gets a 304 without a body;
 * - when the origin fails (5xx) while an expired copy is held, the copy is served stale, as
 *   CloudFront documents it does whatever the answer's Cache-Control said: its Age then grows
 *   past max-age, which is how the widget knows to refuse it.
 * X-Cache says which happened: Hit, RefreshHit (revalidated), Miss, or StaleHit (served stale).
 */
export interface OriginAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** What the origin is asked: the policy's query strings and, to revalidate, the held copy's ETag. */
export type EdgeOrigin = (request: { query: URLSearchParams; ifNoneMatch: string | undefined }) => Promise<OriginAnswer>;

export interface EdgeAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

interface Copy {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The origin's body as it came, for a test to read what is held. */
  text: string;
  etag: string | undefined;
  storedAt: number;
  maxAgeMs: number;
}

export interface EdgeStats {
  hits: number;
  misses: number;
  refreshHits: number;
  staleHits: number;
  /** Requests that reached the origin: each one a Lambda invocation in AWS. */
  originRequests: number;
  /** Bytes of the bodies viewers were sent (after compression), what CloudFront bills as data transfer out with the headers. */
  bodyBytes: number;
  /** Bytes of the headers viewers were sent, as HTTP/1.1 would frame them. */
  headerBytes: number;
}

const maxAgeOf = (cacheControl: string | undefined): number | undefined => {
  if (!cacheControl || /\b(no-store|private|no-cache)\b/i.test(cacheControl)) return undefined;
  const match = /\bs-maxage=(\d+)/i.exec(cacheControl) ?? /\bmax-age=(\d+)/i.exec(cacheControl);
  return match ? Number(match[1]) : undefined;
};

const compressibleMinBytes = 1000;

const encode = (body: string, encoding: 'br' | 'gzip' | 'identity'): Buffer => {
  const raw = Buffer.from(body, 'utf8');
  if (encoding === 'identity' || raw.length < compressibleMinBytes) return raw;
  return encoding === 'br' ? brotliCompressSync(raw) : gzipSync(raw);
};

const headerBytesOf = (statusCode: number, headers: Record<string, string>): number =>
  Buffer.byteLength(`HTTP/1.1 ${statusCode} \r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`);

export const createEdge = () => {
  const copies = new Map<string, Copy>();
  const stats: EdgeStats = { hits: 0, misses: 0, refreshHits: 0, staleHits: 0, originRequests: 0, bodyBytes: 0, headerBytes: 0 };

  const store = (key: string, answer: OriginAnswer, encoding: 'br' | 'gzip' | 'identity', now: number, capSeconds: number): Copy => {
    const maxAge = maxAgeOf(answer.headers['Cache-Control']);
    const body = encode(answer.body, encoding);
    const compressed = body.length !== Buffer.byteLength(answer.body);
    const copy: Copy = {
      statusCode: answer.statusCode,
      headers: { ...answer.headers, ...(compressed ? { 'Content-Encoding': encoding, Vary: 'Accept-Encoding' } : {}) },
      body,
      text: answer.body,
      etag: answer.headers.ETag,
      storedAt: now,
      maxAgeMs: Math.min(maxAge ?? 0, capSeconds) * 1000,
    };
    if (maxAge !== undefined && maxAge > 0) copies.set(key, copy);
    else copies.delete(key);
    return copy;
  };

  /** The copy after asking the origin: renewed by a 304, kept stale when the origin fails, else replaced. */
  const fetchCopy = async (key: string, copy: Copy | undefined, query: URLSearchParams, encoding: 'br' | 'gzip' | 'identity', now: number, origin: EdgeOrigin, name: EdgeCacheName) => {
    const policy = edgeCachePolicies[name];
    const forwarded = new URLSearchParams();
    for (const field of policy.queryStrings) for (const value of query.getAll(field)) forwarded.append(field, value);
    stats.originRequests += 1;
    const answer = await origin({ query: forwarded, ifNoneMatch: copy?.etag });
    if (copy && answer.statusCode === 304) {
      copy.storedAt = now;
      copy.headers = { ...copy.headers, 'Cache-Control': answer.headers['Cache-Control'] ?? copy.headers['Cache-Control']! };
      return { copy, outcome: 'RefreshHit' as const };
    }
    if (copy && answer.statusCode >= 500) return { copy, outcome: 'StaleHit' as const };
    return { copy: store(key, answer, encoding, now, policy.maxAgeSeconds), outcome: 'Miss' as const };
  };

  // Simultaneous requests for a key the edge must fetch wait for one origin request, as CloudFront collapses them.
  const inFlight = new Map<string, ReturnType<typeof fetchCopy>>();

  /** Answers a GET of an edge-cached route: from the copy while it is fresh, else from the origin, as CloudFront would. */
  const serve = async (name: EdgeCacheName, request: { path: string; query: URLSearchParams; acceptEncoding: string | undefined; ifNoneMatch: string | undefined }, origin: EdgeOrigin): Promise<EdgeAnswer> => {
    const policy = edgeCachePolicies[name];
    const key = edgeCacheKey(policy, request.path, request.query, request.acceptEncoding);
    const now = clock.now().getTime();
    const held = copies.get(key);
    let copy: Copy;
    let outcome: 'Hit' | 'RefreshHit' | 'Miss' | 'StaleHit';
    if (held && now - held.storedAt < held.maxAgeMs) {
      copy = held;
      outcome = 'Hit';
    } else {
      let fetching = inFlight.get(key);
      if (!fetching) {
        fetching = fetchCopy(key, held, request.query, normalisedEncoding(policy, request.acceptEncoding), now, origin, name).finally(() => inFlight.delete(key));
        inFlight.set(key, fetching);
      }
      ({ copy, outcome } = await fetching);
    }
    const counter = ({ Hit: 'hits', RefreshHit: 'refreshHits', Miss: 'misses', StaleHit: 'staleHits' } as const)[outcome];
    stats[counter] += 1;
    const ageSeconds = Math.max(0, Math.floor((now - copy.storedAt) / 1000));
    const headers = { ...copy.headers, ...(outcome === 'Miss' ? {} : { Age: String(ageSeconds) }), 'X-Cache': `${outcome} from local-edge` };
    const notModified = copy.statusCode === 200 && copy.etag !== undefined && etagMatches(request.ifNoneMatch, copy.etag);
    const answer = notModified
      ? { statusCode: 304, headers: Object.fromEntries(Object.entries(headers).filter(([name]) => !['Content-Type', 'Content-Encoding'].includes(name))), body: Buffer.alloc(0) }
      : { statusCode: copy.statusCode, headers, body: copy.body };
    stats.bodyBytes += answer.body.length;
    stats.headerBytes += headerBytesOf(answer.statusCode, answer.headers);
    return answer;
  };

  return {
    serve,
    stats,
    /** What is held now, by cache key: what a test asserts the key and the stored bodies are made of. */
    copies: () => new Map([...copies].map(([key, copy]) => [key, { statusCode: copy.statusCode, headers: copy.headers, text: copy.text }])),
    clear: () => copies.clear(),
  };
};

export type LocalEdge = ReturnType<typeof createEdge>;
