/**
 * Keeps every stream's human score current: after a burst of ratings settles (debounced), the
 * estimator runs over all ratings, and the streams module records the scores that moved (fusing
 * each with its automatic half) — one command, one publish, so a ranked scene's walls get one
 * push for the whole burst.
 */
import type { Orm } from '../../db.ts';
import { runCommand, type CommandDeps } from '../../domain/command.ts';
import type { Logger } from '../../logger.ts';
import { estimate, type Rating } from '../../shared/evaluation/reliability.ts';
import { recordHumanScores } from '../streams/stream-quality.ts';

export interface ScoreKeeper {
  /** A rating arrived: recompute once things are quiet. */
  touch(): void;
  /** Recompute now (tests, and the debounced run). */
  recompute(): Promise<number>;
  /** Each rater's reliability weight, from the last recompute. */
  reliability(): Promise<Map<string, { weight: number; ratings: number }>>;
  stop(): void;
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

export function createScoreKeeper(deps: { orm: Orm; commands: CommandDeps; logger: Logger; debounceMs?: number }): ScoreKeeper {
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  const quiet: CommandDeps = { publisher: deps.commands.publisher };

  const ratings = () =>
    deps.orm.em.fork().execute<Rating[]>('select stream_id as item, evaluator_id as rater, overall as value from human_quality_evaluations where not skipped', [], 'all');

  async function recompute(): Promise<number> {
    const { items } = estimate(await ratings());
    if (items.size === 0) return 0;
    const scores = new Map([...items].map(([id, it]) => [id, { score: round(it.score, 2), confidence: round(it.confidence, 3), count: it.count }]));
    return runCommand(deps.orm.em.fork(), quiet, 'evaluation', (tx, changes) => recordHumanScores(tx, changes, scores));
  }

  return {
    touch() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        chain = chain.then(recompute).catch((error: unknown) => deps.logger.warn({ err: error }, 'evaluation: recompute failed'));
      }, deps.debounceMs ?? 1_500);
      timer.unref();
    },
    recompute: () => (chain = chain.then(recompute)) as Promise<number>,
    async reliability() {
      const all = await ratings();
      const { raters } = estimate(all);
      const counts = new Map<string, number>();
      for (const r of all) counts.set(r.rater, (counts.get(r.rater) ?? 0) + 1);
      return new Map([...raters].map(([rater, weight]) => [rater, { weight, ratings: counts.get(rater) ?? 0 }]));
    },
    stop: () => clearTimeout(timer),
  };
}
