import Router from '@koa/router';
import { runAs, type CommandDeps } from '../../domain/command.ts';
import type { AppState } from '../../http/context.ts';
import { spendFor, tooManyRequests, type CallerLimits } from '../../http/rate-limit.ts';
import type { SafeFetcher } from '../../http/safe-fetch.ts';
import { mount } from '../../http/route.ts';
import { submissionEndpoints as api } from '../../shared/api/index.ts';
import { presentSubmission } from './submission.presenter.ts';
import { approveSubmission, countPending, listSubmissions, rejectMatching, rejectSubmission, submitStream } from './submissions.service.ts';

export interface SubmissionRouteDeps {
  commands: CommandDeps;
  /** Submissions per client IP, or per admin. */
  submitLimit: CallerLimits;
  /** Its address policy decides which links may be submitted (never fetched here). */
  fetcher: SafeFetcher;
}

export function submissionsRouter(deps: SubmissionRouteDeps): Router<AppState> {
  const router = new Router<AppState>();

  // Public (spec §7): a visitor's link goes to the review queue.
  mount(router, api.submit)(async (ctx, { body }) => {
    const over = await spendFor(ctx, deps.submitLimit);
    if (over) throw tooManyRequests(ctx, over, 'Too many submissions; please try again later');
    const allows = (url: string) => deps.fetcher.allows(url, { ownHosts: [ctx.hostname] });
    const result = await runAs(ctx, deps.commands, (tx, changes) => submitStream(tx, changes, body, allows));
    return result;
  });

  mount(router, api.list)(async (ctx, { query }) => {
    const page = await listSubmissions(ctx.state.em, query);
    return { submissions: page.rows.map(presentSubmission), next_cursor: page.nextCursor, total: page.total, submitters: page.submitters };
  });

  mount(router, api.rejectMatching)(async (ctx, { body }) => {
    const reviewer = (await ctx.state.actor())?.username ?? 'anonymous';
    const rejected = await runAs(ctx, deps.commands, (tx, changes) => rejectMatching(tx, changes, body, reviewer));
    return { rejected, pending: await countPending(ctx.state.em) };
  });

  mount(router, api.count)(async (ctx) => ({ pending: await countPending(ctx.state.em) }));

  mount(router, api.approve)(async (ctx, { body }) => {
    const reviewer = (await ctx.state.actor())?.username ?? 'anonymous';
    return presentSubmission(await runAs(ctx, deps.commands, (tx, changes) => approveSubmission(tx, changes, body, reviewer)));
  });

  mount(router, api.reject)(async (ctx, { body }) => {
    const reviewer = (await ctx.state.actor())?.username ?? 'anonymous';
    return presentSubmission(await runAs(ctx, deps.commands, (tx, changes) => rejectSubmission(tx, changes, body, reviewer)));
  });

  return router;
}
