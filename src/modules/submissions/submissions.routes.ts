import Router from '@koa/router';
import type { CommandDeps } from '../../domain/command.ts';
import { runAs } from '../../http/command.ts';
import type { AppState } from '../../http/context.ts';
import { spendFor, tooManyRequests, type CallerLimits } from '../../http/rate-limit.ts';
import type { SafeFetcher } from '../../http/safe-fetch.ts';
import { handle } from '../../http/route.ts';
import {
  SubmissionApprove,
  SubmissionListQuery,
  SubmissionReject,
  SubmissionRejectMatching,
  SubmitRequest,
  type RejectMatchingDto,
  type SubmissionPageDto,
  type SubmissionCountsDto,
  type SubmitResultDto,
} from '../../shared/api/submissions.ts';
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
  router.post('/discovery/submit', handle({ body: SubmitRequest }, async (ctx, { body }) => {
    const over = await spendFor(ctx, deps.submitLimit);
    if (over) throw tooManyRequests(ctx, over, 'Too many submissions; please try again later');
    const allows = (url: string) => deps.fetcher.allows(url, { ownHosts: [ctx.hostname] });
    const result = await runAs(ctx, deps.commands, (tx, changes) => submitStream(tx, changes, body, allows));
    ctx.status = result.duplicate ? 200 : 201;
    return result satisfies SubmitResultDto;
  }));

  router.get('/submissions', handle({ query: SubmissionListQuery }, async (ctx, { query }) => {
    const page = await listSubmissions(ctx.state.em, query);
    return { submissions: page.rows.map(presentSubmission), next_cursor: page.nextCursor, total: page.total, submitters: page.submitters } satisfies SubmissionPageDto;
  }));

  router.post('/submissions/reject-matching', handle({ body: SubmissionRejectMatching }, async (ctx, { body }) => {
    const reviewer = (await ctx.state.actor())?.username ?? 'anonymous';
    const rejected = await runAs(ctx, deps.commands, (tx, changes) => rejectMatching(tx, changes, body, reviewer));
    return { rejected, pending: await countPending(ctx.state.em) } satisfies RejectMatchingDto;
  }));

  router.get('/submissions/count', handle({}, async (ctx) => ({ pending: await countPending(ctx.state.em) }) satisfies SubmissionCountsDto));

  router.post('/submissions/approve', handle({ body: SubmissionApprove }, async (ctx, { body }) => {
    const reviewer = (await ctx.state.actor())?.username ?? 'anonymous';
    return presentSubmission(await runAs(ctx, deps.commands, (tx, changes) => approveSubmission(tx, changes, body, reviewer)));
  }));

  router.post('/submissions/reject', handle({ body: SubmissionReject }, async (ctx, { body }) => {
    const reviewer = (await ctx.state.actor())?.username ?? 'anonymous';
    return presentSubmission(await runAs(ctx, deps.commands, (tx, changes) => rejectSubmission(tx, changes, body, reviewer)));
  }));

  return router;
}
