/**
 * createApp(deps): the Koa application with every route mounted, no listen — the server entry
 * and the tests both mount it on an HTTP server of their own.
 */
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa from 'koa';
import compose from 'koa-compose';
import compress from 'koa-compress';
import type { EntityManager, Orm } from './db.ts';
import type { AppContext, AppState } from './http/context.ts';
import { errorHandler, HttpError, notFound } from './http/errors.ts';
import { requestLog } from './http/request-log.ts';
import { webApp } from './http/web.ts';
import type { Logger } from './logger.ts';
import { configRouter } from './modules/config/config.routes.ts';
import { discoveryRouter } from './modules/discovery/discovery.routes.ts';
import { healthRouter } from './modules/health/health.routes.ts';
import { scenesRouter } from './modules/scenes/scenes.routes.ts';
import { streamsRouter } from './modules/streams/streams.routes.ts';
import type { ChangePublisher } from './realtime/changes.ts';
import { SceneSnapshots } from './modules/scenes/scene-snapshots.ts';

export interface AppDeps {
  orm: Orm;
  logger: Logger;
  /** Receives every change after commit (the hub, in production). */
  publisher: ChangePublisher;
  /** Folder of the built web app; omitted in API-only tests. */
  webDist?: string;
}

export const BODY_LIMIT = '100kb';

/** What the routes share: the snapshot cache, and a publisher that clears it before passing changes on. */
interface Services {
  publisher: ChangePublisher;
  snapshots: SceneSnapshots;
}

function createServices(deps: AppDeps): Services {
  const snapshots = new SceneSnapshots(deps.orm);
  const publisher: ChangePublisher = {
    async publish(changes) {
      snapshots.invalidate();
      await deps.publisher.publish(changes);
    },
  };
  return { publisher, snapshots };
}

/** The /api router with every module's routes, exposed for tools that list the routes. */
export function apiRouter(services: Services): Router<AppState> {
  const api = new Router<AppState>({ prefix: '/api' });
  for (const router of [streamsRouter(services), scenesRouter(services), configRouter(services), discoveryRouter()]) {
    api.use(router.routes());
  }
  return api;
}

export function createApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>();
  app.silent = true; // errors are answered by errorHandler and logged by the request log

  const api = apiRouter(createServices(deps));
  const apiStack = compose<AppContext>([
    errorHandler,
    async (ctx, next) => {
      await next();
      // No route answered: the router left 404, or 405/501 with an Allow header.
      if (ctx.body !== undefined) return;
      if (ctx.status === 404) throw notFound(`No such endpoint: ${ctx.method} ${ctx.path}`);
      if (ctx.status === 405) throw new HttpError(405, `Method ${ctx.method} is not allowed here`);
      if (ctx.status === 501) throw new HttpError(501, `Method ${ctx.method} is not implemented`);
    },
    bodyParser({ enableTypes: ['json'], jsonLimit: BODY_LIMIT, parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] }),
    async (ctx, next) => {
      // One EntityManager per request, forked on first use: cached reads never need one.
      let em: EntityManager | undefined;
      Object.defineProperty(ctx.state, 'em', { get: () => (em ??= deps.orm.em.fork()), configurable: true });
      await next();
    },
    api.routes(),
    api.allowedMethods(),
  ]);

  app.use(requestLog(deps.logger));
  app.use(compress({ threshold: 1024 }));
  app.use(healthRouter(deps).routes());
  app.use((ctx, next) => (ctx.path === '/api' || ctx.path.startsWith('/api/') ? apiStack(ctx as AppContext, next) : next()));
  if (deps.webDist) app.use(webApp(deps.webDist));
  return app;
}
