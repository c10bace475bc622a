import Router from '@koa/router';
import { authEndpoints as api, type ApiTokenDto } from '../../shared/api/index.ts';
import type { AppContext, AppState } from '../../http/context.ts';
import { runAs, type CommandDeps } from '../../domain/command.ts';
import { HttpError, toHttpError } from '../../http/errors.ts';
import { tooManyRequests } from '../../http/rate-limit.ts';
import { mount } from '../../http/route.ts';
import type { ApiToken } from './auth.entity.ts';
import { normalizeUsername } from './admins.service.ts';
import { createToken, listTokens, login, revokeToken } from './auth.service.ts';
import { endSession, sessionTokenOf, setSessionCookie } from './identity.ts';
import { admit, failed, refusalMessage, succeeded, type LoginAttempt, type LoginLimiters, type Refusal } from './login-limits.ts';
import { noteFailingAccount } from './login-alarms.ts';
import { deviceTokenOf, isTrustedFor, setDeviceCookie, trustDevice } from './trusted-devices.ts';

export interface AuthRouteDeps {
  commands: CommandDeps;
  loginLimits: LoginLimiters;
  /** Ends live sockets of a session that logged out. */
  onSessionEnded: (sessionHash: string) => void;
}

const INVALID = 'Invalid username or password';

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
  const limits = deps.loginLimits;
  /** Each sign-in's attempt, as its limits saw it (the handler forgives its failures on success). */
  const attempts = new WeakMap<object, LoginAttempt>();
  const refuse = (ctx: AppContext, refusal: Refusal) => tooManyRequests(ctx, refusal.state, refusalMessage(refusal.limit));

  /** The attempt as the limits see it: its address, the username it names, and whether this browser signed in to that username before. */
  const attemptOf = async (ctx: AppContext): Promise<LoginAttempt> => {
    const known = attempts.get(ctx);
    if (known) return known;
    const username = usernameKeyOf(ctx.request.body);
    const device = deviceTokenOf(ctx.get('cookie'));
    const attempt: LoginAttempt = {
      address: ctx.ip || 'unknown',
      username,
      trustedDevice: device && username !== null && (await isTrustedFor(ctx.state.em, device, username)) ? device : null,
    };
    attempts.set(ctx, attempt);
    return attempt;
  };

  // Every refused sign-in counts toward the failed-login limits (login-limits.ts), whatever
  // refused it: a wrong password, a username that breaks the text rule, a body that is not JSON
  // (the body is read by the route, so an address's own limit is checked here and the rest there).
  // The limiter keys are hashes (storedKey), so no byte a client sends reaches their store.
  router.use(api.login.path, async (ctx, next) => {
    const refusal = await admit(limits, { address: ctx.ip || 'unknown', username: null, trustedDevice: null });
    if (refusal) throw refuse(ctx, refusal);
    try {
      await next();
    } catch (error) {
      const status = toHttpError(error)?.status;
      if (status === 400 || status === 401 || status === 413 || status === 415) {
        const attempt = await attemptOf(ctx);
        const { refusal, usernameFailing } = await failed(limits, attempt);
        // An account failing from many addresses: what the alert rule login_failures watches.
        if (usernameFailing && attempt.username !== null) await noteFailingAccount(ctx.state.em, attempt.username);
        if (refusal) throw refuse(ctx, refusal);
      }
      throw error;
    }
  });

  mount(router, api.login)(async (ctx, { body }) => {
    const attempt = await attemptOf(ctx);
    const refusal = await admit(limits, attempt);
    if (refusal) throw refuse(ctx, refusal);
    const session = await login(ctx.state.em, body.username, body.password);
    if (!session) throw new HttpError(401, INVALID); // never says which half was wrong; counted above
    await succeeded(limits, attempt);
    setSessionCookie(ctx, session);
    // This browser has signed in to this account: other addresses' failures never slow it.
    setDeviceCookie(ctx, await trustDevice(ctx.state.em, session.userId, deviceTokenOf(ctx.get('cookie'))));
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
