import Router from '@koa/router';
import { discoveryEndpoints as api } from '../../shared/api/index.ts';
import { runAs, type CommandDeps } from '../../domain/command.ts';
import type { AppState } from '../../http/context.ts';
import { HttpError } from '../../http/errors.ts';
import { spendFor, tooManyRequests, type CallerLimits } from '../../http/rate-limit.ts';
import { mount } from '../../http/route.ts';
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
  mount(router, api.extract)(async (ctx, { body }) => {
    const over = await spendFor(ctx, deps.extractLimit);
    if (over) throw tooManyRequests(ctx, over, 'Too many link analyses; please try again in a minute');
    return { streams: await extractStreams(deps.fetcher, body.url, [ctx.hostname]) };
  });

  // Spec §7: run one source ({sourceId, options} → {jobId}) or all ({runAll: true} → {jobs}).
  mount(router, api.run)(async (ctx, { body }) => {
    const queue = jobs();
    if ('runAll' in body) {
      const queued = await runAs(ctx, deps.commands, (tx, changes) => queueRunAll(tx, changes));
      await queue.enqueue(queued.map((j) => j.id));
      return { jobs: queued.length };
    }
    const job = await runAs(ctx, deps.commands, (tx, changes) => queueRun(tx, changes, body.sourceId, body.options));
    await queue.enqueue([job.id]);
    return { jobId: job.id, job: presentJob(job) };
  });

  mount(router, api.sources)(async (ctx) => (await listSources(ctx.state.em)).map(presentSource));

  mount(router, api.createSource)(async (ctx, { body }) => {
    const source = await runAs(ctx, deps.commands, (tx, changes) => createSource(tx, changes, body, allows(ctx)));
    await syncSchedule(source);
    return presentSource(source);
  });

  mount(router, api.updateSource)(async (ctx, { params, body }) => {
    const source = await runAs(ctx, deps.commands, (tx, changes) => updateSource(tx, changes, params.id, body, allows(ctx)));
    await syncSchedule(source);
    return presentSource(source);
  });

  mount(router, api.deleteSource)(async (ctx, { params }) => {
    await runAs(ctx, deps.commands, (tx, changes) => deleteSource(tx, changes, params.id));
    await syncSchedule({ id: params.id, deleted: true });
    return { success: true };
  });

  mount(router, api.jobs)(async (ctx, { query }) => (await listJobs(ctx.state.em, query.limit)).map(presentJob));

  mount(router, api.stats)(async (ctx) => (await listStats(ctx.state.em)).map(presentStat));

  return router;
}
