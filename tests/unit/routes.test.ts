/** ROUTES names every endpoint of the contract once, and each declaration carries its name's method and path. */
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/shared/api/endpoints.ts';
import { ROUTES } from '../../src/shared/api/routes.ts';

describe('the named routes', () => {
  it('match the declarations one to one', () => {
    expect(Object.keys(ENDPOINTS).sort()).toEqual(Object.keys(ROUTES).sort());
    for (const [name, route] of Object.entries(ROUTES)) {
      const endpoint = ENDPOINTS[name as keyof typeof ENDPOINTS];
      expect({ method: endpoint.method, path: endpoint.path }, name).toEqual(route);
    }
  });

  it('give each method and path to one endpoint', () => {
    const pairs = Object.values(ROUTES).map((r) => `${r.method} ${r.path}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });
});
