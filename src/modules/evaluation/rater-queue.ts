/**
 * The rater queue's writes, on evaluation's own table (`evaluation_queue`) only: the refill (which
 * streams need raters, why, how urgently — src/shared/evaluation/queue-rules.ts decides), a new
 * rater's check, leasing the next item or pair to a rater, queueing pairs, and settling items
 * against the estimate. What they need of the stream pool they ask the streams module
 * (src/modules/streams/stream-reads.ts); they name no table of its.
 *
 * A lease is one statement with FOR UPDATE SKIP LOCKED, so raters asking at the same moment get
 * different items; it is taken among the active streams' ids (passed in), so an item of an
 * inactive stream is never handed out.
 */
import type { EntityManager } from '../../db.ts';
import type { EvaluationItemDto, PairItemDto } from '../../shared/api/evaluation.ts';
import { MIN_JUDGEMENTS, PRIORITY, refillVerdict, shownToRater, TARGET_CONFIDENCE, type Standing } from '../../shared/evaluation/queue-rules.ts';
import { activeStreamIds, establishedStreamIds, streamsShown, streamsToRate, type StreamShown } from '../streams/stream-reads.ts';

const CONTESTED = 'Raters disagree';
const CHECK_REASON = 'New rater check';
const PAIR_REASON = 'Which looks better?';
/**
 * Checks a new rater gets before ordinary items: one starts measuring them, and their answers on
 * ordinary items go on measuring them (bench:raters, seed 7: with three checks each τ-b ended at
 * 0.727, with one at 0.768; no difference below 4 judgements per stream).
 */
const CHECKS_PER_RATER = 1;

/** How long a drawn item stays with its rater. */
export const LEASE_MINUTES = 2;

/** A Postgres int[] literal, passed as a parameter (`?::int[]`). */
const intArray = (ids: readonly number[]) => `{${ids.join(',')}}`;

/**
 * Queues every active stream that is not offline, has no pending item and was not done in the
 * last day, with its reason and priority (`refillVerdict`). Two refills at once queue a stream
 * once (the pending item's unique index). Returns how many it queued.
 */
export async function refillQueue(em: EntityManager, now = new Date()): Promise<number> {
  const queued = await em.execute<{ stream_id: number }[]>(
    `select distinct stream_id from evaluation_queue where kind = 'rate' and (status = 'pending' or completed_at > now() - interval '1 day')`,
    [],
    'all',
  );
  const streams = await streamsToRate(em, queued.map((q) => q.stream_id));
  if (streams.length === 0) return 0;
  const rows = await em.execute<{ id: number }[]>(
    `insert into evaluation_queue (stream_id, priority, reason)
      select (r.item->>'id')::int, (r.item->>'priority')::int, r.item->>'reason' from jsonb_array_elements(?::jsonb) with ordinality as r(item, n)
      where not exists (select 1 from evaluation_queue q where q.stream_id = (r.item->>'id')::int and q.kind = 'rate' and (q.status = 'pending' or q.completed_at > now() - interval '1 day'))
      order by r.n
      on conflict (stream_id) where status = 'pending' and kind = 'rate' do nothing
      returning id`,
    [JSON.stringify(streams.map((s) => ({ id: s.id, ...refillVerdict(s, now) })))],
    'all',
  );
  return rows.length;
}

/**
 * A new rater's check: a stream whose human answer is established (confidence at the target from
 * enough raters) that they have not rated, queued for them alone. Their answer measures them
 * against the consensus. False when there is none, they hold an item, or had their checks.
 */
export async function makeCheckItem(em: EntityManager, evaluatorId: string): Promise<boolean> {
  const holds = `exists (select 1 from evaluation_queue q where q.status = 'pending' and q.assigned_to = ? and q.assigned_at > now() - interval '${LEASE_MINUTES} minutes')`;
  const checked = `(select count(*) from human_quality_evaluations e join evaluation_queue q on q.id = e.queue_id where e.evaluator_id = ? and q.kind = 'check') >= ${CHECKS_PER_RATER}`;
  const [busy] = await em.execute<{ busy: boolean }[]>(`select ${holds} or ${checked} as busy`, [evaluatorId, evaluatorId], 'all');
  if (busy?.busy) return false;
  const established = await establishedStreamIds(em, TARGET_CONFIDENCE, MIN_JUDGEMENTS);
  if (established.length === 0) return false;
  // The same conditions again in the insert: another request of this rater may have got there first.
  const rows = await em.execute<{ id: number }[]>(
    `insert into evaluation_queue (stream_id, kind, priority, reason, assigned_to, assigned_at)
      select s.id, 'check', ?, ?, ?, now() from unnest(?::int[]) as s(id)
      where not exists (select 1 from human_quality_evaluations e where e.stream_id = s.id and e.evaluator_id = ?)
        and not ${holds} and not ${checked}
      order by random() limit 1
      returning id`,
    [PRIORITY[CHECK_REASON], CHECK_REASON, evaluatorId, intArray(established), evaluatorId, evaluatorId, evaluatorId],
    'all',
  );
  return rows.length > 0;
}

/** The stream's fields a rater sees, or an error: a leased item's stream cannot go while the lease's transaction holds its row. */
function shown(streams: ReadonlyMap<number, StreamShown>, id: number): StreamShown {
  const stream = streams.get(id);
  if (!stream) throw new Error(`Stream ${id} of a leased item is gone`);
  return stream;
}

/**
 * The next item for a rater, leased to them for LEASE_MINUTES (SKIP LOCKED settles raters asking
 * at the same moment; one already leased to this rater comes back to them); without a rater id
 * (a page that has not made one yet), the item a new rater would get, leased to nobody. Contested
 * items ("Raters disagree") go first to trusted raters and last to everyone else; a check is only
 * ever drawn by the new rater it was made for, and raters are never told it is one.
 */
