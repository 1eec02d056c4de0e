import * as z from 'zod/v4/core';
import { statusOfCode, type ErrorCode } from '../errors';
import { gatewayPayloadLimitBytes, maxJsonBodyBytes } from './body-limits';
import { bracedPath, type RouteDefinition } from './route';
import { routeList } from './routes';
import { currentRoleChecked, roles, rolesFor } from '../roles';
import { maxJsonDepth } from '../validation';

type JsonSchema = Record<string, unknown>;

const jsonSchema = (schema: z.$ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const errorEnvelope = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'Machine-readable error code' },
        message: { type: 'string' },
        fields: {
          type: 'object',
          additionalProperties: { type: 'string' },
          description: 'Only on VALIDATION_ERROR: field path (dotted for nested fields) to message',
        },
        details: {
          type: 'object',
          description:
            'Extension. On the withdrawal-link routes (GET /consent/portal/:token and POST …/withdraw): reason NOT_FOUND (with 404 NOT_FOUND), USED or EXPIRED (with 409 CONFLICT); for USED and EXPIRED also tenant { name, slug }, newLinkUrl (the tenant\'s public withdrawal page, or null without a configured portal) and usedAt or expiredAt, so the portal page can say what happened, whose link it was and where to get a new one. The data map and rights routes add the facts behind a refusal: ASSET_LINKED_TO_PUBLISHED_NOTICE (noticeId, purposeIds), PROCESSOR_HAS_LINKED_ASSETS (linkedAssets, assets), GONE (reason EXPIRED, confirmBy), CONFLICT of an erasure with pending assets (reason ASSETS_PENDING, pendingAssets)',
        },
      },
    },
  },
};

/** The errors a route can give by the way it is called, plus the ones it names itself. */
export const errorCodesOf = (route: RouteDefinition): ErrorCode[] => {
  const codes = new Set<ErrorCode>(route.errors ?? []);
  if (route.request?.body || route.request?.query || route.request?.params) codes.add('VALIDATION_ERROR');
  if (route.auth.kind === 'bearer') {
    ['UNAUTHORIZED', 'TOKEN_INVALID', 'RATE_LIMIT'].forEach((code) => codes.add(code as ErrorCode));
    if (rolesFor(route.auth.access).length < roles.length) codes.add('FORBIDDEN');
  }
  if (route.auth.kind === 'apiKey') {
    codes.add('UNAUTHORIZED');
    if (route.auth.checkOrigin) ['ORIGIN_NOT_ALLOWED', 'ORIGIN_MISSING'].forEach((code) => codes.add(code as ErrorCode));
    codes.add(route.auth.secretKey === 'accepted' ? 'ORIGIN_NOT_ALLOWED' : 'FORBIDDEN');
  }
  for (const limit of route.limits ?? []) codes.add(limit.code);
  codes.add('INTERNAL_ERROR');
  return [...codes];
};

const parametersOf = (schema: z.$ZodType | undefined, location: 'path' | 'query') => {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (object.required ?? []).includes(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
};

const securityOf = (route: RouteDefinition) => {
  switch (route.auth.kind) {
    case 'bearer':
      return [{ bearerAuth: [] }];
    case 'apiKey':
      return route.auth.in === 'header' ? [{ apiKeyHeader: [] }] : route.auth.in === 'query' ? [{ apiKeyQuery: [] }] : [];
    case 'none':
      return [];
  }
};

const operationOf = (route: (typeof routeList)[number]) => {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) byStatus.set(statusOfCode[code], [...(byStatus.get(statusOfCode[code]) ?? []), code]);
  const success = route.response.data
    ? { type: 'object', required: ['data'], properties: { data: jsonSchema(route.response.data, 'output') } }
    : { type: 'object' };
  const rolesLine =
    route.auth.kind === 'bearer'
      ? `${route.auth.narrowsSpec ? 'The spec allows any role here; this service narrows it (docs/security.md, Roles). ' : ''}${
          currentRoleChecked(route.auth.access) ? 'The role is checked against the team as it is now, not only the token: a user removed since the token was issued is 401 TOKEN_INVALID, a role lowered since is 403 FORBIDDEN. ' : ''
        }Roles: ${rolesFor(route.auth.access).join(', ')}.`
      : undefined;
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: [
      route.description,
      rolesLine,
      route.auth.kind === 'apiKey' && route.auth.in === 'body' ? 'The API key is sent as the body field `apiKey`.' : undefined,
      route.auth.kind === 'apiKey'
        ? route.auth.secretKey === 'accepted'
          ? 'Keys: publishable (origin allowlist) or secret (server-to-server; 403 ORIGIN_NOT_ALLOWED when an Origin header comes with it).'
          : 'Keys: publishable only (a secret key is 403 FORBIDDEN here: it would travel in the URL).'
        : undefined,
    ]
      .filter(Boolean)
      .join('\n\n'),
    tags: [...route.tags],
    security: securityOf(route),
    parameters: [...parametersOf(route.request?.params, 'path'), ...parametersOf(route.request?.query, 'query')],
    ...(route.request?.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.request.body, 'input') } } } }
      : {}),
    responses: {
      [String(route.response.status)]: {
        description: route.response.description,
        content: {
          ...(route.response.data || !route.response.media ? { 'application/json': { schema: success } } : {}),
          ...Object.fromEntries(Object.entries(route.response.media ?? {}).map(([type, description]) => [type, { schema: { type: 'string', description } }])),
        },
        ...(route.response.headers || route.noStore
          ? {
              headers: Object.fromEntries(
                Object.entries({ ...route.response.headers, ...(route.noStore ? { 'Cache-Control': 'no-store, on every answer of this route, errors included' } : {}) }).map(
                  ([name, description]) => [name, { description, schema: { type: 'string' } }],
                ),
              ),
            }
          : {}),
      },
      ...Object.fromEntries(Object.entries(route.response.alternatives ?? {}).map(([status, description]) => [status, { description }])),
      ...(route.request?.body || (route.auth.kind === 'apiKey' && route.auth.in === 'body')
        ? {
            '413': {
              description: `A body over ${gatewayPayloadLimitBytes} bytes, refused by the gateway before the route runs: API Gateway's own answer in AWS, PAYLOAD_TOO_LARGE in the envelope from the local server (an extension code)`,
            },
          }
        : {}),
      ...Object.fromEntries(
        [...byStatus].map(([status, codes]) => [
          String(status),
          {
            description: `Error codes: ${codes.join(', ')}`,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
          },
        ]),
      ),
    },
  };
};

let cached: Record<string, unknown> | undefined;

/** OpenAPI 3.1, generated from the route table and the same zod schemas that validate requests. */
export const openApiDocument = (): Record<string, unknown> => {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routeList) {
    const path = bracedPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route) };
  }
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Consent Management Service',
      version: '1.0.0',
      description:
        "Consent notices, consent records with proof, withdrawals, signed webhooks and cookie consent for India's DPDP Act. Every success body is `{ data }`, every error `{ error: { code, message, fields? } }`. " +
        `A JSON body over ${maxJsonBodyBytes} bytes, or nested deeper than ${maxJsonDepth} levels, is 400 VALIDATION_ERROR (field \`body\`, or the top-level field that nests too deep) before anything else looks at it.`,
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
      schemas: { ErrorEnvelope: errorEnvelope },
    },
  };
  return cached;
};
