/**
 * Evaluation's read model: reads only. The reads that join the evaluation queue and ratings with
 * the stream pool for speed — what still waits and why (the Ratings tab), the streams rated last —
 * and the queue's own counts the score keeper settles by. Every write of the queue is in
 * rater-queue.ts (tests/architecture/read-models.test.ts keeps this file free of writes).
 */
import type { EntityManager } from '../../db.ts';
import type { RecentEvaluationDto, WaitingItemDto } from '../../shared/api/evaluation.ts';

/** How many pairs wait now. */
export async function pendingPairs(em: EntityManager): Promise<number> {
  const [row] = await em.execute<{ n: number }[]>(`select count(*)::int as n from evaluation_queue where status = 'pending' and kind = 'compare'`, [], 'all');
  return row?.n ?? 0;
}

/** The pending rate items, for settling against the estimate. */
export async function pendingRateItems(em: EntityManager): Promise<{ id: number; streamId: number; reason: string; priority: number }[]> {
  return em.execute(`select id, stream_id as "streamId", reason, priority from evaluation_queue where status = 'pending' and kind = 'rate'`, [], 'all');
}

/** The items still waiting, most urgent first (the Ratings tab). */
export async function waitingItems(em: EntityManager, limit = 50): Promise<WaitingItemDto[]> {
  const rows = await em.execute<(Omit<WaitingItemDto, 'confidence'> & { confidence: number | null })[]>(
    `select q.id as "queueId", q.kind, s.id as "streamId", s.name as "streamName", p.name as "partnerName", q.reason, q.priority,
        s.human_count as answers, s.human_confidence as confidence
      from evaluation_queue q join streams s on s.id = q.stream_id left join streams p on p.id = q.partner_stream_id
      where q.status = 'pending' and s.active
      order by q.priority desc, q.created_at, q.id limit ?`,
    [limit],
    'all',
  );
  return rows.map((r) => ({ ...r, confidence: Number(r.confidence ?? 0), answers: Number(r.answers ?? 0) }));
}

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
