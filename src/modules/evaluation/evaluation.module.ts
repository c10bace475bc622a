/** Human evaluation: the public rater's items and ratings, rater reliability, and the human half of each stream's score. */
import { defineModule } from '../module.ts';
import { evaluationPushes } from './evaluation.changes.ts';
import { EvaluationItem, HumanEvaluation, JudgementFold, JudgementItem, JudgementRater, PairwiseEvaluation } from './evaluation.entity.ts';
import { evaluationRouter } from './evaluation.routes.ts';
import { createScoreKeeper, type QueueRule, type ScoreKeeper } from './score-keeper.ts';

export interface EvaluationSettings {
  /** How long ratings must be quiet before scores are recomputed (ms; tests shorten it). */
  debounceMs: number;
  /** Rater requests per minute per client IP (tests lower it to reach the limit). */
  requestsPerMinute: number;
  /** How the queue decides an item is done (`count`: the old rule, kept for bench:raters' comparison). */
  queueRule: QueueRule;
}

export const evaluationModule = defineModule<EvaluationSettings, ScoreKeeper>({
  name: 'evaluation',
  entities: [EvaluationItem, HumanEvaluation, PairwiseEvaluation, JudgementItem, JudgementRater, JudgementFold],
  settings: { env: {}, read: () => ({ debounceMs: 1_500, requestsPerMinute: 240, queueRule: 'confidence' }) },
  setup: ({ orm, commands, logger, settings, now }) => createScoreKeeper({ orm, commands, logger, debounceMs: settings.debounceMs, rule: settings.queueRule, now }),
  routes: ({ commands, limits, settings }, scoreKeeper) => [evaluationRouter({ commands, scoreKeeper, evaluationLimit: limits.limiter('evaluation', settings.requestsPerMinute, 60) })],
  pushes: ({ orm }) => evaluationPushes(orm),
  jobs: (_context, scoreKeeper) => ({ start: async () => undefined, stop: () => scoreKeeper.stop() }),
});
