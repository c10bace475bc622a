/**
 * Walks every route of the API router — taken from the router itself, each with the least role
 * its endpoint declares, so a new route cannot be forgotten — and every socket registration, for
 * every caller: anonymous, a signed-in account of each role, an API token of each role and
 * ADMIN_API_TOKEN. What the declaration allows is never 401/403 (nor 5xx); what it refuses is
 * 401 for nobody and 403 with the sentence naming the role for someone below it. A cross-site
 * cookie write is 403 whoever sends it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable, SOCKET_POLICY } from '../../src/modules/auth/policy.ts';
import { createAdmin } from '../../src/modules/auth/admins.service.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { refusal, roleAtLeast, ROLES, type Role } from '../../src/shared/roles.ts';
import type { Access } from '../../src/shared/api/contract.ts';
import { adminHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { openScreen } from '../support/screens.ts';
import { login, withAdmin } from './support.ts';

let app: TestApp;
const PASSWORD = 'a long enough password for tests';

interface Caller {
  name: string;
  role: Role | null;
  /** `fresh`: a session of its own (the route may be the logout, which ends it). */
  headers: (fresh?: boolean) => Promise<Record<string, string>>;
}
const callers: Caller[] = [];

beforeAll(async () => {
  // With the job queue (not worked here): routes that queue or read jobs answer as in production.
  app = await startTestApp({ jobs: { enabled: false }, hub: true });
  await seed(app.orm.em.fork(), { demo: true, logger: createLogger('silent') });
  await withAdmin(app);
  callers.push({ name: 'anonymous', role: null, headers: async () => ({}) });
  for (const role of ROLES) {
    const username = `matrix-${role}`;
    await createAdmin(app.orm.em.fork(), username, PASSWORD, role);
    const signIn = async () => ({ cookie: (await login(app, { username, password: PASSWORD })).cookie });
    const session = await signIn();
    callers.push({ name: `${role} session`, role, headers: async (fresh) => (fresh ? signIn() : session) });
    const token = await app.request<{ token: string; role: Role }>('POST', '/api/auth/tokens', { name: `matrix ${role}`, role });
    expect(token.status).toBe(201);
    expect(token.body.role).toBe(role);
    callers.push({ name: `${role} token`, role, headers: async () => ({ authorization: `Bearer ${token.body.token}` }) });
  }
  callers.push({ name: 'ADMIN_API_TOKEN', role: 'admin', headers: async () => adminHeaders });
}, 60_000);
afterAll(async () => app?.close());

/** A concrete URL for a route pattern; writes get an empty body (a 400 at worst, no side effects). */
const concrete = (pattern: string) => pattern.replace(':idOrSlug', 'default').replace(':id', '1');
const bodyFor = (method: string) => (method === 'GET' ? undefined : {});
const allows = (access: Access, role: Role | null) => access === 'public' || (role !== null && roleAtLeast(role, access));

describe('authorization matrix', () => {
  it('knows every route of the router, and each declares who may call it', () => {
    const routes = routeTable(app.app.api);
    expect(routes.length).toBeGreaterThanOrEqual(60);
    expect(routes.filter((r) => !r.access)).toEqual([]);
    // Every role is the least one of some route: the declaration is really graded.
    expect(new Set(routes.map((r) => r.access))).toEqual(new Set(['public', ...ROLES]));
  });

  it('every route, for every caller: allowed → never 401/403 nor 5xx; refused → 401 for nobody, 403 naming the role', async () => {
    let checked = 0;
    for (const caller of callers) {
      for (const { method, path, access } of routeTable(app.app.api)) {
        const res = await app.anonymous<{ error?: string }>(method, concrete(path), bodyFor(method), { headers: await caller.headers(path.endsWith('/auth/logout')) });
        const label = `${caller.name}: ${method} ${path} (${access}) -> ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`;
        expect(res.status, label).toBeLessThan(500);
        if (allows(access!, caller.role)) {
          expect([401, 403], label).not.toContain(res.status);
        } else if (caller.role === null) {
          expect(res.status, label).toBe(401);
          expect(res.body, label).toEqual({ error: 'Authentication required' });
        } else {
          expect(res.status, label).toBe(403);
          expect(res.body, label).toEqual({ error: refusal(access as Role, caller.role) });
        }
        checked++;
      }
    }
    expect(checked).toBe(callers.length * routeTable(app.app.api).length);
  }, 240_000);

  it('every socket registration, for every caller: the console room needs an account, screens are public', async () => {
    for (const caller of callers) {
      for (const [kind, access] of Object.entries(SOCKET_POLICY) as [keyof typeof SOCKET_POLICY, Access][]) {
        const registration = kind === 'kiosk' ? { kind, position: 1 } : { kind };
        const headers = await caller.headers();
        const screen = openScreen(app.baseUrl, registration as Parameters<typeof openScreen>[1], Object.keys(headers).length > 0 ? headers : undefined);
        const label = `${caller.name}: register ${kind} (${access})`;
        try {
          if (allows(access, caller.role)) {
            await screen.waitFor((s) => s?.kind === kind).catch((error: Error) => Promise.reject(new Error(`${label}: ${error.message}`)));
          } else {
            await expect.poll(() => screen.errors, { message: label }).toEqual([caller.role === null ? 'Authentication required' : refusal(access as Role, caller.role)]);
            expect(screen.state, label).toBeNull();
          }
        } finally {
          screen.close();
        }
      }
    }
  }, 120_000);

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
