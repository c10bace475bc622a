import Router from '@koa/router';
import type { DatabaseAvailability } from '../../database/availability.ts';

/**
 * /healthz: the process answers (it stays 200 during a database outage: restarting the
 * process would not help). /readyz: the database answers too (load balancers, Docker).
 */
export function healthRouter(deps: { availability: DatabaseAvailability }): Router {
  const router = new Router();

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    if (await deps.availability.check()) {
      ctx.body = { status: 'ready' };
    } else {
      ctx.status = 503;
      ctx.set('Retry-After', '5');
      ctx.body = { status: 'unavailable', error: 'Database is not reachable' };
    }
  });

  return router;
}
