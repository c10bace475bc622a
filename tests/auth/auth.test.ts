import { Writable } from 'node:stream';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeDto } from '../../src/shared/api/index.ts';
import { AlertRule } from '../../src/modules/alerts/alerts.entity.ts';
import { gather } from '../../src/modules/alerts/alerts.rules.ts';
import { AdminSession, AdminUser } from '../../src/modules/auth/auth.entity.ts';
import { ensureInitialAdmin } from '../../src/modules/auth/admins.service.ts';
import { verifyPassword } from '../../src/modules/auth/passwords.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { openScreen } from '../support/screens.ts';
import { ADMIN, login, withAdmin } from './support.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ hub: true });
  await seed(app.orm.em.fork(), { demo: true, logger: createLogger('silent') });
  await withAdmin(app);
});
afterAll(async () => app?.close());

describe('login', () => {
  it('sets an HttpOnly, SameSite=Strict session cookie that identifies the admin', async () => {
    const { res, cookie, setCookie } = await login(app);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ authenticated: true, username: ADMIN.username, via: 'session', role: 'admin' });
    expect(setCookie).toMatch(/httponly/i);
    expect(setCookie).toMatch(/samesite=strict/i);
    expect(setCookie).toMatch(/path=\//i);
    expect(setCookie).not.toMatch(/secure/i); // plain HTTP here; Secure behind HTTPS (see TRUST_PROXY test)
    expect(cookie.length).toBeGreaterThan('nw_session='.length + 40); // >= 256 random bits, base64url
    const me = await app.anonymous<MeDto>('GET', '/api/auth/me', undefined, { headers: { cookie } });
    expect(me.body).toEqual({ authenticated: true, username: ADMIN.username, via: 'session', role: 'admin' });
    const write = await app.anonymous('POST', '/api/scenes', { name: 'Made with a cookie' }, { headers: { cookie } });
    expect(write.status).toBe(201);
  });

  it('stores only a hash of the session token', async () => {
    const { cookie } = await login(app);
    const token = cookie.split('=')[1]!;
    const rows = await app.orm.em.fork().find(AdminSession, {});
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.tokenHash))).toBe(true);
  });

  it('refuses a wrong password and an unknown user with the same answer', async () => {
    const wrong = await app.anonymous('POST', '/api/auth/login', { username: ADMIN.username, password: 'not the password' });
    const unknown = await app.anonymous('POST', '/api/auth/login', { username: 'nobody', password: ADMIN.password });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Invalid username or password' });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('validates the body', async () => {
    const res = await app.anonymous<{ error: string }>('POST', '/api/auth/login', { username: '' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^username: /);
  });

  it('stores Argon2id hashes with OWASP parameters', async () => {
    const admin = await app.orm.em.fork().findOneOrFail(AdminUser, { username: ADMIN.username });
    expect(admin.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(admin.passwordHash!, ADMIN.password)).toBe(true);
  });
});

