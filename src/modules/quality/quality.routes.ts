import Router from '@koa/router';
import { STREAM_ID_RULE } from '../../shared/api/quality.ts';
import { qualityEndpoints as api } from '../../shared/api/index.ts';
import type { AppState } from '../../http/context.ts';
import { HttpError, badRequest } from '../../http/errors.ts';
import { mount } from '../../http/route.ts';
import { findStream } from '../streams/streams.service.ts';
import type { QualityJobs } from './quality.jobs.ts';
import { presentAnalysis, presentRun } from './quality.presenter.ts';
import { requestAnalysis, startAnalyzeAll } from './analysis-requests.ts';
import { latestRun, listAnalyses } from './quality.service.ts';
import { dailyProfile } from './activity-queries.ts';

export interface QualityRouteDeps {
  /** The queue's quality side; absent without a queue (API-only tests). */
  qualityJobs: QualityJobs | undefined;
}

/** `/api/quality…`: analyses, runs and the queue (the most recent human evaluations, `GET /api/quality?action=recent-evaluations`, are the evaluation module's). */
export function qualityRouter(deps: QualityRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  const jobs = () => {
    if (!deps.qualityJobs) throw new HttpError(503, 'Background jobs are not running on this server');
    return deps.qualityJobs;
  };

  // Spec §7: analyse one stream (queued, or `wait: true` for the result) or every active stream.
  mount(router, api.analyze)(async (ctx, { query, body }) => {
    if (query.action === 'analyze-all') {
      const actor = (await ctx.state.actor())?.username ?? 'anonymous';
      return { run: presentRun(await startAnalyzeAll(ctx.state.em, jobs(), actor)) };
    }
    if (body.streamId === undefined) throw badRequest(`streamId: ${STREAM_ID_RULE}`);
    const answer = await requestAnalysis(ctx.state.em, jobs(), { streamId: body.streamId, force: body.force, wait: body.wait });
    return answer;
  });

  mount(router, api.analyses)(async (ctx, { query }) => {
    await findStream(ctx.state.em, query.streamId);
    return (await listAnalyses(ctx.state.em, query.streamId, query.limit)).map(presentAnalysis);
  });

  mount(router, api.daily)(async (ctx, { params }) => {
    await findStream(ctx.state.em, params.id);
    return dailyProfile(ctx.state.em, params.id, Date.now());
  });

  mount(router, api.latestRun)(async (ctx) => {
    const run = await latestRun(ctx.state.em);
    return { run: run ? presentRun(run) : null };
  });

  mount(router, api.queue)(async () => {
    const status = await jobs().status();
    return { version: 0, ...status };
  });

  return router;
}
