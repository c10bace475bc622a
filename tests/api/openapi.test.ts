/**
 * GET /api/openapi.json: valid OpenAPI 3.1 (checked by a validator of the specification's own
 * schema), and complete — every route of the router, walked like the authorization matrix
 * does, is in it with its method, its parameters and, for writes, its request body.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../src/modules/auth/policy.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: unknown; parameters?: { name: string; in: string }[]; security?: unknown[] }>>;
};

let app: TestApp;
let doc: Doc;
beforeAll(async () => {
  app = await startTestApp();
  const res = await app.anonymous<Doc>('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(async () => app?.close());

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('lists every route of the router', () => {
    const routes = routeTable(app.app.api);
    expect(routes.length).toBeGreaterThan(30);
    const missing = routes.filter(({ method, path }) => !doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()]);
    expect(missing).toEqual([]);
  });

  it('describes bodies, path and query parameters, and who may call', () => {
    expect(doc.paths['/api/streams']!.post!.requestBody).toBeDefined();
    expect(doc.paths['/api/streams']!.post!.security).toBeDefined();
    expect(doc.paths['/api/scenes/{idOrSlug}']!.get!.parameters).toEqual([expect.objectContaining({ name: 'idOrSlug', in: 'path' })]);
    expect(doc.paths['/api/activity']!.get!.parameters!.map((p) => p.name)).toEqual(['kind', 'limit']);
    // Public operations say so with an empty requirement; admin ones name the session and the bearer token.
    expect(doc.paths['/api/discovery/submit']!.post!.security).toEqual([]);
    const access = new Map(routeTable(app.app.api).map((r) => [`${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`, r.access]));
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.security, `${method} ${path}`).toEqual(access.get(`${method} ${path}`) !== 'public' ? [{ session: [] }, { bearer: [] }] : []);
      }
    }
  });

  it('serves the reference page and its assets from our own origin', async () => {
    const page = await fetch(`${app.baseUrl}/api/docs`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('/api/docs/swagger-ui-bundle.js');
    expect(html).not.toMatch(/https?:\/\//); // no CDN
    expect(html).not.toMatch(/<script>[^<]/); // no inline script: the CSP allows ours only
    for (const asset of ['/api/docs/swagger-ui-bundle.js', '/api/docs/swagger-ui.css', '/api/docs/init.js']) {
      expect((await fetch(`${app.baseUrl}${asset}`)).status, asset).toBe(200);
    }
  });
});
