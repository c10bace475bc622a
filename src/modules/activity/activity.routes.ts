import Router from '@koa/router';
import { ActivityQuery } from '../../shared/api/activity.ts';
import type { AppState } from '../../http/context.ts';
import { handle } from '../../http/route.ts';
import { presentActivity } from './activity.presenter.ts';
import { listActivity } from './activity.service.ts';

export function activityRouter(): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/activity', handle({ query: ActivityQuery }, async (ctx, { query }) => (await listActivity(ctx.state.em, query)).map(presentActivity)));
  return router;
}
