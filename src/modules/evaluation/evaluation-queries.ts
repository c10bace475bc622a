/**
 * Evaluation's read model: the reads that join the evaluation queue and ratings with the stream
 * pool for speed (one statement each, rows locked with SKIP LOCKED where raters race) — which
 * streams need raters, the item a rater gets next, the streams rated last. Only evaluation asks
 * these; everything else of the pool it reads through the streams module.
 */
import type { EntityManager } from '../../db.ts';
import type { EvaluationItemDto, PairItemDto, RecentEvaluationDto, WaitingItemDto } from '../../shared/api/evaluation.ts';
import type { Category } from '../../shared/constants.ts';
import { MIN_JUDGEMENTS, TARGET_CONFIDENCE, type Standing } from '../../shared/evaluation/queue-rules.ts';

/** The reasons the queue gives (queue-rules.ts decides them). */
const CONTESTED = 'Raters disagree';
const CHECK_REASON = 'New rater check';
/** What a rater is told a check is: nothing that would let them answer checks more carefully than the rest. */
const CHECK_SHOWN_AS = 'Periodic re-check';
/** Passed as a parameter: a question mark in SQL text is a placeholder. */
const PAIR_REASON = 'Which looks better?';
/**
 * Checks a new rater gets before ordinary items: one starts measuring them, and their answers on
 * ordinary items go on measuring them (bench:raters, seed 7: with three checks each τ-b ended at
 * 0.727, with one at 0.768; no difference below 4 judgements per stream).
 */
