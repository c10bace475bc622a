/**
 * The HTTP side of the app: the middleware every request passes (drain, log, methods, metrics,
 * headers, compression, health), the /api stack (errors, one EntityManager per request, who is
 * asking, the access guard, the routes) and the web app. Modules plug their routes and the
 * identity in; nothing here knows a feature.
 */
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import compose from 'koa-compose';
import compress from 'koa-compress';
import type { DatabaseAvailability } from '../database/availability.ts';
import type { EntityManager, Orm } from '../db.ts';
import type { Logger } from '../logger.ts';
import type { Registration } from '../shared/events.ts';
import type { ScreenState } from '../shared/events.ts';
import type { Actor, AppContext, AppState } from './context.ts';
import { docsRouter } from './docs.ts';
import type { Drain } from './drain.ts';
import { errorHandler, HttpError, notFound } from './errors.ts';
import { healthRouter } from './health.ts';
import { metricsEndpoint, requestMetrics } from './metrics.ts';
import { refuseUnservedMethods } from './protocol.ts';
import { requestLog } from './request-log.ts';
import { securityHeaders } from './security-headers.ts';
import { createWebHints } from './web-hints.ts';
import { webApp } from './web.ts';

export type Credentials = { cookie?: string | undefined; authorization?: string | undefined };

/** The /api router: the document, then every module's routes in list order. */
export function apiRouter(routers: readonly Router<AppState>[]): Router<AppState> {
  const api = new Router<AppState>({ prefix: '/api' });
  for (const router of [docsRouter(() => api), ...routers]) api.use(router.routes());
  return api;
}

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/** /api: errors answered as JSON, 404/405 for what no route serves, the request's EntityManager and actor, the guard, the routes. */
export function apiStack(options: {
  api: Router<AppState>;
  orm: Orm;
  availability: DatabaseAvailability;
  /** Who is asking (the auth module's identity); nobody when no module says. */
  actorOf: ((em: EntityManager, credentials: Credentials) => Promise<Actor | null>) | undefined;
  /** Enforces each endpoint's declared access (the auth module's). */
  guard: Middleware<AppState> | undefined;
}): Middleware<AppState> {
  const { api, orm, availability, actorOf } = options;
  const stack = compose<AppContext>([
    errorHandler(availability),
    async (ctx, next) => {
      await next();
      // No route answered: the router left 404, or 405 with an Allow header.
      if (ctx.body !== undefined) return;
      if (ctx.status === 404) throw notFound(`No such endpoint: ${ctx.method} ${ctx.path}`);
      if (ctx.status === 405) throw new HttpError(405, `Method ${ctx.method} is not allowed here`);
    },
    async (ctx, next) => {
      // One EntityManager per request, forked on first use: cached reads never need one.
      let em: EntityManager | undefined;
      // During an outage a request that needs the database fails at once with 503.
      const fork = () => {
        availability.assertAvailable();
        return orm.em.fork();
      };
      Object.defineProperty(ctx.state, 'em', { get: () => (em ??= fork()), configurable: true });
      let actor: Promise<Actor | null> | undefined;
      ctx.state.actor = () => (actor ??= actorOf ? actorOf(ctx.state.em, { cookie: ctx.get('cookie'), authorization: ctx.get('authorization') }) : Promise.resolve(null));
      await next();
    },
    ...(options.guard ? [options.guard as Middleware<AppState, AppContext>] : []),
    api.routes(),
    api.allowedMethods(),
  ]);
  return (ctx, next) => (isApiPath(ctx.path) ? stack(ctx as AppContext, next) : next());
}

/** The Koa application: what every request passes, then /api, then the web app. */
export function serveApp(options: {
  api: Middleware<AppState>;
  apiRouter: Router<AppState>;
  availability: DatabaseAvailability;
  drain: Drain;
  logger: Logger;
  trustProxy: boolean;
  metricsToken: string | undefined;
  webDist: string | undefined;
  /** What a screen page's HTML carries (its first state), from the hub once attached. */
  stateFor: (registration: Registration) => Promise<ScreenState | null>;
}): Koa<AppState> {
  const koa = new Koa<AppState>();
  koa.silent = true; // errors are answered by errorHandler and logged by the request log
  koa.proxy = options.trustProxy;
  const { apiRouter } = options;
  koa.use(options.drain.middleware());
  koa.use(requestLog(options.logger));
  koa.use(refuseUnservedMethods((path) => (isApiPath(path) ? [...new Set(apiRouter.match(path, 'GET').path.flatMap((layer) => layer.methods))] : ['GET', 'HEAD'])));
  koa.use(requestMetrics());
  koa.use(metricsEndpoint(options.metricsToken));
  koa.use(securityHeaders());
  koa.use(compress({ threshold: 1024 }));
  koa.use(healthRouter({ availability: options.availability, drain: options.drain }).routes());
  koa.use(options.api);
  if (options.webDist) koa.use(webApp(options.webDist, createWebHints({ distDir: options.webDist, stateFor: options.stateFor })));
  return koa;
}
