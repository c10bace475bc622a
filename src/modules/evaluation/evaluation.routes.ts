import Router from '@koa/router';
import { SKIP_RULE } from '../../shared/api/evaluation.ts';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { evaluationEndpoints as api } from '../../shared/api/index.ts';
import { runAs, type CommandDeps } from '../../domain/command.ts';
import type { AppContext, AppState } from '../../http/context.ts';
import { badRequest, HttpError } from '../../http/errors.ts';
import { spend, tooManyRequests } from '../../http/rate-limit.ts';
import { mount } from '../../http/route.ts';
import { createItemDrawer, evaluatorStats, leaderboard, queueStatus, raterReliability, submitEvaluation } from './evaluation.service.ts';
import type { ScoreKeeper } from './score-keeper.ts';

export interface EvaluationRouteDeps {
  commands: CommandDeps;
  scoreKeeper: ScoreKeeper;
  /** Rater requests per client IP (anonymous, public). */
  evaluationLimit: RateLimiterAbstract;
}

/** `/api/human-evaluation` (spec §7, public, rate-limited per IP) and `/api/evaluation/raters` (admins). */
export function evaluationRouter(deps: EvaluationRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  const drawer = createItemDrawer();
  const limit = async (ctx: AppContext) => {
    const over = await spend(deps.evaluationLimit, ctx.ip || 'unknown');
    if (over) throw tooManyRequests(ctx, over, 'Too many requests; please slow down');
  };

  // Spec §7 "Human evaluation": public, for anonymous raters (rate-limited per IP).
  mount(router, api.read)(async (ctx, { query }) => {
    await limit(ctx);
    switch (query.action) {
      case 'queue-status':
        return queueStatus(ctx.state.em);
      case 'leaderboard':
        return leaderboard(ctx.state.em);
      case 'stats':
        return evaluatorStats(ctx.state.em, query.evaluatorId ?? null);
      case 'next': {
        const item = await drawer.next(ctx.state.em, query.evaluatorId ?? null);
        // An answer raters expect, in the Error schema: a 404 flagged queueEmpty.
        if (!item) throw new HttpError(404, 'No streams available for evaluation. Check back later!', undefined, { queueEmpty: true });
        return item;
      }
      default:
        throw new HttpError(405, `Use POST for action=${query.action}`);
    }
  });

  mount(router, api.submit)(async (ctx, { query, body }) => {
    await limit(ctx);
    if (query.action !== 'submit' && query.action !== 'skip') throw new HttpError(405, `Use GET for action=${query.action}`);
    if (query.action === 'skip' && body.skipped !== true) throw badRequest(`skipped: ${SKIP_RULE}`);
    const result = await runAs(ctx, deps.commands, (tx, changes) => submitEvaluation(tx, changes, body));
    if (!result.duplicate && body.skipped !== true) deps.scoreKeeper.touch();
    return result;
  });

  // Admins: each rater's reliability.
  mount(router, api.raters)(async () => raterReliability(await deps.scoreKeeper.reliability()));

  return router;
}
