import Router from '@koa/router';
import { JobListQuery } from '../../shared/api.ts';
import type { AppState } from '../../http/context.ts';
import { handle } from '../../http/route.ts';
import { DiscoveryJob, DiscoverySource, DiscoveryStat } from './discovery.entity.ts';
import { presentJob, presentSource, presentStat } from './discovery.presenter.ts';

export function discoveryRouter(): Router<AppState> {
  const router = new Router<AppState>();

  router.get('/discovery/sources', handle({}, async (ctx) => {
    const sources = await ctx.state.em.find(DiscoverySource, {}, { orderBy: { name: 'asc' } });
    return sources.map(presentSource);
  }));

  router.get('/discovery/jobs', handle({ query: JobListQuery }, async (ctx, { query }) => {
    const jobs = await ctx.state.em.find(DiscoveryJob, {}, {
      populate: ['source'],
      orderBy: { createdAt: 'desc', id: 'desc' },
      limit: query.limit,
    });
    return jobs.map(presentJob);
  }));

  router.get('/discovery/stats', handle({}, async (ctx) => {
    const stats = await ctx.state.em.find(DiscoveryStat, {}, { orderBy: { sourceName: 'asc' } });
    return stats.map(presentStat);
  }));

  return router;
}
