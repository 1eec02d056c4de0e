import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { bracedPath } from '../shared/http/route';
import { routeList } from '../shared/http/routes';
import { useApi } from './support/api';

const { call } = useApi();

describe('OpenAPI document', () => {
  it('is served, valid OpenAPI 3.1 by an independent validator, and lists every route', async () => {
    const response = await call('GET', '/api/v1/openapi.json');
    expect(response.status).toBe(200);
    const document = response.body;
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const route of routeList) {
      const operation = document.paths[bracedPath(route.path)]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation.operationId).toBe(route.operationId);
      expect(operation.responses[String(route.response.status)]).toBeDefined();
      expect(operation.responses['500']).toBeDefined();
    }
  });
});
