import Router from '@koa/router';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { authEndpoints as api, type ApiTokenDto } from '../../shared/api/index.ts';
import type { AppState } from '../../http/context.ts';
import type { CommandDeps } from '../../domain/command.ts';
import { runAs } from '../../http/command.ts';
import { HttpError } from '../../http/errors.ts';
import { isExhausted, spend, tooManyRequests } from '../../http/rate-limit.ts';
import { mount } from '../../http/route.ts';
import type { ApiToken } from './auth.entity.ts';
import { normalizeUsername } from './admins.service.ts';
import { createToken, listTokens, login, revokeToken } from './auth.service.ts';
import { endSession, SESSION_COOKIE, sessionTokenOf } from './identity.ts';

export interface AuthRouteDeps {
  commands: CommandDeps;
  loginLimits: { byIp: RateLimiterAbstract; byUsername: RateLimiterAbstract };
  /** Ends live sockets of a session that logged out. */
  onSessionEnded: (sessionHash: string) => void;
}

const INVALID = 'Invalid username or password';

function presentToken(t: ApiToken): ApiTokenDto {
  return {
    id: t.id,
    name: t.name,
    role: t.role,
    created_at: t.createdAt.toISOString(),
    last_used_at: t.lastUsedAt ? t.lastUsedAt.toISOString() : null,
  };
}

export function authRouter(deps: AuthRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  const { byIp, byUsername } = deps.loginLimits;

  mount(router, api.login)(async (ctx, { body }) => {
    const ipKey = ctx.ip || 'unknown';
    const userKey = normalizeUsername(body.username);
    const blocked = (await isExhausted(byIp, ipKey)) ?? (await isExhausted(byUsername, userKey));
    if (blocked) throw tooManyRequests(ctx, blocked, 'Too many failed logins; try again later');

    const session = await login(ctx.state.em, body.username, body.password);
    if (!session) {
      const over = (await spend(byIp, ipKey)) ?? (await spend(byUsername, userKey));
      if (over) throw tooManyRequests(ctx, over, 'Too many failed logins; try again later');
      throw new HttpError(401, INVALID); // never says which half was wrong
    }
    await byUsername.delete(userKey);
    const { token, expiresAt } = session;
    ctx.cookies.set(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: ctx.secure,
      expires: expiresAt,
      path: '/',
      overwrite: true,
    });
    return { authenticated: true, username: session.username, via: 'session', role: session.role };
  });

  mount(router, api.logout)(async (ctx) => {
    const token = sessionTokenOf(ctx.get('cookie'));
    if (token) {
      const hash = await endSession(ctx.state.em, token);
      if (hash) deps.onSessionEnded(hash);
    }
    ctx.cookies.set(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', secure: ctx.secure, expires: new Date(0), path: '/' });
    return { success: true };
  });

  mount(router, api.me)(async (ctx) => {
    const actor = await ctx.state.actor();
    return actor ? { authenticated: true, username: actor.username, via: actor.via, role: actor.role } : { authenticated: false };
  });

  mount(router, api.tokens)(async (ctx) => (await listTokens(ctx.state.em)).map(presentToken));

  mount(router, api.createToken)(async (ctx, { body }) => {
    const actor = await ctx.state.actor();
    const { token, secret } = await runAs(ctx, deps.commands, (tx, changes) => createToken(tx, changes, body, actor));
    ctx.status = 201;
    return { ...presentToken(token), token: secret };
  });

  mount(router, api.revokeToken)(async (ctx, { body }) => {
    await runAs(ctx, deps.commands, (tx, changes) => revokeToken(tx, changes, body.id));
    return { success: true };
  });

  return router;
}
