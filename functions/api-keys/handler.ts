import {
  addDomain,
  createApiKey,
  listApiKeys,
  listDomains,
  removeDomain,
  revokeApiKey,
} from '../../shared/api-keys/service';
import { createGroupHandler } from '../../shared/http/handler';
import { apiKeyRoutes } from '../../shared/http/routes/api-keys';
import { created, ok } from '../../shared/http/operation';

export const handler = createGroupHandler('api-keys', apiKeyRoutes, {
  createApiKey: async ({ caller, body }) => created(await createApiKey(caller.tenantId, body.kind)),
  listApiKeys: async ({ caller }) => ok(await listApiKeys(caller.tenantId)),
  revokeApiKey: async ({ caller, params }) => ok(await revokeApiKey(caller.tenantId, params.keyId)),
  listDomains: async ({ caller, params }) => ok(await listDomains(caller.tenantId, params.keyId)),
  addDomain: async ({ caller, params, body }) => created(await addDomain(caller.tenantId, params.keyId, body.domain)),
  removeDomain: async ({ caller, params }) => ok(await removeDomain(caller.tenantId, params.keyId, params.domainId)),
});
