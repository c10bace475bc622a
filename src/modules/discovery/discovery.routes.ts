import Router from '@koa/router';
import { JobListQuery } from '../../shared/api.ts';
import type { AppState } from '../../http/context.ts';
import { handle } from '../../http/route.ts';
import { presentJob, presentSource, presentStat } from './discovery.presenter.ts';
import { listJobs, listSources, listStats } from './discovery.service.ts';

export function discoveryRouter(): Router<AppState> {
  const router = new Router<AppState>();

  router.get('/discovery/sources', handle({}, async (ctx) => (await listSources(ctx.state.em)).map(presentSource)));

  router.get('/discovery/jobs', handle({ query: JobListQuery }, async (ctx, { query }) => (await listJobs(ctx.state.em, query.limit)).map(presentJob)));

  router.get('/discovery/stats', handle({}, async (ctx) => (await listStats(ctx.state.em)).map(presentStat)));

  return router;
}
