import { logServerEvent, publicConfig, recordWebEvent, visitorConsentStatus } from '../../shared/cmp/visits';
import { createGroupHandler } from '../../shared/http/handler';
import { cmpPublicRoutes } from '../../shared/http/routes/cmp-public';
import { created, ok } from '../../shared/http/operation';

/** The banner's cache rule: the spec's 5 minutes, revalidated by ETag. */
const cacheHeaders = (etag: string) => ({ 'Cache-Control': 'public, max-age=300', ETag: etag });

export const handler = createGroupHandler('cmp-public', cmpPublicRoutes, {
  getCmpPublicConfig: async ({ params, meta }) => {
    const config = await publicConfig(params.tenantId, meta.headers['if-none-match']);
    return config.notModified
      ? { status: 304, headers: cacheHeaders(config.etag), serialized: '' }
      : { headers: cacheHeaders(config.etag), serialized: config.body };
  },
  recordCmpWebEvent: async ({ body, meta }) => created(await recordWebEvent(body, meta)),
  getCmpConsentStatus: async ({ caller, query }) => ok(await visitorConsentStatus(caller.tenantId, query.visitorId)),
  logCmpServerEvent: async ({ caller, body }) => created(await logServerEvent(caller.tenantId, caller.keyId, body)),
});
