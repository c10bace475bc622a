/**
 * Walks every route of the API router — taken from the router itself, each with the access its
 * endpoint declares, so a new route cannot be forgotten — and checks who gets in: anonymous callers get 401 on admin routes and never 401
 * on public ones; an admin cookie and a bearer token get in; a cross-site cookie write is 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../src/modules/auth/policy.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { adminHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { login, withAdmin } from './support.ts';

let app: TestApp;
beforeAll(async () => {
  // With the job queue (not worked here): routes that queue or read jobs answer as in production.
  app = await startTestApp({ jobs: { enabled: false } });
  await seed(app.orm.em.fork(), { demo: true, logger: createLogger('silent') });
  await withAdmin(app);
});
afterAll(async () => app?.close());

/** A concrete URL for a route pattern; writes get an empty body (a 400 at worst, no side effects). */
const concrete = (pattern: string) => pattern.replace(':idOrSlug', 'default').replace(':id', '1');
const bodyFor = (method: string) => (method === 'GET' ? undefined : {});

describe('authorization matrix', () => {
  it('knows every route of the router, and each has a policy', () => {
    const routes = routeTable(app.app.api);
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes.filter((r) => !r.access)).toEqual([]);
  });

  it('anonymous: 401 on admin routes, never 401 (nor 5xx) on public ones', async () => {
    for (const { method, path, access } of routeTable(app.app.api)) {
      const res = await app.anonymous<{ error?: string }>(method, concrete(path), bodyFor(method));
      const label = `${method} ${path} -> ${res.status}`;
      if (access === 'admin') {
        expect(res.status, label).toBe(401);
        expect(res.body, label).toEqual({ error: 'Authentication required' });
      } else {
        expect(res.status, label).not.toBe(401);
        expect(res.status, label).toBeLessThan(500);
      }
    }
  });

  it('admin session cookie: allowed everywhere (2xx/4xx, never 401/403)', async () => {
    for (const { method, path } of routeTable(app.app.api)) {
      const { cookie } = await login(app); // fresh each time: the route may be logout
      const res = await app.anonymous(method, concrete(path), bodyFor(method), { headers: { cookie } });
      const label = `${method} ${path} -> ${res.status}`;
      expect([401, 403], label).not.toContain(res.status);
      expect(res.status, label).toBeLessThan(500);
    }
  });

  it('bearer token: allowed everywhere', async () => {
    for (const { method, path } of routeTable(app.app.api)) {
      const res = await app.anonymous(method, concrete(path), bodyFor(method), { headers: adminHeaders });
      const label = `${method} ${path} -> ${res.status}`;
      expect([401, 403], label).not.toContain(res.status);
      expect(res.status, label).toBeLessThan(500);
    }
  });

  it('a cross-site cookie write is refused with 403, by Sec-Fetch-Site or by Origin', async () => {
    const { cookie } = await login(app);
    const writes = routeTable(app.app.api).filter((r) => r.method !== 'GET');
    expect(writes.length).toBeGreaterThan(5);
    for (const { method, path } of writes) {
      for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }] as Record<string, string>[]) {
        const res = await app.anonymous<{ error?: string }>(method, concrete(path), {}, { headers: { cookie, ...headers } });
        expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.body).toEqual({ error: 'Cross-site request refused' });
      }
    }
    // same-origin browsers pass
    const ok = await app.anonymous('POST', '/api/scenes', { name: 'Same origin' }, {
      headers: { cookie, origin: app.baseUrl, 'sec-fetch-site': 'same-origin' },
    });
    expect(ok.status).toBe(201);
  });
});
