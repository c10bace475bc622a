import Router from '@koa/router';
import type { DatabaseAvailability } from '../database/availability.ts';
import type { Drain } from './drain.ts';

/**
 * /healthz: the process answers (it stays 200 during a database outage and while draining:
 * restarting the process would not help). /readyz: the node takes work — the database answers
 * and the node is not draining (load balancers, orchestrators, Docker).
 */
export function healthRouter(deps: { availability: DatabaseAvailability; drain?: Drain }): Router {
  const router = new Router();

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    if (deps.drain?.draining) {
      ctx.status = 503;
      ctx.body = { status: 'draining', error: 'This node is shutting down' };
    } else if (await deps.availability.check()) {
      ctx.body = { status: 'ready' };
    } else {
      ctx.status = 503;
      ctx.set('Retry-After', '5');
      ctx.body = { status: 'unavailable', error: 'Database is not reachable' };
    }
  });

  return router;
}
