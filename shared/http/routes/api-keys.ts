import * as z from 'zod';
import { addDomainBody, allowedDomain, createdApiKey, domainParams, keyIdParams, maskedApiKey } from '../../api-keys/schemas';
import { adminRoles } from '../../roles';
import type { RouteDefinition } from '../route';

export const apiKeyRoutes = {
  createApiKey: {
    method: 'POST',
    path: '/api/v1/api-keys',
    group: 'api-keys',
    auth: { kind: 'bearer', roles: adminRoles },
    summary: 'Create an API key',
    description: 'The key string is returned only in this response; it is stored hashed.',
    tags: ['API keys'],
    response: { status: 201, description: 'The new key', data: createdApiKey },
  },
  listApiKeys: {
    method: 'GET',
    path: '/api/v1/api-keys',
    group: 'api-keys',
    auth: { kind: 'bearer' },
    summary: "List the tenant's API keys, masked",
    tags: ['API keys'],
    response: { status: 200, description: 'Keys, newest first', data: z.array(maskedApiKey) },
  },
  revokeApiKey: {
    method: 'DELETE',
    path: '/api/v1/api-keys/:keyId',
    group: 'api-keys',
    auth: { kind: 'bearer', roles: adminRoles },
    summary: 'Revoke an API key',
    description: 'A revoked key is refused with 401 UNAUTHORIZED from the next request on. Revoking twice is harmless.',
    tags: ['API keys'],
    request: { params: keyIdParams },
    response: { status: 200, description: 'The revoked key', data: maskedApiKey },
    errors: ['NOT_FOUND'],
  },
  listDomains: {
    method: 'GET',
    path: '/api/v1/api-keys/:keyId/domains',
    group: 'api-keys',
    auth: { kind: 'bearer' },
    summary: "List an API key's allowed domains",
    tags: ['API keys'],
    request: { params: keyIdParams },
    response: { status: 200, description: 'Allowed domains', data: z.array(allowedDomain) },
    errors: ['NOT_FOUND'],
  },
  addDomain: {
    method: 'POST',
    path: '/api/v1/api-keys/:keyId/domains',
    group: 'api-keys',
    auth: { kind: 'bearer', roles: adminRoles },
    summary: 'Allow a domain for an API key',
    description:
      'A hostname without scheme, port or path, stored lower-case. Once a key has one domain, browser calls with that key must come from a registered host (localhost and 127.0.0.1 are always allowed).',
    tags: ['API keys'],
    request: { params: keyIdParams, body: addDomainBody },
    response: { status: 201, description: 'The added domain', data: allowedDomain },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  removeDomain: {
    method: 'DELETE',
    path: '/api/v1/api-keys/:keyId/domains/:domainId',
    group: 'api-keys',
    auth: { kind: 'bearer', roles: adminRoles },
    summary: 'Remove an allowed domain',
    tags: ['API keys'],
    request: { params: domainParams },
    response: { status: 200, description: 'The removed domain', data: allowedDomain },
    errors: ['NOT_FOUND'],
  },
} as const satisfies Record<string, RouteDefinition>;
