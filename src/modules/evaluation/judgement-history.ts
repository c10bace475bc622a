/**
 * The judgement model at scale (issue 42, item 5): a settling fits the newest JUDGED_WINDOW
 * answers one by one (src/shared/evaluation/judgements.ts) and, for everything older, a summary —
 * each stream's evidence as a Gaussian on its quality, each rater's record — so its cost does not
 * grow with the history. After each settling, what is past the window (and older than FOLD_AFTER_MS,
 * so an answer still being written is never skipped) is folded into the summary under the
 * consensus and weights that settling found: an absolute rating adds its rater's weight at its
 * value; a comparison adds, for each side, the Laplace approximation of its term around the
 * settled scores (precision w·p(1−p)/S², centred where one Newton step would take the side);
 * each answer adds to its rater's deviation as judge() counts it. One fold at a time across
 * nodes (an advisory lock); a fold that finds another node's already done does nothing.
 */
import type { EntityManager } from '../../db.ts';
import { missingStreams } from '../streams/stream-reads.ts';
import { PAIR_SCALE, type Comparison, type History, type Judgements, type Rating } from '../../shared/evaluation/judgements.ts';

/** Answers a settling fits one by one, at most (the newest). */
export const JUDGED_WINDOW = 1_000;
/** An answer is folded only once it is this old (ms): one whose insert is still open has a lower id than a committed one. */
export const FOLD_AFTER_MS = 60_000;
/** A comparison moves its side's folded centre by at most this much (1–5 scale). */
const MAX_PAIR_SHIFT = 1;

export interface Answered {
  id: number;
  at: number;
}

export interface Window {
  ratings: (Rating & Answered)[];
  comparisons: (Comparison & Answered)[];
  history: History;
  folds: { rating: number; comparison: number };
}

/** The answers not folded yet, and the summary of those that are — one snapshot. */
export async function judgementWindow(em: EntityManager): Promise<Window> {
  return em.transactional(
    async (tx) => {
      const folds = await tx.execute<{ kind: 'rating' | 'comparison'; last_id: number }[]>('select kind, last_id from judgement_folds', [], 'all');
      const mark = { rating: 0, comparison: 0 };
      for (const f of folds) mark[f.kind] = Number(f.last_id);
      const [ratings, comparisons, items, raters] = await Promise.all([
        tx.execute<{ id: number; item: number; rater: string; value: number; at: Date }[]>(
          'select id, stream_id as item, evaluator_id as rater, overall as value, created_at as at from human_quality_evaluations where not skipped and id > ?',
          [mark.rating],
          'all',
        ),
        tx.execute<{ id: number; left: number; right: number; rater: string; outcome: number; at: Date }[]>(
          `select id, left_stream_id as "left", right_stream_id as "right", evaluator_id as rater, created_at as at,
              case choice when 'left' then 1 when 'right' then 0 else 0.5 end::float as outcome
            from pairwise_evaluations where choice <> 'skip' and id > ?`,
          [mark.comparison],
          'all',
        ),
        tx.execute<{ stream_id: number; mean: number; precision: number; count: number }[]>('select stream_id, mean, precision, count from judgement_items', [], 'all'),
        tx.execute<{ evaluator_id: string; answers: number; squared: number; deviation: number }[]>('select evaluator_id, answers, squared, deviation from judgement_raters', [], 'all'),
      ]);
      return {
        ratings: ratings.map((r) => ({ id: r.id, item: r.item, rater: r.rater, value: r.value, at: new Date(r.at).getTime() })),
        comparisons: comparisons.map((c) => ({ id: c.id, left: c.left, right: c.right, rater: c.rater, outcome: Number(c.outcome) as Comparison['outcome'], at: new Date(c.at).getTime() })),
        history: {
          items: new Map(items.map((i) => [i.stream_id, { mean: Number(i.mean), precision: Number(i.precision), count: Number(i.count) }])),
          raters: new Map(raters.map((r) => [r.evaluator_id, { answers: Number(r.answers), squared: Number(r.squared), deviation: Number(r.deviation) }])),
        },
        folds: mark,
      };
    },
    { isolationLevel: 'repeatable read' },
  );
}

/** Both kinds together, the newest given first. */
const newestFirst = (ratings: readonly Answered[], comparisons: readonly Answered[]): Answered[] => [...ratings, ...comparisons].sort((x, y) => y.at - x.at || y.id - x.id);

/**
 * Of each kind, the answers to fold: the oldest beyond the newest `window` (both kinds counted
 * together, by when they were given), older than FOLD_AFTER_MS — as a prefix by id, so "folded up
 * to id N" stays true.
 */
export function toFold<R extends Answered, C extends Answered>(ratings: readonly R[], comparisons: readonly C[], now: number, window = JUDGED_WINDOW): { ratings: R[]; comparisons: C[] } {
  const past = new Set<Answered>(newestFirst(ratings, comparisons).slice(window).filter((a) => a.at <= now - FOLD_AFTER_MS));
  const prefix = <A extends Answered>(list: readonly A[]) => {
    const sorted = [...list].sort((x, y) => x.id - y.id);
    const end = sorted.findIndex((a) => !past.has(a));
    return end < 0 ? sorted : sorted.slice(0, end);
  };
  return { ratings: prefix(ratings), comparisons: prefix(comparisons) };
}