describe('login rate limits', () => {
  it('an address that keeps failing for one username waits, even with the right password', async () => {
    const other = await startTestApp();
    try {
      await withAdmin(other);
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 12; i++) {
        const res = await other.anonymous<{ error: string }>('POST', '/api/auth/login', { username: ADMIN.username, password: `wrong-${i}` });
        statuses.push(res.status);
        retryAfter ??= res.headers.get('retry-after');
      }
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      const refused = await other.anonymous<{ error: string }>('POST', '/api/auth/login', ADMIN);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('Too many failed sign-ins from this address; try again later');
    } finally {
      await other.close();
    }
  });

  it('no stranger can lock an account: another address signs in; a username failing everywhere is slowed for unknown browsers, never for one that signed in before', async () => {
    const venue = await startTestApp({ appOptions: { trustProxy: true, metricsToken: 'metrics-token-0123456789' } });
    try {
      await withAdmin(venue);
      const from = (ip: string, credentials: { username: string; password: string }, cookie?: string) =>
        venue.anonymous<{ error?: string; authenticated?: boolean }>('POST', '/api/auth/login', credentials, { headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) } });
      const wrong = { username: ADMIN.username, password: 'not the password' };
      // Counters are the process's (other apps of this file count too): what this test adds is compared.
      const counters = async () => {
        const text = await (await fetch(`${venue.baseUrl}/metrics`, { headers: { authorization: 'Bearer metrics-token-0123456789' } })).text();
        const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
        return {
          failures: value('nw_login_failures_total'),
          failing: value('nw_login_usernames_failing_total'),
          slowed: value('nw_login_refused_total{limit="username_slowed"}'),
          own: value('nw_login_refused_total{limit="address_username"}'),
        };
      };
      const before = await counters();
      // The admin's own browser has signed in before: it holds a device cookie.
      const first = await from('198.51.100.1', ADMIN);
      expect(first.status).toBe(200);
      const device = /nw_device=[^;]+/.exec(first.headers.get('set-cookie') ?? '')?.[0];
      expect(device).toBeDefined();
      expect(first.headers.get('set-cookie')).toMatch(/nw_device=[^;]+;.*httponly/i);

      // One address fails until it is refused; the real admin, elsewhere, is not.
      for (let i = 0; i < 10; i++) expect((await from('203.0.113.7', wrong)).status).toBe(401);
      const stopped = await from('203.0.113.7', wrong);
      expect(stopped.status).toBe(429);
      expect((await from('203.0.113.7', ADMIN)).status).toBe(429); // the refused address waits
      expect((await from('203.0.113.9', ADMIN)).status).toBe(200);

      // Now the username fails from many addresses at once (20 in the window: 10 above, 10 here).
      for (let i = 0; i < 10; i++) expect((await from(`192.0.2.${i + 1}`, wrong)).status).toBe(401);
      // An unknown browser may still try, one at a time: the first gets through, the next waits a few seconds.
      expect((await from('192.0.2.100', ADMIN)).status).toBe(200);
      const slowed = await from('192.0.2.101', ADMIN);
      expect(slowed.status).toBe(429);
      expect(slowed.body.error).toMatch(/^Many failed sign-ins for this account from elsewhere/);
      expect(Number(slowed.headers.get('retry-after'))).toBeLessThanOrEqual(10);
      // The browser that signed in before is never slowed or refused for the others' failures.
      for (let i = 0; i < 3; i++) expect((await from('198.51.100.1', ADMIN, device)).status).toBe(200);
      // ...even from the refused address (its own failures count against it alone).
      expect((await from('203.0.113.7', ADMIN, device)).status).toBe(200);
      // A hostile name beside a device cookie is refused for what it is, never looked up.
      for (const username of ['a\u0000b', 'x'.repeat(300), 'admin\ud800']) {
        const hostile = await from('198.51.100.1', { username, password: ADMIN.password }, device);
        expect(hostile.status, JSON.stringify(username)).toBe(400);
      }
      // A device cookie for another account is just an unknown browser.
      await venue.orm.em.fork().execute(`insert into admin_users (username, password_hash, role) select 'other', password_hash, 'admin' from admin_users where username = ?`, [ADMIN.username]);
      expect((await from('198.51.100.1', { username: 'other', password: ADMIN.password }, device)).status).toBe(200);

      // The alert rule sees the account failing from many addresses (from any node: a database row).
      const rules = await venue.orm.em.fork().find(AlertRule, { kind: 'login_failures' });
      expect(rules).toHaveLength(1);
      const watched = await gather(venue.orm.em.fork(), rules, { listScreens: async () => ({ screens: [], partial: false }), onScreens: async () => new Set(), backupStaleness: async () => ({ stale: false, newestAt: null, periodMs: null }), now: () => Date.now() });
      expect(watched.conditions.map((c) => [c.subject, c.title])).toEqual([[`login:${ADMIN.username}`, `Sign-ins to "${ADMIN.username}" are failing from many addresses`]]);
      const after = await counters();
      expect({ failures: after.failures - before.failures, failing: after.failing - before.failing, slowed: after.slowed - before.slowed, own: after.own - before.own }).toEqual({ failures: 23, failing: 1, slowed: 1, own: 2 }); // 20 wrong passwords and the 3 hostile names
    } finally {
      await venue.close();
    }
  }, 60_000); // about forty Argon2 checks

  it('limits failures per client IP across usernames, using X-Forwarded-For only with TRUST_PROXY', async () => {
    const proxied = await startTestApp({ appOptions: { trustProxy: true } });
    try {
      await withAdmin(proxied);
      const attempt = (ip: string, username: string) =>
        proxied.anonymous('POST', '/api/auth/login', { username, password: 'wrong password!' }, { headers: { 'x-forwarded-for': ip } });
      for (let i = 0; i < 20; i++) expect((await attempt('203.0.113.7', `user${i}`)).status).toBe(401);
      expect((await attempt('203.0.113.7', 'another')).status).toBe(429);
      expect((await attempt('203.0.113.8', 'another')).status).toBe(401); // a different client is not blocked
    } finally {
      await proxied.close();
    }
  });

  it('ignores X-Forwarded-For without TRUST_PROXY (a client cannot pick its own IP)', async () => {
    const direct = await startTestApp();
    try {
      const attempt = (i: number) =>
        direct.anonymous('POST', '/api/auth/login', { username: `user${i}`, password: 'wrong password!' }, { headers: { 'x-forwarded-for': `198.51.100.${i}` } });
      for (let i = 0; i < 20; i++) expect((await attempt(i)).status).toBe(401);
      expect((await attempt(99)).status).toBe(429);
    } finally {
      await direct.close();
    }
  });
});

