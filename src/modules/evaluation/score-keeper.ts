/**
 * Keeps every stream's human score current and the queue listening where it is unsure: after a
 * burst of answers settles (debounced), the model (src/shared/evaluation/judgements.ts) runs over
 * the newest ratings and comparisons and the summary of the older ones (judgement-history.ts, which
 * folds what passed the window after each settling), the streams module records the scores that moved (fusing each with
 * its automatic half), and each waiting item is settled by the queue's rules
 * (src/shared/evaluation/queue-rules.ts): done at its confidence target, otherwise waiting with
 * its reason; pairs are queued where they tell the most. One command, one publish, so a ranked
 * scene's walls get one push for the whole burst.
 */
import type { EntityManager, Orm } from '../../db.ts';
import { runCommand, type CommandDeps } from '../../domain/command.ts';
import type { Logger } from '../../logger.ts';
import { judge, MIN_HISTORY, type Comparison, type History, type Judgements, type Rating } from '../../shared/evaluation/judgements.ts';
import { itemVerdict, pairsToAsk, standingOf, type Standing } from '../../shared/evaluation/queue-rules.ts';
import { recordHumanScores } from '../streams/stream-quality.ts';
import { pendingPairs, pendingRateItems } from './evaluation-queries.ts';
import { foldPast, judgementWindow, JUDGED_WINDOW, toNewest } from './judgement-history.ts';
import { queuePairs, settleItems } from './rater-queue.ts';

/**
 * `confidence` (the queue described in queue-rules.ts) or `count`: the queue before issue 33 — an
 * item is done after RATINGS_PER_ITEM ratings whoever gave them, and everyone draws alike. Kept
 * so `bench:raters` can compare the two on the same population.
 */
export type QueueRule = 'confidence' | 'count';

/** A judged rater's answers count toward an item's MIN_JUDGEMENTS when they weigh at least this share of the median judged rater. */
const RELIABLE_SHARE_OF_MEDIAN = 0.5;
/** Pairs waiting at once, at most (each settling tops the queue up to this). */
const PAIRS_WAITING = 10;

export interface RaterEntry {
  weight: number;
  agreement: number;
  /** Answers of both kinds. */
  ratings: number;
  standing: Standing;
}

