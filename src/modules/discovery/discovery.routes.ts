import Router from '@koa/router';
import { z } from 'zod';
import { Id, JobListQuery, type SuccessDto } from '../../shared/api/index.ts';
import { ExtractRequest, RunQuery, RunRequest, SourceInput, type ExtractDto, type RunAllDto, type RunOneDto } from '../../shared/api/discovery.ts';
import type { CommandDeps } from '../../domain/command.ts';
import type { AppState } from '../../http/context.ts';
import { runAs } from '../../http/command.ts';
import { HttpError } from '../../http/errors.ts';
import { spendFor, tooManyRequests, type CallerLimits } from '../../http/rate-limit.ts';
import { handle } from '../../http/route.ts';
import type { SafeFetcher } from '../../http/safe-fetch.ts';
import type { DiscoveryJobs } from './discovery.jobs.ts';
import { extractStreams } from './extract.service.ts';
import { presentJob, presentSource, presentStat } from './discovery.presenter.ts';
import { createSource, deleteSource, listJobs, listSources, listStats, queueRun, queueRunAll, updateSource } from './discovery.service.ts';

export interface DiscoveryRouteDeps {
  commands: CommandDeps;
  fetcher: SafeFetcher;
  /** Link analyses per client IP, or per admin (each may fetch a page). */
  extractLimit: CallerLimits;
  /** The job queue's discovery side; absent when this app runs without a queue (API-only tests). */
  discoveryJobs: DiscoveryJobs | undefined;
}

const IdParams = z.object({ id: Id });

export function discoveryRouter(deps: DiscoveryRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  const jobs = () => {
    if (!deps.discoveryJobs) throw new HttpError(503, 'Background jobs are not running on this server');
    return deps.discoveryJobs;
  };
  /** A source's schedule follows it into the queue; a failure here is the admin's to see. */
  const syncSchedule = async (source: Parameters<DiscoveryJobs['syncSchedule']>[0]) => {
    if (!deps.discoveryJobs) return;
    try {
      await deps.discoveryJobs.syncSchedule(source);
    } catch (error) {
      throw new HttpError(503, `The source was saved, but its schedule could not be set: ${error instanceof Error ? error.message : 'the job queue is unavailable'}`);
    }
  };

  const allows = (ctx: { hostname: string }) => (url: string) => deps.fetcher.allows(url, { ownHosts: [ctx.hostname] });

  // Public (spec §7): find the streams in a link, a page or an embed code.
  router.post('/discovery/extract', handle({ body: ExtractRequest }, async (ctx, { body }) => {
    const over = await spendFor(ctx, deps.extractLimit);
    if (over) throw tooManyRequests(ctx, over, 'Too many link analyses; please try again in a minute');
    return { streams: await extractStreams(deps.fetcher, body.url, [ctx.hostname]) } satisfies ExtractDto;
  }));

  // Spec §7: run one source ({sourceId, options} → {jobId}) or all ({runAll: true} → {jobs}).
  router.post('/discovery', handle({ query: RunQuery, body: RunRequest }, async (ctx, { body }) => {
    const queue = jobs();
    if ('runAll' in body) {
      const queued = await runAs(ctx, deps.commands, (tx, changes) => queueRunAll(tx, changes));
      await queue.enqueue(queued.map((j) => j.id));
      return { jobs: queued.length } satisfies RunAllDto;
    }
    const job = await runAs(ctx, deps.commands, (tx, changes) => queueRun(tx, changes, body.sourceId, body.options));
    await queue.enqueue([job.id]);
    return { jobId: job.id, job: presentJob(job) } satisfies RunOneDto;
  }));

  router.get('/discovery/sources', handle({}, async (ctx) => (await listSources(ctx.state.em)).map(presentSource)));

  router.post('/discovery/sources', handle({ body: SourceInput }, async (ctx, { body }) => {
    const source = await runAs(ctx, deps.commands, (tx, changes) => createSource(tx, changes, body, allows(ctx)));
    await syncSchedule(source);
    ctx.status = 201;
    return presentSource(source);
  }));

  router.put('/discovery/sources/:id', handle({ params: IdParams, body: SourceInput }, async (ctx, { params, body }) => {
    const source = await runAs(ctx, deps.commands, (tx, changes) => updateSource(tx, changes, params.id, body, allows(ctx)));
    await syncSchedule(source);
    return presentSource(source);
  }));

  router.delete('/discovery/sources/:id', handle({ params: IdParams }, async (ctx, { params }) => {
    await runAs(ctx, deps.commands, (tx, changes) => deleteSource(tx, changes, params.id));
    await syncSchedule({ id: params.id, deleted: true });
    return { success: true } satisfies SuccessDto;
  }));

  router.get('/discovery/jobs', handle({ query: JobListQuery }, async (ctx, { query }) => (await listJobs(ctx.state.em, query.limit)).map(presentJob)));

  router.get('/discovery/stats', handle({}, async (ctx) => (await listStats(ctx.state.em)).map(presentStat)));

  return router;
}
