/**
 * Human evaluation: filling the queue (why and how urgently each stream needs raters), leasing
 * the next item to a rater (SKIP LOCKED: raters asking at once get different streams), recording
 * ratings and skips (once per item and rater), and the figures raters and admins see.
 */
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { notFound } from '../../domain/errors.ts';
import type {
  EvaluationItemDto,
  EvaluationSubmit,
  EvaluatorStatsDto,
  LeaderboardEntryDto,
  QueueStatusDto,
  RaterReliabilityDto,
  SubmitEvaluationDto,
} from '../../shared/api/evaluation.ts';
import { nextItem, refillQueue } from './evaluation-queries.ts';

/** Ratings an item collects before it leaves the queue. */
export const RATINGS_PER_ITEM = 3;

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

export async function submitEvaluation(em: EntityManager, changes: Changes, input: EvaluationSubmit): Promise<SubmitEvaluationDto> {
  const [item] = await em.execute<{ id: number; stream_id: number }[]>('select id, stream_id from evaluation_queue where id = ? for update', [input.queueId], 'all');
  if (!item) throw notFound(`Queue item not found: ${input.queueId}`);
  const skipped = input.skipped === true;
  const r = skipped ? null : (input as Extract<EvaluationSubmit, { overall: number }>);
  const inserted = await em.execute<{ id: number }[]>(
    `insert into human_quality_evaluations (queue_id, stream_id, evaluator_id, video_quality, movement, content, audio, overall, skipped, duration_ms)
      values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      on conflict (queue_id, evaluator_id) do nothing returning id`,
    [item.id, item.stream_id, input.evaluatorId, r?.videoQuality ?? null, r?.movement ?? null, r?.content ?? null, r?.audio ?? null, r?.overall ?? null, skipped, input.durationMs ?? null],
    'all',
  );
  if (inserted.length === 0) {
    const [existing] = await em.execute<{ id: number }[]>('select id from human_quality_evaluations where queue_id = ? and evaluator_id = ?', [item.id, input.evaluatorId], 'all');
    return { success: true, evaluationId: existing!.id, duplicate: true };
  }
  // The rater's lease ends; with enough ratings the item leaves the queue.
  await em.execute(
    `with rated as (select count(*) as n from human_quality_evaluations where queue_id = ? and not skipped)
      update evaluation_queue set assigned_to = null, assigned_at = null,
        status = case when (select n from rated) >= ? then 'done' else status end,
        completed_at = case when (select n from rated) >= ? then now() else completed_at end
      where id = ?`,
    [item.id, RATINGS_PER_ITEM, RATINGS_PER_ITEM, item.id],
    'run',
  );
  changes.push({ type: 'evaluation.recorded', streamId: item.stream_id, skipped, transient: true });
  return { success: true, evaluationId: inserted[0]!.id, duplicate: false };
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

/** Draws the next item for a rater from a queue that refills itself; one per app (it remembers its last refill). */
export function createItemDrawer(): { next(em: EntityManager, evaluatorId: string | null): Promise<EvaluationItemDto | null> } {
  let lastRefill = 0;
  return {
    next: (em, evaluatorId) =>
      em.transactional(async (tx) => {
        if (Date.now() - lastRefill > REFILL_EVERY_MS) {
          lastRefill = Date.now();
          await refillQueue(tx);
        }
        return (await nextItem(tx, evaluatorId)) ?? ((await refillQueue(tx)) > 0 ? nextItem(tx, evaluatorId) : null);
      }),
  };
}

/** Each rater's reliability weight, most active first (50 at most), their ids masked. */
export function raterReliability(weights: ReadonlyMap<string, { weight: number; ratings: number }>): RaterReliabilityDto[] {
  return [...weights]
    .map(([id, r]) => ({ evaluator: maskEvaluator(id), ratings: r.ratings, weight: Math.round(r.weight * 1000) / 1000 }))
    .sort((a, b) => b.ratings - a.ratings)
    .slice(0, 50);
}
