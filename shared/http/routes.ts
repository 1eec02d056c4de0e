import { z } from 'zod';
import {
  addDomainBody,
  allowedDomain,
  createdApiKey,
  domainParams,
  keyIdParams,
  maskedApiKey,
} from '../api-keys/schemas';
import { loginBody, loginResponse, refreshBody, refreshResponse } from '../auth/schemas';
import { adminRoles } from '../roles';
import type { RouteDefinition, RouteLimit } from './route';

const sdkLimits = [
  { limit: 'sdkPerKey', per: 'key', code: 'SDK_RATE_LIMIT' },
  { limit: 'sdkPerKeyIp', per: 'keyIp', code: 'SDK_RATE_LIMIT' },
] as const satisfies readonly RouteLimit[];

/**
 * The route table: the one description of the HTTP interface. The CDK stack makes an API Gateway
 * route and picks the Lambda from `group`; the local server dispatches with it; the OpenAPI
 * document is generated from it; each group's handler validates and authorises by it.
 */
export const routes = {
  login: {
    method: 'POST',
    path: '/api/v1/auth/login',
    group: 'auth',
    auth: { kind: 'none' },
    limits: [{ limit: 'loginPerIp', per: 'ip', code: 'RATE_LIMIT' }],
    summary: 'Log in with email and password',
    description:
      'Returns a 15-minute access token and a refresh token. An unknown email and a wrong password give the same 401 UNAUTHORIZED in the same time.',
    tags: ['Authentication'],
    request: { body: loginBody },
    response: { status: 200, description: 'Tokens', data: loginResponse },
    errors: ['UNAUTHORIZED', 'RATE_LIMIT'],
  },
  refresh: {
    method: 'POST',
    path: '/api/v1/auth/refresh',
    group: 'auth',
    auth: { kind: 'none' },
    limits: [{ limit: 'loginPerIp', per: 'ip', code: 'RATE_LIMIT' }],
    summary: 'Exchange a refresh token for a new access token',
    description:
      'Refresh tokens rotate: the response carries a new refresh token and the presented one is spent. Presenting a spent refresh token again revokes every token of that login (401 UNAUTHORIZED). Refresh tokens live 30 days.',
    tags: ['Authentication'],
    request: { body: refreshBody },
    response: { status: 200, description: 'New tokens', data: refreshResponse },
    errors: ['UNAUTHORIZED', 'RATE_LIMIT'],
  },
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
  verifySdkKey: {
    method: 'GET',
    path: '/api/v1/sdk/verify',
    group: 'consent-public',
    auth: { kind: 'apiKey', in: 'query', checkOrigin: true },
    limits: sdkLimits,
    summary: 'Check an API key and the calling origin',
    description:
      'Lets an integrator confirm, from the page that will embed the widget, that the key is valid and the page origin is allowed. Same key, origin and rate-limit rules as the other SDK endpoints.',
    tags: ['SDK'],
    request: { query: z.object({ apiKey: z.string().max(200) }) },
    response: { status: 200, description: 'The key is usable here', data: z.object({ valid: z.literal(true), keyId: z.uuid() }) },
  },
  openApiDocument: {
    method: 'GET',
    path: '/api/v1/openapi.json',
    group: 'meta',
    auth: { kind: 'none' },
    summary: 'This OpenAPI document',
    tags: ['Meta'],
    response: { status: 200, description: 'OpenAPI 3.1 document (served bare, without the data envelope)' },
  },
} as const satisfies Record<string, RouteDefinition>;

export type Routes = typeof routes;
export type OperationId = keyof Routes;

export const routeList = (Object.keys(routes) as OperationId[]).map((operationId) => ({
  operationId,
  ...(routes[operationId] as RouteDefinition),
}));
