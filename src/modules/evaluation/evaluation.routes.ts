import Router from '@koa/router';
import { CHOICE_RULE, COMPARE_RULE, NEXT_PAIR_RULE, SKIP_RULE } from '../../shared/api/evaluation.ts';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { evaluationEndpoints as api, qualityEndpoints } from '../../shared/api/index.ts';
import { runAs, type CommandDeps } from '../../domain/command.ts';
import type { AppContext, AppState } from '../../http/context.ts';
import { badRequest, HttpError } from '../../http/errors.ts';
import { spend, tooManyRequests } from '../../http/rate-limit.ts';
import { mount } from '../../http/route.ts';
import type { EvaluationSubmit, PairSubmit } from '../../shared/api/evaluation.ts';
import { recentEvaluations, waitingItems } from './evaluation-queries.ts';
import { createItemDrawer, evaluatorStats, leaderboard, queueStatus, raterReliability, submitComparison, submitEvaluation } from './evaluation.service.ts';
import type { ScoreKeeper } from './score-keeper.ts';

export interface EvaluationRouteDeps {
  commands: CommandDeps;
  scoreKeeper: ScoreKeeper;
  /** Rater requests per client IP (anonymous, public). */
  evaluationLimit: RateLimiterAbstract;
}

/**
 * `/api/human-evaluation` (spec §7, public, rate-limited per IP), `/api/evaluation/raters` and
 * `…/waiting` (admins), and the streams rated most recently (spec §7, admins), which the spec puts
 * under `/api/quality?action=recent-evaluations`: its path and name stay quality's, the answer is this module's.
 */
export function evaluationRouter(deps: EvaluationRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  const drawer = createItemDrawer(deps.scoreKeeper);
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
      case 'next-pair': {
        if (!query.evaluatorId) throw badRequest(`evaluatorId: ${NEXT_PAIR_RULE}`);
        const pair = await drawer.nextPair(ctx.state.em, query.evaluatorId);
        if (!pair) throw new HttpError(404, 'No pairs to compare right now. Rate single streams, or check back later!', undefined, { queueEmpty: true });
        return pair;
      }
      default:
        throw new HttpError(405, `Use POST for action=${query.action}`);
    }
  });

  mount(router, api.submit)(async (ctx, { query, body }) => {
    await limit(ctx);
    if (query.action !== 'submit' && query.action !== 'skip' && query.action !== 'compare') throw new HttpError(405, `Use GET for action=${query.action}`);
    if (query.action === 'compare') {
      if (!('choice' in body)) throw badRequest(`choice: ${CHOICE_RULE}`);
      const pair = body as PairSubmit;
      const result = await runAs(ctx, deps.commands, (tx, changes) => submitComparison(tx, changes, pair));
      if (!result.duplicate && pair.choice !== 'skip') deps.scoreKeeper.touch();
      return result;
    }
    if ('choice' in body) throw badRequest(`choice: ${COMPARE_RULE}`);
    const rating = body as EvaluationSubmit;
    if (query.action === 'skip' && rating.skipped !== true) throw badRequest(`skipped: ${SKIP_RULE}`);
    const result = await runAs(ctx, deps.commands, (tx, changes) => submitEvaluation(tx, changes, rating, deps.scoreKeeper.rule));
    // Every answer is settled by the keeper (a skip changes no score, but may pass the item on).
    if (!result.duplicate) deps.scoreKeeper.touch();
    return result;
  });

  // Admins: each rater's reliability, and what still waits for judgements.
  mount(router, api.raters)(async () => raterReliability(await deps.scoreKeeper.reliability()));
  mount(router, api.waiting)(async (ctx) => waitingItems(ctx.state.em));
  mount(router, qualityEndpoints.recentEvaluations)(async (ctx) => recentEvaluations(ctx.state.em));

  return router;
}
