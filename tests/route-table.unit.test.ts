import { describe, expect, it } from 'vitest';
import { bracedPath, functionGroups, routeKeyOf } from '../shared/http/route';
import { routeList } from '../shared/http/routes';

describe('route table', () => {
  it('has no two routes with the same method and path', () => {
    const keys = routeList.map(routeKeyOf);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('uses only parameter names that survive the API Gateway form', () => {
    for (const route of routeList) {
      const names = route.path.match(/:[^/]+/g) ?? [];
      for (const name of names) expect(name, route.path).toMatch(/^:[A-Za-z][A-Za-z0-9]*$/);
      expect(bracedPath(route.path)).not.toContain(':');
    }
  });

  it('serves every function group and puts every path under /api/v1', () => {
    expect(new Set(routeList.map((route) => route.group))).toEqual(new Set(functionGroups));
    for (const route of routeList) expect(route.path.startsWith('/api/v1/')).toBe(true);
  });
});
