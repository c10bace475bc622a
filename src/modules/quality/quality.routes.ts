import Router from '@koa/router';
import { AnalysesQuery, AnalyzeRequest, QualityQuery, type AnalyzeAllDto, type AnalyzeDto, type QualityQueueDto, type QualityRunDto } from '../../shared/api/quality.ts';
import type { AppState } from '../../http/context.ts';
import { HttpError, badRequest, conflict } from '../../http/errors.ts';
import { handle } from '../../http/route.ts';
import { findStream } from '../streams/streams.service.ts';
import type { QualityJobs } from './quality.jobs.ts';
import { presentAnalysis, presentRun } from './quality.presenter.ts';
import { latestRun, listAnalyses } from './quality.service.ts';

export interface QualityRouteDeps {
  /** The queue's quality side; absent without a queue (API-only tests). */
  qualityJobs: QualityJobs | undefined;
}

/** An analysis younger than this answers a request without `force`. */
const FRESH_MS = 60_000;

export function qualityRouter(deps: QualityRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  const jobs = () => {
    if (!deps.qualityJobs) throw new HttpError(503, 'Background jobs are not running on this server');
    return deps.qualityJobs;
  };

  // Spec §7: analyse one stream (queued, or `wait: true` for the result) or every active stream.
  router.post('/quality', handle({ query: QualityQuery, body: AnalyzeRequest }, async (ctx, { query, body }) => {
    const quality = jobs();
    if (query.action === 'analyze-all') {
      const latest = await latestRun(ctx.state.em);
      if (latest && !latest.finishedAt && Date.now() - latest.startedAt.getTime() < 3600_000) throw conflict('An analysis of all streams is already running');
      const actor = (await ctx.state.actor())?.username ?? 'anonymous';
      return { run: presentRun(await quality.analyzeAll(actor)) } satisfies AnalyzeAllDto;
    }
    if (body.streamId === undefined) throw badRequest('streamId: Required');
    const stream = await findStream(ctx.state.em, body.streamId);
    if (!body.force) {
      const [last] = await listAnalyses(ctx.state.em, stream.id, 1);
      if (last && Date.now() - last.createdAt.getTime() < FRESH_MS) return { queued: false, analysis: presentAnalysis(last) } satisfies AnalyzeDto;
    }
    if (body.wait) {
      const recorded = await quality.analyzeNow(stream.id, 'manual');
      return { queued: false, analysis: recorded ? presentAnalysis(recorded.row) : null } satisfies AnalyzeDto;
    }
    await quality.enqueue({ streamId: stream.id, trigger: 'manual' });
    ctx.status = 202;
    return { queued: true, analysis: null } satisfies AnalyzeDto;
  }));

  router.get('/quality/analyses', handle({ query: AnalysesQuery }, async (ctx, { query }) => {
    await findStream(ctx.state.em, query.streamId);
    return (await listAnalyses(ctx.state.em, query.streamId, query.limit)).map(presentAnalysis);
  }));

  router.get('/quality/queue', handle({}, async () => {
    const status = await jobs().status();
    return { version: 0, ...status } satisfies QualityQueueDto;
  }));

  router.get('/quality/runs/latest', handle({}, async (ctx) => {
    const run = await latestRun(ctx.state.em);
    return { run: run ? presentRun(run) : null } satisfies { run: QualityRunDto | null };
  }));

  return router;
}