export async function nextItem(em: EntityManager, evaluatorId: string | null, standing: Standing = 'regular'): Promise<EvaluationItemDto | null> {
  const active = await activeStreamIds(em);
  if (active.length === 0) return null;
  const [item] = await em.execute<{ queueId: number; streamId: number; kind: 'rate' | 'check'; priority: number; reason: string; previousEvaluations: number }[]>(
    `with candidate as (
        select q.id from evaluation_queue q
        where q.status = 'pending' and q.stream_id = any(?::int[]) and (q.kind = 'rate' or (q.kind = 'check' and q.assigned_to = ?))
          and (q.assigned_to is null or q.assigned_to = ? or q.assigned_at < now() - interval '${LEASE_MINUTES} minutes')
          and not exists (select 1 from human_quality_evaluations e
            where e.stream_id = q.stream_id and e.evaluator_id = ? and e.created_at > now() - interval '24 hours')
        order by (q.assigned_to is not distinct from ?) desc,
          case when q.reason = '${CONTESTED}' then ? else 1 end,
          q.priority desc, q.created_at, q.id
        limit 1 for update of q skip locked)
      update evaluation_queue q set assigned_to = coalesce(?::text, q.assigned_to), assigned_at = case when ?::text is null then q.assigned_at else now() end
      from candidate where q.id = candidate.id
      returning q.id as "queueId", q.stream_id as "streamId", q.kind, q.priority, q.reason,
        (select count(*)::int from human_quality_evaluations e where e.stream_id = q.stream_id and not e.skipped) as "previousEvaluations"`,
    [intArray(active), evaluatorId, evaluatorId, evaluatorId, evaluatorId, standing === 'trusted' ? 0 : 2, evaluatorId, evaluatorId],
    'all',
  );
  if (!item) return null;
  const stream = shown(await streamsShown(em, [item.streamId]), item.streamId);
  const told = shownToRater(item, item.previousEvaluations);
  return {
    queueId: item.queueId,
    streamId: item.streamId,
    streamUrl: stream.url,
    fallbackUrl: stream.fallbackUrl,
    streamName: stream.name,
    category: stream.category,
    priority: told.priority,
    reason: told.reason,
    previousEvaluations: item.previousEvaluations,
  };
}

/** The next pair for a rater ("which looks better?"), leased to them; null when none is waiting. */
export async function nextPair(em: EntityManager, evaluatorId: string): Promise<PairItemDto | null> {
  const active = await activeStreamIds(em);
  if (active.length < 2) return null;
  const [pair] = await em.execute<{ queueId: number; reason: string; leftId: number; rightId: number }[]>(
    `with candidate as (
        select q.id from evaluation_queue q
        where q.status = 'pending' and q.kind = 'compare' and q.stream_id = any(?::int[]) and q.partner_stream_id = any(?::int[])
          and (q.assigned_to is null or q.assigned_to = ? or q.assigned_at < now() - interval '${LEASE_MINUTES} minutes')
          and not exists (select 1 from pairwise_evaluations e where e.queue_id = q.id and e.evaluator_id = ?)
        order by (q.assigned_to is not distinct from ?) desc, q.priority desc, q.created_at, q.id
        limit 1 for update of q skip locked)
      update evaluation_queue q set assigned_to = ?, assigned_at = now()
      from candidate where q.id = candidate.id
      returning q.id as "queueId", q.reason, q.stream_id as "leftId", q.partner_stream_id as "rightId"`,
    [intArray(active), intArray(active), evaluatorId, evaluatorId, evaluatorId, evaluatorId],
    'all',
  );
  if (!pair) return null;
  const streams = await streamsShown(em, [pair.leftId, pair.rightId]);
  const side = (id: number) => {
    const s = shown(streams, id);
    return { streamId: id, streamUrl: s.url, fallbackUrl: s.fallbackUrl, streamName: s.name, category: s.category };
  };
  return { queueId: pair.queueId, kind: 'compare', left: side(pair.leftId), right: side(pair.rightId), reason: pair.reason };
}

/** Queues pairs worth asking (pairsToAsk) between active streams, each pair once while pending. */
export async function queuePairs(em: EntityManager, pairs: readonly [number, number][]): Promise<number> {
  if (pairs.length === 0) return 0;
  const active = new Set(await activeStreamIds(em, pairs.flat()));
  const asked = pairs.filter(([a, b]) => active.has(a) && active.has(b));
  if (asked.length === 0) return 0;
  const rows = await em.execute<{ id: number }[]>(
    `insert into evaluation_queue (stream_id, partner_stream_id, kind, priority, reason)
      select p.a, p.b, 'compare', ?, ? from jsonb_to_recordset(?::jsonb) as p(a int, b int)
      on conflict (least(stream_id, partner_stream_id), greatest(stream_id, partner_stream_id)) where status = 'pending' and kind = 'compare' do nothing
      returning id`,
    [PRIORITY[PAIR_REASON], PAIR_REASON, JSON.stringify(asked.map(([a, b]) => ({ a, b })))],
    'all',
  );
  return rows.length;
}

/** Settles items: done ones leave the queue, the rest say why they wait. */
export async function settleItems(em: EntityManager, done: readonly number[], waiting: readonly { id: number; reason: string; priority: number }[]): Promise<void> {
  if (done.length) {
    await em.execute(`update evaluation_queue set status = 'done', completed_at = now(), assigned_to = null, assigned_at = null where id = any(?::int[]) and status = 'pending'`, [intArray(done)], 'run');
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