/** The newest `count` answers of a window (both kinds together, by when they were given). */
export function toNewest<W extends Pick<Window, 'ratings' | 'comparisons'>>(window: W, count: number): { ratings: W['ratings']; comparisons: W['comparisons'] } {
  const kept = new Set<Answered>(newestFirst(window.ratings, window.comparisons).slice(0, count));
  return { ratings: window.ratings.filter((a) => kept.has(a)), comparisons: window.comparisons.filter((a) => kept.has(a)) };
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const clamp = (v: number, limit: number) => Math.max(-limit, Math.min(limit, v));

/**
 * The summary with these answers folded in, under what `judged` found (pure: the keeper's fold,
 * and tests/unit/judgement-history.test.ts's replay of it).
 */
export function foldInto(history: History, fold: { ratings: readonly Rating[]; comparisons: readonly Comparison[] }, judged: Judgements): History & {
  items: Map<number, { mean: number; precision: number; count: number }>;
  raters: Map<string, { answers: number; squared: number; deviation: number }>;
} {
  const items = new Map([...history.items].map(([id, h]) => [id, { ...h }]));
  const raters = new Map([...history.raters].map(([id, h]) => [id, { ...h }]));
  const scoreOf = (item: number) => judged.items.get(item)?.score ?? 3;
  const weightOf = (rater: string) => judged.raters.get(rater)?.weight ?? 0;
  const itemOf = (id: number) => items.get(id) ?? items.set(id, { mean: 3, precision: 0, count: 0 }).get(id)!;
  const raterOf = (id: string) => raters.get(id) ?? raters.set(id, { answers: 0, squared: 0, deviation: 0 }).get(id)!;
  const addEvidence = (id: number, at: number, precision: number) => {
    const it = itemOf(id);
    if (precision > 0) it.mean = (it.mean * it.precision + at * precision) / (it.precision + precision);
    it.precision += precision;
    it.count++;
  };
  for (const r of fold.ratings) {
    if (!Number.isFinite(r.value)) continue;
    const score = scoreOf(r.item);
    addEvidence(r.item, r.value, weightOf(r.rater));
    const rater = raterOf(r.rater);
    rater.answers++;
    rater.squared += (r.value - score) ** 2;
    rater.deviation += Math.min(1, Math.abs(r.value - score) / 2);
  }
  for (const c of fold.comparisons) {
    const [left, right] = [scoreOf(c.left), scoreOf(c.right)];
    const p = sigmoid((left - right) / PAIR_SCALE);
    const w = weightOf(c.rater);
    const curvature = p * (1 - p);
    const shift = clamp(((c.outcome - p) * PAIR_SCALE) / Math.max(curvature, 1e-6), MAX_PAIR_SHIFT);
    addEvidence(c.left, left + shift, (w * curvature) / PAIR_SCALE ** 2);
    addEvidence(c.right, right - shift, (w * curvature) / PAIR_SCALE ** 2);
    const pAnswer = c.outcome === 1 ? p : c.outcome === 0 ? 1 - p : 1 - Math.abs(p - 0.5);
    const rater = raterOf(c.rater);
    rater.answers++;
    rater.squared += 8 * (1 - pAnswer) ** 2;
    rater.deviation += c.outcome === 1 ? 1 - p : c.outcome === 0 ? p : Math.abs(p - 0.5) * 2;
  }
  return { items, raters };
}

/**
 * Folds the answers past the window into the summary, under what `judged` (the settling over
 * `window`) found. Returns how many were folded (0: none past it, or another node folded first).
 */
export async function foldPast(em: EntityManager, window: Window, judged: Judgements, now: number): Promise<number> {
  const fold = toFold(window.ratings, window.comparisons, now);
  if (fold.ratings.length + fold.comparisons.length === 0) return 0;
  return em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(hashtext(?))', ['nature-wall:judgement-folds'], 'run');
    const marks = await tx.execute<{ kind: string; last_id: number }[]>('select kind, last_id from judgement_folds', [], 'all');
    if (marks.some((m) => Number(m.last_id) !== window.folds[m.kind as 'rating' | 'comparison'])) return 0;
    const { items, raters } = foldInto(window.history, fold, judged);
    const folded = [...new Set([...fold.ratings.map((r) => r.item), ...fold.comparisons.flatMap((c) => [c.left, c.right])])];
    // A stream deleted since the window was read takes its summary with it.
    const gone = new Set(await missingStreams(tx, folded));
    const touchedItems = folded.filter((id) => !gone.has(id));
    const touchedRaters = new Set([...fold.ratings, ...fold.comparisons].map((a) => a.rater));
    await tx.execute(
      `insert into judgement_items (stream_id, mean, precision, count)
        select v.id, v.mean, v.precision, v.count from jsonb_to_recordset(?::jsonb) as v(id int, mean float8, precision float8, count int)
        on conflict (stream_id) do update set mean = excluded.mean, precision = excluded.precision, count = excluded.count`,
      [JSON.stringify([...touchedItems].map((id) => ({ id, ...items.get(id)! })))],
      'run',
    );
    await tx.execute(
      `insert into judgement_raters (evaluator_id, answers, squared, deviation)
        select v.id, v.answers, v.squared, v.deviation from jsonb_to_recordset(?::jsonb) as v(id text, answers int, squared float8, deviation float8)
        on conflict (evaluator_id) do update set answers = excluded.answers, squared = excluded.squared, deviation = excluded.deviation`,
      [JSON.stringify([...touchedRaters].map((id) => ({ id, ...raters.get(id)! })))],
      'run',
    );
    const last = (list: readonly Answered[], before: number) => (list.length ? Math.max(...list.map((a) => a.id)) : before);
    await tx.execute("update judgement_folds set last_id = ? where kind = 'rating'", [last(fold.ratings, window.folds.rating)], 'run');
    await tx.execute("update judgement_folds set last_id = ? where kind = 'comparison'", [last(fold.comparisons, window.folds.comparison)], 'run');
    return fold.ratings.length + fold.comparisons.length;
  });
}
