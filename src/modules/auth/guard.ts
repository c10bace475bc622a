/**
 * Enforces each endpoint's declared access on every API request, before validation and handlers:
 * - routes for a role without a signed-in account or token: 401 {"error": "Authentication required"};
 * - with one whose role is below the route's: 403 with a sentence naming the role needed;
 * - unsafe requests from a browser on another site: 403 (CSRF), unless they carry a bearer
 *   token (scripts; a browser never attaches one by itself).
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppState } from '../../http/context.ts';
import { HttpError } from '../../http/errors.ts';
import { isAllowedOrigin } from '../../http/origin.ts';
import { endpointOf } from '../../http/route.ts';
import { denial } from '../../shared/roles.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function accessGuard(router: Router<AppState>, allowedOrigins: readonly string[]): Middleware<AppState> {
  return async (ctx, next) => {
    const layer = router.match(ctx.path, ctx.method).pathAndMethod.find((l) => typeof l.path === 'string' && l.methods.length > 0);
    if (!layer) return next(); // no such route: the API answers 404/405
    const access = endpointOf(layer)?.access ?? 'admin'; // fail closed

    if (!SAFE_METHODS.has(ctx.method) && !/^Bearer\s/i.test(ctx.get('authorization'))) {
      const origin = ctx.get('origin');
      if (ctx.get('sec-fetch-site') === 'cross-site' || (origin && !isAllowedOrigin(origin, ctx.get('host'), allowedOrigins))) {
        throw new HttpError(403, 'Cross-site request refused');
      }
    }
    const denied = access === 'public' ? null : denial(access, (await ctx.state.actor())?.role ?? null);
    if (denied) throw new HttpError(denied.status, denied.error);
    await next();
  };
}
