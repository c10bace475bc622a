import Router from '@koa/router';
import type { Orm } from '../../db.ts';

/** /healthz: the process answers. /readyz: the database answers too (load balancer and Docker). */
export function healthRouter(deps: { orm: Orm }): Router {
  const router = new Router();

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    try {
      await deps.orm.em.getConnection().execute('select 1');
      ctx.body = { status: 'ready' };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'unavailable', error: 'Database is not reachable' };
    }
  });

  return router;
}
