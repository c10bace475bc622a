/**
 * The team over the real API: an admin invites, the person sets their own password with the
 * one-time link and signs in with the role they were given; links that expired, were used or
 * were never issued are refused with a sentence; disabling ends sessions and live console
 * sockets; a role change reaches the open console at once; the last admin stays; bad input is a
 * 400 with the reason; every change is in the activity log with who did it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AccountLink } from '../../src/modules/auth/auth.entity.ts';
import { createAdmin } from '../../src/modules/auth/admins.service.ts';
import type { AccountDto, IssuedLinkDto, MeDto } from '../../src/shared/api/index.ts';
import { refusal } from '../../src/shared/roles.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { screenPool } from '../support/screens.ts';
import { ADMIN, login, withAdmin } from './support.ts';

let app: TestApp;
const screens = screenPool();
const PASSWORD = 'my very own password';

beforeAll(async () => {
  app = await startTestApp({ hub: true });
  await withAdmin(app);
});
afterEach(() => screens.closeAll());
afterAll(async () => app?.close());

async function adminCookie(): Promise<string> {
  return (await login(app)).cookie;
}

async function invite(username: string, role: string) {
  return app.anonymous<{ account: AccountDto; link: IssuedLinkDto; error?: string }>('POST', '/api/team/invitations', { username, role }, { headers: { cookie: await adminCookie() } });
}

async function accept(token: string, password = PASSWORD) {
  return app.anonymous<{ username?: string; error?: string }>('POST', '/api/team/links/accept', { token, password });
}

describe('an invitation', () => {
  it('invite → the link names the person → they set a password → they sign in with their role', async () => {
    const invited = await invite('Olivia', 'operator');
    expect(invited.status).toBe(201);
    expect(invited.body.account).toMatchObject({ username: 'olivia', role: 'operator', status: 'invited', invited_by: ADMIN.username, pending_link: { purpose: 'invite' } });
    const { token, expires_at } = invited.body.link;
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    // Only the hash is stored.
    const stored = await app.orm.em.fork().find(AccountLink, { user: invited.body.account.id });
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toContain(token);

    // Not yet: no password, no sign-in.
    expect((await login(app, { username: 'olivia', password: PASSWORD })).res.status).toBe(401);

    const info = await app.anonymous('POST', '/api/team/links/inspect', { token });
    expect(info.body).toEqual({ username: 'olivia', role: 'operator', purpose: 'invite', expires_at });
    const accepted = await accept(token);
    expect(accepted.body).toEqual({ username: 'olivia' });
    // Setting the password signs the person in: the answer carries their session.
    const welcomed = /nw_session=[^;]+/.exec(accepted.headers.get('set-cookie') ?? '')?.[0] ?? '';
    expect(welcomed).not.toBe('');
    expect((await app.anonymous<MeDto>('GET', '/api/auth/me', undefined, { headers: { cookie: welcomed } })).body).toEqual({ authenticated: true, username: 'olivia', via: 'session', role: 'operator' });

    const { res, cookie } = await login(app, { username: 'olivia', password: PASSWORD });
    expect(res.status).toBe(200);
    expect((await app.anonymous<MeDto>('GET', '/api/auth/me', undefined, { headers: { cookie } })).body).toEqual({ authenticated: true, username: 'olivia', via: 'session', role: 'operator' });
    // An operator switches scenes but does not delete streams: a 403 that names the role needed.
    const denied = await app.anonymous<{ error: string }>('DELETE', '/api/streams', { id: 1 }, { headers: { cookie } });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe(refusal('curator', 'operator'));
    expect(denied.body.error).toBe('This needs the curator role or higher; you are an operator.');

    const team = await app.anonymous<AccountDto[]>('GET', '/api/team', undefined, { headers: { cookie: await adminCookie() } });
    expect(team.body.find((a) => a.username === 'olivia')).toMatchObject({ status: 'active', pending_link: null });
    expect(team.body.find((a) => a.username === 'olivia')!.last_login_at).not.toBeNull();

    // Who did what: the admin invited, Olivia joined.
    const activity = await app.request<{ actor: string; action: string; subject_name: string | null }[]>('GET', '/api/activity?kind=account');
    expect(activity.body.map((a) => [a.actor, a.action, a.subject_name])).toEqual(
      expect.arrayContaining([
        [ADMIN.username, 'account.invited', 'olivia'],
        ['olivia', 'account.joined', 'olivia'],
      ]),
    );
  });

  it('refuses a used, an expired and a forged link with a sentence, and changes nothing', async () => {
    const { body } = await invite('pete', 'viewer');
    expect((await accept(body.link.token)).status).toBe(200);
    const reused = await accept(body.link.token, 'another long password');
    expect(reused.status).toBe(400);
    expect(reused.body.error).toMatch(/^token: This link has already been used/);
    expect((await login(app, { username: 'pete', password: PASSWORD })).res.status).toBe(200);

    const late = await invite('quinn', 'viewer');
    await app.orm.em.fork().nativeUpdate(AccountLink, { user: late.body.account.id }, { expiresAt: new Date(Date.now() - 1000) });
    const expired = await accept(late.body.link.token);
    expect(expired.status).toBe(400);
    expect(expired.body.error).toMatch(/^token: This link has expired/);
    expect((await login(app, { username: 'quinn', password: PASSWORD })).res.status).toBe(401);

    for (const forged of ['A'.repeat(43), `${late.body.link.token.slice(0, -2)}xx`]) {
      const res = await accept(forged);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^token: This link is not valid/);
    }
    const malformed = await accept('../../etc/passwd');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatch(/^token: This link is not valid/);
  });

  it('refuses an unknown role, a taken name and a weak password with the reason', async () => {
    const unknownRole = await invite('rita', 'owner');
    expect(unknownRole.status).toBe(400);
    expect(unknownRole.body.error).toMatch(/role: Use one of viewer, operator, curator, admin/);
    await invite('sam', 'viewer');
    const taken = await invite('SAM', 'curator');
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('username: sam is already taken');
    const badName = await invite('sam smith', 'viewer');
    expect(badName.status).toBe(400);
    expect(badName.body.error).toMatch(/^username: Use 1-64 letters/);

    const { body } = await invite('tess', 'viewer');
    const weak = await accept(body.link.token, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.error).toBe('password: Use at least 12 characters');
    // A weak password does not spend the link.
    expect((await accept(body.link.token)).status).toBe(200);
  });
});

describe('changing an account', () => {
  async function member(username: string, role: 'viewer' | 'operator' | 'curator' | 'admin') {
    const user = await createAdmin(app.orm.em.fork(), username, PASSWORD, role);
    return { id: user.id, cookie: (await login(app, { username, password: PASSWORD })).cookie };
  }
  const update = async (body: Record<string, unknown>) => app.anonymous<AccountDto & { error?: string }>('PUT', '/api/team', body, { headers: { cookie: await adminCookie() } });

  it('a role change takes effect on the next request and tells the open console at once', async () => {
    const ursula = await member('ursula', 'curator');
    const consoleSocket = screens.open(app.baseUrl, { kind: 'admin' }, { cookie: ursula.cookie });
    await consoleSocket.waitFor((s) => s?.kind === 'admin');
    let told = 0;
    consoleSocket.client.socket.on('account:changed', () => told++);
    expect((await app.anonymous('POST', '/api/scenes', { name: 'Ursula scene' }, { headers: { cookie: ursula.cookie } })).status).toBe(201);

    expect((await update({ id: ursula.id, role: 'viewer' })).body).toMatchObject({ role: 'viewer', status: 'active' });
    await expect.poll(() => told).toBe(1);
    const refused = await app.anonymous<{ error: string }>('POST', '/api/scenes', { name: 'Not any more' }, { headers: { cookie: ursula.cookie } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('This needs the curator role or higher; you are a viewer.');
    // Still a viewer: the console keeps its socket and its pushes.
    expect(consoleSocket.client.socket.connected).toBe(true);
  });

  it('disabling ends the sessions and the live console sockets; enabling lets them sign in again', async () => {
    const victor = await member('victor', 'operator');
    const consoleSocket = screens.open(app.baseUrl, { kind: 'admin' }, { cookie: victor.cookie });
    await consoleSocket.waitFor((s) => s?.kind === 'admin');
    expect((await update({ id: victor.id, disabled: true })).body).toMatchObject({ status: 'disabled' });
    await expect.poll(() => consoleSocket.client.socket.connected).toBe(false);
    expect((await app.anonymous('GET', '/api/screens', undefined, { headers: { cookie: victor.cookie } })).status).toBe(401);
    expect((await login(app, { username: 'victor', password: PASSWORD })).res.status).toBe(401);
    // Connecting again is refused too.
    consoleSocket.client.socket.connect();
    await expect.poll(() => consoleSocket.errors).toContain('Authentication required');

    expect((await update({ id: victor.id, disabled: false })).body).toMatchObject({ status: 'active' });
    expect((await login(app, { username: 'victor', password: PASSWORD })).res.status).toBe(200);
  });

  it('keeps the last admin: neither demoted nor disabled, and nobody disables themself', async () => {
    const team = await app.anonymous<AccountDto[]>('GET', '/api/team', undefined, { headers: { cookie: await adminCookie() } });
    const admins = team.body.filter((a) => a.role === 'admin' && a.status === 'active');
    expect(admins.map((a) => a.username)).toEqual([ADMIN.username]);
    const me = admins[0]!;
    const demote = await update({ id: me.id, role: 'curator' });
    expect(demote.status).toBe(409);
    expect(demote.body.error).toBe(`${ADMIN.username} is the last admin: make someone else an admin first`);
    const disable = await update({ id: me.id, disabled: true });
    expect(disable.status).toBe(409);

    const wendy = await member('wendy', 'admin');
    const self = await app.anonymous<{ error: string }>('PUT', '/api/team', { id: wendy.id, disabled: true }, { headers: { cookie: wendy.cookie } });
    expect(self.status).toBe(400);
    expect(self.body.error).toBe('disabled: You cannot disable your own account');
    // With a second admin, the first may step down.
    expect((await update({ id: wendy.id, role: 'admin' })).status).toBe(200);
    const stepDown = await app.anonymous<AccountDto>('PUT', '/api/team', { id: me.id, role: 'curator' }, { headers: { cookie: wendy.cookie } });
    expect(stepDown.body.role).toBe('curator');
    await app.anonymous('PUT', '/api/team', { id: me.id, role: 'admin' }, { headers: { cookie: wendy.cookie } });
  });

  it('a reset link replaces the password, ends the old sessions, and stops older links', async () => {
    const xena = await member('xena', 'curator');
    const first = await app.anonymous<IssuedLinkDto>('POST', '/api/team/links', { id: xena.id }, { headers: { cookie: await adminCookie() } });
    const second = await app.anonymous<IssuedLinkDto>('POST', '/api/team/links', { id: xena.id }, { headers: { cookie: await adminCookie() } });
    expect(second.status).toBe(201);
    expect(second.body.purpose).toBe('reset');
    expect((await accept(first.body.token, 'a brand new password')).body.error).toMatch(/already been used/);
    expect((await accept(second.body.token, 'a brand new password')).status).toBe(200);
    expect((await app.anonymous('GET', '/api/screens', undefined, { headers: { cookie: xena.cookie } })).status).toBe(401);
    expect((await login(app, { username: 'xena', password: 'a brand new password' })).res.status).toBe(200);
  });
});

describe('one-time links are rate-limited per IP', () => {
  it('answers 429 with Retry-After after 30 tries in 15 minutes', async () => {
    const fresh = await startTestApp();
    try {
      let last: Response | undefined;
      for (let i = 0; i < 31; i++) {
        const res = await fetch(`${fresh.baseUrl}/api/team/links/inspect`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'B'.repeat(43) }) });
        last = res;
        if (i < 30) expect(res.status).toBe(400);
      }
      expect(last!.status).toBe(429);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });
});
