/**
 * Evaluation's read model: the reads that join the evaluation queue and ratings with the stream
 * pool for speed (one statement each, rows locked with SKIP LOCKED where raters race) — which
 * streams need raters, the item a rater gets next, the streams rated last. Only evaluation asks
 * these; everything else of the pool it reads through the streams module.
 */
import type { EntityManager } from '../../db.ts';
import type { EvaluationItemDto, RecentEvaluationDto } from '../../shared/api/evaluation.ts';
import type { Category } from '../../shared/constants.ts';

/** How long a drawn item stays with its rater. */
export const LEASE_MINUTES = 2;

/**
 * Queues every active stream that has no pending item and was not done in the last day, with
 * its reason: never rated first, then new, then where the automatic and human scores disagree,
 * then low confidence, then the periodic re-check.
 */
export async function refillQueue(em: EntityManager): Promise<number> {
  const rows = await em.execute<{ id: number }[]>(
    `insert into evaluation_queue (stream_id, priority, reason)
      select s.id,
        case when s.human_count = 0 then 100
             when s.created_at > now() - interval '2 days' then 90
             when s.auto_score is not null and s.human_score is not null and abs(s.auto_score - s.human_score * 20) > 25 then 80
             when coalesce(s.human_confidence, 0) < 0.5 then 70
             else 30 end,
        case when s.human_count = 0 then 'Not yet evaluated'
             when s.created_at > now() - interval '2 days' then 'Newly added'
             when s.auto_score is not null and s.human_score is not null and abs(s.auto_score - s.human_score * 20) > 25 then 'Automatic and human scores disagree'
             when coalesce(s.human_confidence, 0) < 0.5 then 'Low confidence'
             else 'Periodic re-check' end
      from streams s
      where s.active and s.health <> 'offline'
        and not exists (select 1 from evaluation_queue q where q.stream_id = s.id and (q.status = 'pending' or q.completed_at > now() - interval '1 day'))
      on conflict (stream_id) where status = 'pending' do nothing
      returning id`,
    [],
    'all',
  );
  return rows.length;
}

/**
 * The highest-priority pending item this rater has not rated in the last 24 h, leased to them
 * for LEASE_MINUTES: an item leased to someone else is passed over (SKIP LOCKED settles raters
 * asking at the same moment); one already leased to this rater comes back to them.
 */
/**
 * The next item for a rater, leased to them for a while; without a rater id (a page that has not
 * made one yet), the item a new rater would get, leased to nobody.
 */
export async function nextItem(em: EntityManager, evaluatorId: string | null): Promise<EvaluationItemDto | null> {
  const rows = await em.execute<(EvaluationItemDto & { category: Category })[]>(
    `with candidate as (
        select q.id from evaluation_queue q join streams s on s.id = q.stream_id
        where q.status = 'pending' and s.active
          and (q.assigned_to is null or q.assigned_to = ? or q.assigned_at < now() - interval '${LEASE_MINUTES} minutes')
          and not exists (select 1 from human_quality_evaluations e
            where e.stream_id = q.stream_id and e.evaluator_id = ? and e.created_at > now() - interval '24 hours')
        order by (q.assigned_to is not distinct from ?) desc, q.priority desc, q.created_at, q.id
        limit 1 for update of q skip locked)
      update evaluation_queue q set assigned_to = coalesce(?::text, q.assigned_to), assigned_at = case when ?::text is null then q.assigned_at else now() end
      from candidate, streams s
      where q.id = candidate.id and s.id = q.stream_id
      returning q.id as "queueId", s.id as "streamId", s.url as "streamUrl", s.fallback_url as "fallbackUrl", s.name as "streamName",
        s.category, q.priority, q.reason,
        (select count(*)::int from human_quality_evaluations e where e.stream_id = s.id and not e.skipped) as "previousEvaluations"`,
    [evaluatorId, evaluatorId, evaluatorId, evaluatorId, evaluatorId],
    'all',
  );
  return rows[0] ?? null;
}

/** Records a rating or a skip, once per item and rater; an item with enough ratings is done. */
/** The streams rated most recently, with their reliability-weighted human score. */
export async function recentEvaluations(em: EntityManager, limit = 10): Promise<RecentEvaluationDto[]> {
  const rows = await em.execute<{ id: number; name: string; count: number; confidence: number | null; score: number | null }[]>(
    `select s.id, s.name, s.human_count as count, s.human_confidence as confidence, s.human_score as score
      from streams s join (select stream_id, max(created_at) as at from human_quality_evaluations where not skipped group by stream_id) e on e.stream_id = s.id
      order by e.at desc limit ?`,
    [limit],
    'all',
  );
  return rows.map((r) => ({ streamId: r.id, streamName: r.name, evaluationCount: r.count, confidence: r.confidence ?? 0, weightedScore: r.score ?? 0 }));
}
