import Router from '@koa/router';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { JobListQuery } from '../../shared/api/index.ts';
import { ExtractRequest, type ExtractDto } from '../../shared/api/discovery.ts';
import type { AppState } from '../../http/context.ts';
import { spend, tooManyRequests } from '../../http/rate-limit.ts';
import { handle } from '../../http/route.ts';
import type { SafeFetcher } from '../../http/safe-fetch.ts';
import { extractStreams } from './extract.service.ts';
import { presentJob, presentSource, presentStat } from './discovery.presenter.ts';
import { listJobs, listSources, listStats } from './discovery.service.ts';

export interface DiscoveryRouteDeps {
  fetcher: SafeFetcher;
  /** Link analyses per client IP (each may fetch a page). */
  extractLimit: RateLimiterAbstract;
}

export function discoveryRouter(deps: DiscoveryRouteDeps): Router<AppState> {
  const router = new Router<AppState>();

  // Public (spec §7): find the streams in a link, a page or an embed code.
  router.post('/discovery/extract', handle({ body: ExtractRequest }, async (ctx, { body }) => {
    const over = await spend(deps.extractLimit, ctx.ip || 'unknown');
    if (over) throw tooManyRequests(ctx, over, 'Too many link analyses; please try again in a minute');
    return { streams: await extractStreams(deps.fetcher, body.url) } satisfies ExtractDto;
  }));

  router.get('/discovery/sources', handle({}, async (ctx) => (await listSources(ctx.state.em)).map(presentSource)));

  router.get('/discovery/jobs', handle({ query: JobListQuery }, async (ctx, { query }) => (await listJobs(ctx.state.em, query.limit)).map(presentJob)));

  router.get('/discovery/stats', handle({}, async (ctx) => (await listStats(ctx.state.em)).map(presentStat)));

  return router;
}