describe('sessions end', () => {
  it('logout invalidates the session and clears the cookie', async () => {
    const { cookie } = await login(app);
    const out = await app.anonymous('POST', '/api/auth/logout', undefined, { headers: { cookie } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/nw_session=;.*expires=Thu, 01 Jan 1970/i);
    expect((await app.anonymous<MeDto>('GET', '/api/auth/me', undefined, { headers: { cookie } })).body).toEqual({ authenticated: false });
    expect((await app.anonymous('POST', '/api/scenes', { name: 'After logout' }, { headers: { cookie } })).status).toBe(401);
  });

  it('an expired session is refused with 401', async () => {
    const { cookie } = await login(app);
    await app.orm.em.fork().nativeUpdate(AdminSession, {}, { expiresAt: new Date(Date.now() - 1000) });
    const res = await app.anonymous('PUT', '/api/streams', { id: 1, name: 'x' }, { headers: { cookie } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Authentication required' });
  });
});

describe('API tokens', () => {
  it('ADMIN_API_TOKEN and console-made tokens work as Bearer; revoked tokens stop working', async () => {
    const created = await app.request<{ id: number; token: string; name: string }>('POST', '/api/auth/tokens', { name: 'CI deploy' });
    expect(created.status).toBe(201);
    const bearer = { authorization: `Bearer ${created.body.token}` };
    expect((await app.anonymous<MeDto>('GET', '/api/auth/me', undefined, { headers: bearer })).body).toEqual({
      authenticated: true, username: 'token:CI deploy', via: 'token', role: 'admin',
    });
    expect((await app.anonymous('GET', '/api/screens', undefined, { headers: bearer })).status).toBe(200);
    const list = await app.request<{ id: number; token?: string; last_used_at: string | null }[]>('GET', '/api/auth/tokens');
    const listed = list.body.find((t) => t.id === created.body.id)!;
    expect(listed.token).toBeUndefined(); // the secret is shown once
    expect(listed.last_used_at).not.toBeNull();
    expect((await app.request('DELETE', '/api/auth/tokens', { id: created.body.id })).status).toBe(200);
    expect((await app.anonymous('GET', '/api/screens', undefined, { headers: bearer })).status).toBe(401);
  });

  it('a wrong bearer token is not an admin', async () => {
    const res = await app.anonymous('GET', '/api/screens', undefined, { headers: { authorization: 'Bearer not-a-real-token-at-all' } });
    expect(res.status).toBe(401);
  });
});

describe('what anonymous callers may see', () => {
  it('reads active streams and scenes only', async () => {
    const hidden = await app.request<{ id: number }>('POST', '/api/streams', { name: 'Hidden cam', url: 'https://example.org/hidden.m3u8', active: false });
    const streams = await app.anonymous<{ id: number; active: boolean }[]>('GET', '/api/streams');
    expect(streams.status).toBe(200);
    expect(streams.body.length).toBeGreaterThan(0);
    expect(streams.body.every((s) => s.active)).toBe(true);
    expect((await app.anonymous('GET', '/api/streams?active=false')).body).toEqual([]);
    expect((await app.anonymous('GET', `/api/streams/${hidden.body.id}`)).status).toBe(404);
    expect((await app.request('GET', `/api/streams/${hidden.body.id}`)).status).toBe(200);
    const scenes = await app.anonymous<{ active: boolean }[]>('GET', '/api/scenes');
    expect(scenes.body.every((s) => s.active)).toBe(true);
  });
});

describe('sockets', () => {
  it('refuses admin registration without credentials, accepts a session cookie or a token', async () => {
    const anonymous = openScreen(app.baseUrl, { kind: 'admin' });
    await expect.poll(() => anonymous.errors).toEqual(['Authentication required']);
    expect(anonymous.state).toBeNull();
    anonymous.close();

    const { cookie } = await login(app);
    const withCookie = openScreen(app.baseUrl, { kind: 'admin' }, { cookie });
    await withCookie.waitFor((s) => s?.kind === 'admin');

    const viaToken = openScreen(app.baseUrl, { kind: 'admin' }, { authorization: 'Bearer test-admin-token-0123456789abcdef' });
    await viaToken.waitFor((s) => s?.kind === 'admin');
    viaToken.close();

    // Logging out ends that session's live admin sockets too.
    await app.anonymous('POST', '/api/auth/logout', undefined, { headers: { cookie } });
    await expect.poll(() => withCookie.client.socket.connected).toBe(false);
    withCookie.close();
  });

  it('keeps screens public', async () => {
    const wall = openScreen(app.baseUrl, { kind: 'wall' });
    await wall.waitFor((s) => s?.kind === 'wall');
    wall.close();
  });
});

describe('security headers', () => {
  it('sends a Content-Security-Policy on HTML pages and API answers', async () => {
    const webDist = await mkdtemp(path.join(os.tmpdir(), 'nw-web-'));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><html lang="en"><title>x</title></html>');
    const web = await startTestApp({ appOptions: { webDist } });
    try {
      const page = await fetch(`${web.baseUrl}/scenes/anything`);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toMatch(/frame-src https:\/\/www\.youtube\.com .*https:\/\/player\.twitch\.tv/);
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await fetch(`${web.baseUrl}/api/scenes`)).headers.get('content-security-policy')).toBe(csp);
    } finally {
      await web.close();
    }
  });
});

describe('the first admin', () => {
  const sink = () => {
    const lines: string[] = [];
    return { lines, logger: createLogger('info', new Writable({ write: (c: Buffer, _e, done) => (lines.push(c.toString()), done()) })) };
  };

  it('is generated with a strong password, printed once, when none exists and none is configured', async () => {
    const fresh = await startTestApp();
    try {
      const { lines, logger } = sink();
      await ensureInitialAdmin(fresh.orm.em.fork(), { username: 'admin', password: undefined, logger });
      const printed = /password (\S{20,})/.exec(lines.join(''))?.[1];
      expect(printed).toBeDefined();
      expect((await login(fresh, { username: 'admin', password: printed! })).res.status).toBe(200);
      await ensureInitialAdmin(fresh.orm.em.fork(), { username: 'admin', password: undefined, logger });
      expect(lines.join('').match(/password \S{20,}/g)).toHaveLength(1); // not printed again
    } finally {
      await fresh.close();
    }
  });

  it('takes ADMIN_PASSWORD, and a changed ADMIN_PASSWORD resets it and ends its sessions', async () => {
    const fresh = await startTestApp();
    try {
      const { logger } = sink();
      await ensureInitialAdmin(fresh.orm.em.fork(), { username: 'Boss', password: 'first password 123', logger });
      const first = await login(fresh, { username: 'boss', password: 'first password 123' });
      expect(first.res.status).toBe(200);
      await ensureInitialAdmin(fresh.orm.em.fork(), { username: 'boss', password: 'second password 456', logger });
      expect((await fresh.anonymous<MeDto>('GET', '/api/auth/me', undefined, { headers: { cookie: first.cookie } })).body).toEqual({ authenticated: false });
      expect((await login(fresh, { username: 'boss', password: 'second password 456' })).res.status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});
