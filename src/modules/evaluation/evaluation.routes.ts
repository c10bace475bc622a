import Router from '@koa/router';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { EvaluationQuery, EvaluationSubmit, type RaterReliabilityDto } from '../../shared/api/evaluation.ts';
import type { CommandDeps } from '../../domain/command.ts';
import type { AppContext, AppState } from '../../http/context.ts';
import { runAs } from '../../http/command.ts';
import { badRequest, HttpError } from '../../http/errors.ts';
import { spend, tooManyRequests } from '../../http/rate-limit.ts';
import { handle } from '../../http/route.ts';
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
  const needEvaluator = (id: string | undefined) => {
    if (!id) throw badRequest('evaluatorId: Required');
    return id;
  };

  // Spec §7 "Human evaluation": public, for anonymous raters (rate-limited per IP).
  router.get('/human-evaluation', handle({ query: EvaluationQuery }, async (ctx, { query }) => {
    await limit(ctx);
    switch (query.action) {
      case 'queue-status':
        return queueStatus(ctx.state.em);
      case 'leaderboard':
        return leaderboard(ctx.state.em);
      case 'stats':
        return evaluatorStats(ctx.state.em, needEvaluator(query.evaluatorId));
      case 'next': {
        const item = await drawer.next(ctx.state.em, needEvaluator(query.evaluatorId));
        if (!item) {
          ctx.status = 404;
          return { queueEmpty: true, error: 'No streams available for evaluation. Check back later!' };
        }
        return item;
      }
      default:
        throw new HttpError(405, `Use POST for action=${query.action}`);
    }
  }));

  router.post('/human-evaluation', handle({ query: EvaluationQuery, body: EvaluationSubmit }, async (ctx, { query, body }) => {
    await limit(ctx);
    if (query.action !== 'submit' && query.action !== 'skip') throw new HttpError(405, `Use GET for action=${query.action}`);
    if (query.action === 'skip' && body.skipped !== true) throw badRequest('skipped: a skip carries skipped: true');
    const result = await runAs(ctx, deps.commands, (tx, changes) => submitEvaluation(tx, changes, body));
    if (!result.duplicate && body.skipped !== true) deps.scoreKeeper.touch();
    return result;
  }));

  // Admins: each rater's reliability.
  router.get('/evaluation/raters', handle({}, async () => raterReliability(await deps.scoreKeeper.reliability()) satisfies RaterReliabilityDto[]));

  return router;
}
