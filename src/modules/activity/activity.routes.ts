import Router from '@koa/router';
import { activityEndpoints as api } from '../../shared/api/activity.ts';
import type { AppState } from '../../http/context.ts';
import { mount } from '../../http/route.ts';
import { presentActivity } from './activity.presenter.ts';
import { listActivity } from './activity.service.ts';

export function activityRouter(): Router<AppState> {
  const router = new Router<AppState>();
  mount(router, api.list)(async (ctx, { query }) => (await listActivity(ctx.state.em, query)).map(presentActivity));
  return router;
}
