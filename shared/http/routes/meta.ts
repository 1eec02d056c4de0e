import type { RouteDefinition } from '../route';

export const metaRoutes = {
  asyncApiDocument: {
    method: 'GET',
    path: '/api/v1/asyncapi.json',
    group: 'meta',
    auth: { kind: 'none' },
    summary: 'The webhook events as an AsyncAPI 3 document',
    tags: ['Meta'],
    response: { status: 200, description: 'AsyncAPI 3.0 document (served bare, without the data envelope)' },
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