const CHECKS_PER_RATER = 1;

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
        and not exists (select 1 from evaluation_queue q where q.stream_id = s.id and q.kind = 'rate' and (q.status = 'pending' or q.completed_at > now() - interval '1 day'))
      on conflict (stream_id) where status = 'pending' and kind = 'rate' do nothing
      returning id`,
    [],
    'all',
  );
  return rows.length;
}

/**
 * The next item for a rater, leased to them for LEASE_MINUTES (SKIP LOCKED settles raters asking
 * at the same moment; one already leased to this rater comes back to them); without a rater id
 * (a page that has not made one yet), the item a new rater would get, leased to nobody. Contested
 * items ("Raters disagree") go first to trusted raters and last to everyone else; a check is only
 * ever drawn by the new rater it was made for, and raters are never told it is one.
 */
export async function nextItem(em: EntityManager, evaluatorId: string | null, standing: Standing = 'regular'): Promise<EvaluationItemDto | null> {
  const rows = await em.execute<(EvaluationItemDto & { category: Category })[]>(
    `with candidate as (
        select q.id from evaluation_queue q join streams s on s.id = q.stream_id
        where q.status = 'pending' and s.active and (q.kind = 'rate' or (q.kind = 'check' and q.assigned_to = ?))
          and (q.assigned_to is null or q.assigned_to = ? or q.assigned_at < now() - interval '${LEASE_MINUTES} minutes')
          and not exists (select 1 from human_quality_evaluations e
            where e.stream_id = q.stream_id and e.evaluator_id = ? and e.created_at > now() - interval '24 hours')
        order by (q.assigned_to is not distinct from ?) desc,
          case when q.reason = '${CONTESTED}' then ? else 1 end,
          q.priority desc, q.created_at, q.id
        limit 1 for update of q skip locked)
      update evaluation_queue q set assigned_to = coalesce(?::text, q.assigned_to), assigned_at = case when ?::text is null then q.assigned_at else now() end
      from candidate, streams s
      where q.id = candidate.id and s.id = q.stream_id
      returning q.id as "queueId", s.id as "streamId", s.url as "streamUrl", s.fallback_url as "fallbackUrl", s.name as "streamName",
        s.category, q.priority, case when q.kind = 'check' then '${CHECK_SHOWN_AS}' else q.reason end as reason,
        (select count(*)::int from human_quality_evaluations e where e.stream_id = s.id and not e.skipped) as "previousEvaluations"`,
    [evaluatorId, evaluatorId, evaluatorId, evaluatorId, standing === 'trusted' ? 0 : 2, evaluatorId, evaluatorId],
    'all',
  );
  return rows[0] ?? null;
}

/**
 * A new rater's check: a stream whose human answer is established (confidence at the target from
 * enough raters) that they have not rated, queued for them alone. Their answer measures them
 * against the consensus. Null when there is none, or they already hold an item.
 */
export async function makeCheckItem(em: EntityManager, evaluatorId: string): Promise<boolean> {
  const rows = await em.execute<{ id: number }[]>(
    `insert into evaluation_queue (stream_id, kind, priority, reason, assigned_to, assigned_at)
      select s.id, 'check', 100, '${CHECK_REASON}', ?, now() from streams s
      where s.active and s.health <> 'offline' and s.human_confidence >= ? and s.human_count >= ?
        and not exists (select 1 from human_quality_evaluations e where e.stream_id = s.id and e.evaluator_id = ?)
        and not exists (select 1 from evaluation_queue q where q.status = 'pending' and q.assigned_to = ? and q.assigned_at > now() - interval '${LEASE_MINUTES} minutes')
        and (select count(*) from human_quality_evaluations e join evaluation_queue q on q.id = e.queue_id where e.evaluator_id = ? and q.kind = 'check') < ${CHECKS_PER_RATER}
      order by random() limit 1
      returning id`,
    [evaluatorId, TARGET_CONFIDENCE, MIN_JUDGEMENTS, evaluatorId, evaluatorId, evaluatorId],
    'all',
  );
  return rows.length > 0;
}

/** The next pair for a rater ("which looks better?"), leased to them; null when none is waiting. */
export async function nextPair(em: EntityManager, evaluatorId: string): Promise<PairItemDto | null> {
  const rows = await em.execute<Record<string, unknown>[]>(
    `with candidate as (
        select q.id from evaluation_queue q join streams a on a.id = q.stream_id join streams b on b.id = q.partner_stream_id
        where q.status = 'pending' and q.kind = 'compare' and a.active and b.active
          and (q.assigned_to is null or q.assigned_to = ? or q.assigned_at < now() - interval '${LEASE_MINUTES} minutes')
          and not exists (select 1 from pairwise_evaluations e where e.queue_id = q.id and e.evaluator_id = ?)
        order by (q.assigned_to is not distinct from ?) desc, q.priority desc, q.created_at, q.id
        limit 1 for update of q skip locked)
      update evaluation_queue q set assigned_to = ?, assigned_at = now()
      from candidate, streams a, streams b
      where q.id = candidate.id and a.id = q.stream_id and b.id = q.partner_stream_id
      returning q.id as "queueId", q.reason,
        a.id as "leftId", a.url as "leftUrl", a.fallback_url as "leftFallback", a.name as "leftName", a.category as "leftCategory",
        b.id as "rightId", b.url as "rightUrl", b.fallback_url as "rightFallback", b.name as "rightName", b.category as "rightCategory"`,
    [evaluatorId, evaluatorId, evaluatorId, evaluatorId],
    'all',
  );
  const r = rows[0];
  if (!r) return null;
  const side = (k: 'left' | 'right') => ({
    streamId: r[`${k}Id`] as number,
    streamUrl: r[`${k}Url`] as string,
    fallbackUrl: (r[`${k}Fallback`] as string | null) ?? null,
    streamName: r[`${k}Name`] as string,
    category: r[`${k}Category`] as Category,
  });
  return { queueId: r.queueId as number, kind: 'compare', left: side('left'), right: side('right'), reason: r.reason as string };
}

/** Queues pairs worth asking (pairsToAsk), each pair once while pending. */
export async function queuePairs(em: EntityManager, pairs: readonly [number, number][]): Promise<number> {
  if (pairs.length === 0) return 0;
  const rows = await em.execute<{ id: number }[]>(
    `insert into evaluation_queue (stream_id, partner_stream_id, kind, priority, reason)
      select p.a, p.b, 'compare', 60, ? from jsonb_to_recordset(?::jsonb) as p(a int, b int)
      where exists (select 1 from streams where id = p.a and active) and exists (select 1 from streams where id = p.b and active)
      on conflict (least(stream_id, partner_stream_id), greatest(stream_id, partner_stream_id)) where status = 'pending' and kind = 'compare' do nothing
      returning id`,
    [PAIR_REASON, JSON.stringify(pairs.map(([a, b]) => ({ a, b })))],
    'all',
  );
  return rows.length;
}

/** How many pairs wait now. */
export async function pendingPairs(em: EntityManager): Promise<number> {
  const [row] = await em.execute<{ n: number }[]>(`select count(*)::int as n from evaluation_queue where status = 'pending' and kind = 'compare'`, [], 'all');
  return row?.n ?? 0;
}

/** The pending rate items, for settling against the estimate. */
export async function pendingRateItems(em: EntityManager): Promise<{ id: number; streamId: number; reason: string; priority: number }[]> {
  return em.execute(`select id, stream_id as "streamId", reason, priority from evaluation_queue where status = 'pending' and kind = 'rate'`, [], 'all');
}

/** Settles items: done ones leave the queue, the rest say why they wait. */
export async function settleItems(em: EntityManager, done: readonly number[], waiting: readonly { id: number; reason: string; priority: number }[]): Promise<void> {
  if (done.length) {
    await em.execute(`update evaluation_queue set status = 'done', completed_at = now(), assigned_to = null, assigned_at = null where id = any(?::int[]) and status = 'pending'`, [`{${done.join(',')}}`], 'run');
  }
  if (waiting.length) {
    await em.execute(
      `update evaluation_queue q set reason = w.reason, priority = w.priority
        from jsonb_to_recordset(?::jsonb) as w(id int, reason text, priority int) where q.id = w.id and q.status = 'pending'`,
      [JSON.stringify(waiting)],
      'run',
    );
  }
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
