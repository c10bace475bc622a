import Router from '@koa/router';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { z } from 'zod';
import { EvaluationQuery, EvaluationSubmit, type RaterReliabilityDto } from '../../shared/api/evaluation.ts';
import type { CommandDeps } from '../../domain/command.ts';
import type { AppContext, AppState } from '../../http/context.ts';
import { runAs } from '../../http/command.ts';
import { badRequest, HttpError } from '../../http/errors.ts';
import { spend, tooManyRequests } from '../../http/rate-limit.ts';
import { handle } from '../../http/route.ts';
import { evaluatorStats, leaderboard, maskEvaluator, nextItem, queueStatus, recentEvaluations, refillQueue, submitEvaluation } from './evaluation.service.ts';
import type { ScoreKeeper } from './score-keeper.ts';

export interface EvaluationRouteDeps {
  commands: CommandDeps;
  scoreKeeper: ScoreKeeper;
  /** Rater requests per client IP (anonymous, public). */
  evaluationLimit: RateLimiterAbstract;
}

const REFILL_EVERY_MS = 60_000;

export function evaluationRouter(deps: EvaluationRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  let lastRefill = 0;
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
        const evaluator = needEvaluator(query.evaluatorId);
        const em = ctx.state.em;
        // The queue refills itself: at most once a minute per node, and whenever a rater finds it empty.
        const item = await em.transactional(async (tx) => {
          if (Date.now() - lastRefill > REFILL_EVERY_MS) {
            lastRefill = Date.now();
            await refillQueue(tx);
          }
          return (await nextItem(tx, evaluator)) ?? ((await refillQueue(tx)) > 0 ? nextItem(tx, evaluator) : null);
        });
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

  // Admins: the streams rated most recently (spec §7) and each rater's reliability.
  router.get('/quality', handle({ query: z.object({ action: z.literal('recent-evaluations', { error: 'Unknown action; use ?action=recent-evaluations' }) }) }, async (ctx) => recentEvaluations(ctx.state.em)));

  router.get('/evaluation/raters', handle({}, async () => {
    const raters = await deps.scoreKeeper.reliability();
    return [...raters]
      .map(([id, r]) => ({ evaluator: maskEvaluator(id), ratings: r.ratings, weight: Math.round(r.weight * 1000) / 1000 }) satisfies RaterReliabilityDto)
      .sort((a, b) => b.ratings - a.ratings)
      .slice(0, 50);
  }));

  return router;
}
