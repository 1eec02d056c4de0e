import type { RouteDefinition } from '../route';

export const metaRoutes = {
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
