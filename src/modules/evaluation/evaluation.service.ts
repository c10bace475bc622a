/**
 * Human evaluation: filling the queue (why and how urgently each stream needs raters), leasing
 * the next item to a rater (SKIP LOCKED: raters asking at once get different streams), recording
 * ratings and skips (once per item and rater), and the figures raters and admins see.
 */
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { conflict, notFound } from '../../domain/errors.ts';
import type {
  EvaluationItemDto,
  EvaluationSubmit,
  EvaluatorStatsDto,
  LeaderboardEntryDto,
  PairItemDto,
  PairSubmit,
  QueueStatusDto,
  RaterReliabilityDto,
  SubmitEvaluationDto,
} from '../../shared/api/evaluation.ts';
import { ANSWER_STEP, RATINGS_CAP } from '../../shared/evaluation/queue-rules.ts';
import { makeCheckItem, nextItem, nextPair, refillQueue } from './rater-queue.ts';
import type { QueueRule, RaterEntry, ScoreKeeper } from './score-keeper.ts';

/** The queue before issue 33 (rule `count`): ratings an item collects before it leaves the queue, whoever gave them. */
export const RATINGS_PER_ITEM = 3;
/** Answers a pair collects before it leaves the queue. */
export const PAIR_ANSWERS = 3;

export async function queueStatus(em: EntityManager): Promise<QueueStatusDto> {
  const [row] = await em.execute<{ pending: number; completed: number }[]>(
    `select (select count(*)::int from evaluation_queue where status = 'pending') as pending,
      (select count(*)::int from human_quality_evaluations where not skipped and created_at >= date_trunc('day', now())) as completed`,
    [],
    'all',
  );
  return { pending: row?.pending ?? 0, completedToday: row?.completed ?? 0 };
}

/** Only the last 4 characters of an evaluator id ever leave the server. */
export const maskEvaluator = (id: string) => `evaluator_${id.slice(-4)}`;

export async function leaderboard(em: EntityManager): Promise<LeaderboardEntryDto[]> {
  const rows = await em.execute<{ evaluator_id: string; count: number }[]>(
    `select evaluator_id, count(*)::int as count from human_quality_evaluations
      where not skipped and created_at > now() - interval '7 days'
      group by evaluator_id order by count desc, evaluator_id limit 10`,
    [],
    'all',
  );
  return rows.map((r) => ({ evaluator: maskEvaluator(r.evaluator_id), count: r.count }));
}

const NOT_LEASED = 'This item was not given to you (or its lease passed to another rater): ask for the next one with your evaluatorId';

/**
 * Records a rating or a skip, once per item and rater, for an item leased to that rater (rater ids
 * are chosen by the client: without the lease, one client could rate any item under any number of
 * names). The lease ends; a check (one-off) is done; any item is done at RATINGS_CAP answers, and
 * otherwise the score keeper settles it by its confidence — or, with the `count` rule, after
 * RATINGS_PER_ITEM ratings.
 */