export interface ScoreKeeper {
  readonly rule: QueueRule;
  /** An answer arrived: recompute once things are quiet. */
  touch(): void;
  /** Recompute now (tests, and the debounced run). */
  recompute(): Promise<number>;
  /** Each rater's weight, agreement and standing, from the last recompute (one is run if none has). */
  reliability(): Promise<Map<string, RaterEntry>>;
  /** What a rater draws first: checks when new, contested items when trusted. */
  standing(rater: string | null): Promise<Standing>;
  stop(): void;
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

export async function allAnswers(em: EntityManager): Promise<{ ratings: Rating[]; comparisons: Comparison[] }> {
  const [ratings, comparisons] = await Promise.all([
    em.execute<Rating[]>('select stream_id as item, evaluator_id as rater, overall as value from human_quality_evaluations where not skipped', [], 'all'),
    em.execute<Comparison[]>(
      `select left_stream_id as "left", right_stream_id as "right", evaluator_id as rater,
          case choice when 'left' then 1 when 'right' then 0 else 0.5 end::float as outcome
        from pairwise_evaluations where choice <> 'skip'`,
      [],
      'all',
    ),
  ]);
  return { ratings, comparisons: comparisons.map((c) => ({ ...c, outcome: Number(c.outcome) as Comparison['outcome'] })) };
}

/**
 * Per stream: its answers, and how many came from established raters whose word counts — judged
 * (MIN_HISTORY answers or more) and weighing at least half the median judged rater. A constant
 * key or random presses weigh little, so their answers never make an item "done".
 */
function answerCounts(ratings: readonly Rating[], comparisons: readonly Comparison[], raters: Judgements['raters'], history: History) {
  const judged = [...raters.values()].filter((r) => r.answers >= MIN_HISTORY).map((r) => r.weight).sort((a, b) => a - b);
  const bar = judged.length ? judged[Math.floor(judged.length / 2)]! * RELIABLE_SHARE_OF_MEDIAN : Infinity;
  // Folded answers count as answers, not as established ones (who gave them is summed away).
  const counts = new Map<number, { answers: number; established: number }>([...history.items].map(([item, h]) => [item, { answers: h.count, established: 0 }]));
  const add = (item: number, rater: string) => {
    const c = counts.get(item) ?? counts.set(item, { answers: 0, established: 0 }).get(item)!;
    c.answers++;
    const r = raters.get(rater);
    if (r && r.answers >= MIN_HISTORY && r.weight >= bar) c.established++;
  };
  for (const r of ratings) add(r.item, r.rater);
  for (const c of comparisons) {
    add(c.left, c.rater);
    add(c.right, c.rater);
  }
  return counts;
}

export function createScoreKeeper(deps: { orm: Orm; commands: CommandDeps; logger: Logger; debounceMs?: number; rule?: QueueRule; now?: () => number }): ScoreKeeper {
  const rule = deps.rule ?? 'confidence';
  const now = deps.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  let last: { judged: Judgements } | undefined;
  const quiet: CommandDeps = { publisher: deps.commands.publisher };

  async function settle(tx: EntityManager, judged: Judgements, counts: ReturnType<typeof answerCounts>): Promise<void> {
    const pending = await pendingRateItems(tx);
    const done: number[] = [];
    const waiting: { id: number; reason: string; priority: number }[] = [];
    const open: { id: number; score: number; confidence: number }[] = [];
    for (const item of pending) {
      const it = judged.items.get(item.streamId);
      const count = counts.get(item.streamId);
      if (!it || !count) {
        open.push({ id: item.streamId, score: 3, confidence: 0 });
        continue; // never answered: it keeps the reason the refill gave it
      }
      const verdict = itemVerdict({ answers: count.answers, established: count.established, confidence: it.confidence, spread: it.spread });
      if (verdict.done) {
        done.push(item.id);
        continue;
      }
      open.push({ id: item.streamId, score: it.score, confidence: it.confidence });
      if (verdict.reason !== item.reason || verdict.priority !== item.priority) waiting.push({ id: item.id, reason: verdict.reason, priority: verdict.priority });
    }
    await settleItems(tx, done, waiting);
    const room = PAIRS_WAITING - (await pendingPairs(tx));
    if (room > 0) await queuePairs(tx, pairsToAsk(open, room));
  }

  async function recompute(): Promise<number> {
    // The newest answers one by one, the older as their summary (judgement-history.ts).
    let window = await judgementWindow(deps.orm.em.fork());
    const start = last && new Map([...last.judged.raters].map(([rater, r]) => [rater, r.weight]));
    if (window.ratings.length + window.comparisons.length > 2 * JUDGED_WINDOW) {
      // Far behind (an upgrade over a long history): the newest window alone is fitted, what is past it folded under that fit, and then read again.
      const newest = toNewest(window, JUDGED_WINDOW);
      if (await foldPast(deps.orm.em.fork(), window, judge(newest.ratings, newest.comparisons, window.history, start), now())) window = await judgementWindow(deps.orm.em.fork());
    }
    const { ratings, comparisons, history } = window;
    const judged = judge(ratings, comparisons, history, start);
    last = { judged };
    const scores = new Map([...judged.items].map(([id, it]) => [id, { score: round(it.score, 2), confidence: round(it.confidence, 3), count: it.count }]));
    const moved = await runCommand(deps.orm.em.fork(), quiet, 'evaluation', async (tx, changes) => {
      const moved = await recordHumanScores(tx, changes, scores);
      if (rule === 'confidence') await settle(tx, judged, answerCounts(ratings, comparisons, judged.raters, history));
      return moved;
    });
    await foldPast(deps.orm.em.fork(), window, judged, now());
    return moved;
  }

  const judgedNow = async () => {
    if (!last) await (chain = chain.then(recompute));
    return last!.judged;
  };

  return {
    rule,
    touch() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        chain = chain.then(recompute).catch((error: unknown) => deps.logger.warn({ err: error }, 'evaluation: recompute failed'));
      }, deps.debounceMs ?? 1_500);
      timer.unref();
    },
    recompute: () => (chain = chain.then(recompute)) as Promise<number>,
    async reliability() {
      const { raters } = await judgedNow();
      const weights = [...raters.values()].filter((r) => r.answers >= MIN_HISTORY).map((r) => r.weight);
      return new Map(
        [...raters].map(([rater, r]) => [rater, { weight: r.weight, agreement: r.agreement, ratings: r.answers, standing: standingOf(r.answers, r.weight, weights, MIN_HISTORY) }]),
      );
    },
    async standing(rater) {
      if (rule === 'count') return 'regular';
      if (!rater) return 'new';
      const { raters } = last?.judged ?? { raters: new Map() };
      const own = raters.get(rater);
      if (!own) return 'new';
      const weights = [...raters.values()].filter((r) => r.answers >= MIN_HISTORY).map((r) => r.weight);
      return standingOf(own.answers, own.weight, weights, MIN_HISTORY);
    },
    stop: () => clearTimeout(timer),
  };
}
