import Router from '@koa/router';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { authEndpoints as api, type ApiTokenDto } from '../../shared/api/index.ts';
import type { AppState } from '../../http/context.ts';
import { runAs, type CommandDeps } from '../../domain/command.ts';
import { HttpError, toHttpError } from '../../http/errors.ts';
import { forgive, isExhausted, spend, tooManyRequests } from '../../http/rate-limit.ts';
import { mount } from '../../http/route.ts';
import type { ApiToken } from './auth.entity.ts';
import { normalizeUsername } from './admins.service.ts';
import { createToken, listTokens, login, revokeToken } from './auth.service.ts';
import { endSession, sessionTokenOf, setSessionCookie } from './identity.ts';

export interface AuthRouteDeps {
  commands: CommandDeps;
  loginLimits: { byIp: RateLimiterAbstract; byUsername: RateLimiterAbstract };
  /** Ends live sockets of a session that logged out. */
  onSessionEnded: (sessionHash: string) => void;
}

const INVALID = 'Invalid username or password';
const TOO_MANY = 'Too many failed logins; try again later';

/** The username a refused sign-in named, as its limiter key; null when it named none. */
function usernameKeyOf(body: unknown): string | null {
  const username = typeof body === 'object' && body !== null ? (body as { username?: unknown }).username : undefined;
  return typeof username === 'string' && username.trim() !== '' ? normalizeUsername(username.slice(0, 256)) : null;
}

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

  // Every refused sign-in counts toward the failed-login limits, whatever refused it: a wrong
  // password, a username that breaks the text rule, a body that is not JSON. The limiter keys
  // are hashes (storedKey), so no byte a client sends reaches their store.
  router.use(api.login.path, async (ctx, next) => {
    const ipKey = ctx.ip || 'unknown';
    const blocked = await isExhausted(byIp, ipKey);
    if (blocked) throw tooManyRequests(ctx, blocked, TOO_MANY);
    try {
      await next();
    } catch (error) {
      const status = toHttpError(error)?.status;
      if (status === 400 || status === 401 || status === 413 || status === 415) {
        const userKey = usernameKeyOf(ctx.request.body);
        const over = (await spend(byIp, ipKey)) ?? (userKey === null ? null : await spend(byUsername, userKey));
        if (over) throw tooManyRequests(ctx, over, TOO_MANY);
      }
      throw error;
    }
  });

  mount(router, api.login)(async (ctx, { body }) => {
    const userKey = normalizeUsername(body.username);
    const blocked = await isExhausted(byUsername, userKey);
    if (blocked) throw tooManyRequests(ctx, blocked, TOO_MANY);

    const session = await login(ctx.state.em, body.username, body.password);
    if (!session) throw new HttpError(401, INVALID); // never says which half was wrong; counted above
    await forgive(byUsername, userKey);
    setSessionCookie(ctx, session);
    return { authenticated: true, username: session.username, via: 'session', role: session.role };
  });

  mount(router, api.logout)(async (ctx) => {
    const token = sessionTokenOf(ctx.get('cookie'));
    if (token) {
      const hash = await endSession(ctx.state.em, token);
      if (hash) deps.onSessionEnded(hash);
    }
    setSessionCookie(ctx, null);
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
    return { ...presentToken(token), token: secret };
  });

  mount(router, api.revokeToken)(async (ctx, { body }) => {
    await runAs(ctx, deps.commands, (tx, changes) => revokeToken(tx, changes, body.id));
    return { success: true };
  });

  return router;
}