export async function submitEvaluation(em: EntityManager, changes: Changes, input: EvaluationSubmit, rule: QueueRule = 'confidence'): Promise<SubmitEvaluationDto> {
  const [item] = await em.execute<{ id: number; stream_id: number; kind: string; assigned_to: string | null }[]>(
    'select id, stream_id, kind, assigned_to from evaluation_queue where id = ? for update',
    [input.queueId],
    'all',
  );
  if (!item || item.kind === 'compare') throw notFound(`Queue item not found: ${input.queueId}`);
  const [existing] = await em.execute<{ id: number }[]>('select id from human_quality_evaluations where queue_id = ? and evaluator_id = ?', [item.id, input.evaluatorId], 'all');
  if (existing) return { success: true, evaluationId: existing.id, duplicate: true };
  if (item.assigned_to !== input.evaluatorId) throw conflict(NOT_LEASED);
  const skipped = input.skipped === true;
  const r = skipped ? null : (input as Extract<EvaluationSubmit, { overall: number }>);
  const [inserted] = await em.execute<{ id: number }[]>(
    `insert into human_quality_evaluations (queue_id, stream_id, evaluator_id, video_quality, movement, content, audio, overall, skipped, duration_ms)
      values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
    [item.id, item.stream_id, input.evaluatorId, r?.videoQuality ?? null, r?.movement ?? null, r?.content ?? null, r?.audio ?? null, r?.overall ?? null, skipped, input.durationMs ?? null],
    'all',
  );
  const limit = rule === 'count' ? RATINGS_PER_ITEM : RATINGS_CAP;
  await em.execute(
    `with rated as (select count(*) as n from human_quality_evaluations where ${rule === 'count' ? 'queue_id = ?' : 'stream_id = ?'} and not skipped)
      update evaluation_queue set assigned_to = null, assigned_at = null,
        -- Each answer puts the item a little further back until the keeper settles it again, so
        -- raters asking in a burst spread over the waiting items instead of piling on the first.
        priority = greatest(1, priority - ${ANSWER_STEP}),
        status = case when kind = 'check' or (select n from rated) >= ? then 'done' else status end,
        completed_at = case when kind = 'check' or (select n from rated) >= ? then now() else completed_at end
      where id = ?`,
    [rule === 'count' ? item.id : item.stream_id, limit, limit, item.id],
    'run',
  );
  changes.push({ type: 'evaluation.recorded', streamId: item.stream_id, skipped, transient: true });
  return { success: true, evaluationId: inserted!.id, duplicate: false };
}

/** Answers a pair leased to this rater ("which looks better?"), once per pair and rater; a pair is done after PAIR_ANSWERS answers. */
export async function submitComparison(em: EntityManager, changes: Changes, input: PairSubmit): Promise<SubmitEvaluationDto> {
  const [item] = await em.execute<{ id: number; stream_id: number; partner_stream_id: number | null; kind: string; assigned_to: string | null }[]>(
    'select id, stream_id, partner_stream_id, kind, assigned_to from evaluation_queue where id = ? for update',
    [input.queueId],
    'all',
  );
  if (!item || item.kind !== 'compare' || item.partner_stream_id === null) throw notFound(`Pair not found: ${input.queueId}`);
  const [existing] = await em.execute<{ id: number }[]>('select id from pairwise_evaluations where queue_id = ? and evaluator_id = ?', [item.id, input.evaluatorId], 'all');
  if (existing) return { success: true, evaluationId: existing.id, duplicate: true };
  if (item.assigned_to !== input.evaluatorId) throw conflict(NOT_LEASED);
  const [inserted] = await em.execute<{ id: number }[]>(
    `insert into pairwise_evaluations (queue_id, left_stream_id, right_stream_id, evaluator_id, choice, duration_ms) values (?, ?, ?, ?, ?, ?) returning id`,
    [item.id, item.stream_id, item.partner_stream_id, input.evaluatorId, input.choice, input.durationMs ?? null],
    'all',
  );
  await em.execute(
    `with answered as (select count(*) as n from pairwise_evaluations where queue_id = ? and choice <> 'skip')
      update evaluation_queue set assigned_to = null, assigned_at = null,
        status = case when (select n from answered) >= ? then 'done' else status end,
        completed_at = case when (select n from answered) >= ? then now() else completed_at end
      where id = ?`,
    [item.id, PAIR_ANSWERS, PAIR_ANSWERS, item.id],
    'run',
  );
  changes.push({ type: 'evaluation.recorded', streamId: item.stream_id, skipped: input.choice === 'skip', transient: true });
  return { success: true, evaluationId: inserted!.id, duplicate: false };
}

/** A rater's own figures; without a rater id, those of a rater who has not rated yet. */
export async function evaluatorStats(em: EntityManager, evaluatorId: string | null): Promise<EvaluatorStatsDto> {
  const [row] = await em.execute<Record<string, number | null>[]>(
    `select count(*) filter (where not skipped)::int as total,
        count(*) filter (where not skipped and created_at >= date_trunc('day', now()))::int as today,
        count(*) filter (where not skipped and created_at > now() - interval '7 days')::int as week,
        count(distinct stream_id) filter (where not skipped)::int as streams,
        coalesce(avg(duration_ms), 0)::float8 as avg_ms,
        count(*)::int as all_rows,
        count(*) filter (where skipped)::int as skipped
      from human_quality_evaluations where evaluator_id = ?`,
    [evaluatorId],
    'all',
  );
  const all = Number(row?.all_rows ?? 0);
  return {
    totalEvaluations: Number(row?.total ?? 0),
    evaluationsToday: Number(row?.today ?? 0),
    evaluationsThisWeek: Number(row?.week ?? 0),
    streamsEvaluated: Number(row?.streams ?? 0),
    averageTimeMs: Math.round(Number(row?.avg_ms ?? 0)),
    skipRate: all ? Number(row?.skipped ?? 0) / all : 0,
  };
}

/** The queue refills itself at most this often per node (and whenever a rater finds it empty). */
const REFILL_EVERY_MS = 60_000;

/**
 * Draws the next item (or pair) for a rater from a queue that refills itself; one per app (it
 * remembers its last refill). A new rater first gets a check when one can be made.
 */
export function createItemDrawer(keeper: Pick<ScoreKeeper, 'standing' | 'recompute'>): {
  next(em: EntityManager, evaluatorId: string | null): Promise<EvaluationItemDto | null>;
  nextPair(em: EntityManager, evaluatorId: string): Promise<PairItemDto | null>;
} {
  let lastRefill = 0;
  let lastPairRefill = 0;
  return {
    async next(em, evaluatorId) {
      const standing = await keeper.standing(evaluatorId);
      return em.transactional(async (tx) => {
        if (Date.now() - lastRefill > REFILL_EVERY_MS) {
          lastRefill = Date.now();
          await refillQueue(tx);
        }
        if (standing === 'new' && evaluatorId) await makeCheckItem(tx, evaluatorId);
        return (await nextItem(tx, evaluatorId, standing)) ?? ((await refillQueue(tx)) > 0 ? nextItem(tx, evaluatorId, standing) : null);
      });
    },
    async nextPair(em, evaluatorId) {
      const pair = await em.transactional((tx) => nextPair(tx, evaluatorId));
      if (pair || Date.now() - lastPairRefill < REFILL_EVERY_MS) return pair;
      // None waiting: fill the queue and settle it (settling queues the pairs worth asking), then
      // look again — at most once a minute, so asking for pairs cannot make the server re-judge
      // every answer on every request.
      lastPairRefill = Date.now();
      await em.transactional((tx) => refillQueue(tx));
      await keeper.recompute();
      return em.transactional((tx) => nextPair(tx, evaluatorId));
    },
  };
}

/** Each rater's weight, agreement and standing, most active first (50 at most), their ids masked. */
export function raterReliability(raters: ReadonlyMap<string, RaterEntry>): RaterReliabilityDto[] {
  return [...raters]
    .map(([id, r]) => ({ evaluator: maskEvaluator(id), ratings: r.ratings, weight: Math.round(r.weight * 1000) / 1000, agreement: r.agreement, standing: r.standing }))
    .sort((a, b) => b.ratings - a.ratings)
    .slice(0, 50);
}
