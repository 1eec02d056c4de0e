/**
 * Browser access policy, applied by API Gateway in AWS and by the local server. Origins are
 * open at this layer on purpose: which sites may use an API key is the origin allowlist's job
 * (auth/origin.ts), per key, which CORS cannot express.
 */
export const corsPolicy = {
  allowOrigins: ['*'],
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  allowHeaders: ['Content-Type', 'Authorization', 'X-API-Key', 'If-None-Match'],
  // Age: the widget refuses a bootstrap older than its edge policy allows (shared/http/edge-cache.ts).
  exposeHeaders: ['X-Request-Id', 'Retry-After', 'ETag', 'Age', 'X-Next-Cursor', 'X-Export-Records', 'X-Export-Total', 'Content-Disposition'],
  maxAgeSeconds: 86400,
} as const;
