/**
 * The judgement model at scale (issue 42, item 5): a settling fits the newest answers and a
 * summary of the older ones (src/modules/evaluation/judgement-history.ts). Replayed here without a
 * database on a population like bench:raters' — answers arriving in batches, each settling
 * folding what passed its window — the ranking it ends with is as good as the full fit over every
 * answer, spammers still weigh little, and what is folded is each answer once, in id order.
 */
import { describe, expect, it } from 'vitest';
import { FOLD_AFTER_MS, foldInto, toFold } from '../../src/modules/evaluation/judgement-history.ts';
import { judge, kendallTauB, NO_HISTORY, PAIR_SCALE, type Comparison, type History, type Rating } from '../../src/shared/evaluation/judgements.ts';
import { clipRating, seeded } from '../support/seeded.ts';

const ITEMS = 120;
const ANSWERS = 2_400;
const WINDOW = 300;
const BATCH = 100;

function population(seed: number) {
  const { next, normal } = seeded(seed);
  const truth = Array.from({ length: ITEMS }, () => 1 + 4 * next());
  const raters = Array.from({ length: 40 }, (_, i) => ({ id: `r${i}`, kind: i < 6 ? 'constant' : i < 12 ? 'uniform' : 'consistent' }));
  const ratings: (Rating & { id: number; at: number })[] = [];
  const comparisons: (Comparison & { id: number; at: number })[] = [];
  for (let n = 0; n < ANSWERS; n++) {
    const rater = raters[Math.floor(next() * raters.length)]!;
    const at = n * 1_000;
    if (next() < 0.7) {
      const item = Math.floor(next() * ITEMS);
      const value = rater.kind === 'constant' ? 5 : rater.kind === 'uniform' ? 1 + Math.floor(next() * 5) : clipRating(truth[item]! + 0.7 * normal());
      ratings.push({ id: n, at, item, rater: rater.id, value });
    } else {
      const left = Math.floor(next() * ITEMS);
      const right = (left + 1 + Math.floor(next() * (ITEMS - 1))) % ITEMS;
      const p = 1 / (1 + Math.exp(-(truth[left]! - truth[right]!) / PAIR_SCALE));
      const outcome = rater.kind === 'constant' ? 1 : rater.kind === 'uniform' ? (next() < 0.5 ? 1 : 0) : next() < p ? 1 : 0;
      comparisons.push({ id: n, at, left, right, rater: rater.id, outcome });
    }
  }
  return { truth, raters, ratings, comparisons };
}

describe('the judgement model over a window and a summary', () => {
  it('ranks as well as the full fit, and spammers still weigh little', () => {
    const { truth, raters, ratings, comparisons } = population(11);
    let history: History = NO_HISTORY;
    let open = { ratings: [] as typeof ratings, comparisons: [] as typeof comparisons };
    let folded = 0;
    let judged = judge([], [], history);
    for (let n = 0; n < ANSWERS; n += BATCH) {
      open = { ratings: [...open.ratings, ...ratings.filter((r) => r.id >= n && r.id < n + BATCH)], comparisons: [...open.comparisons, ...comparisons.filter((c) => c.id >= n && c.id < n + BATCH)] };
      judged = judge(open.ratings, open.comparisons, history);
      const fold = toFold(open.ratings, open.comparisons, (n + BATCH) * 1_000 + FOLD_AFTER_MS, WINDOW);
      history = foldInto(history, fold, judged);
      folded += fold.ratings.length + fold.comparisons.length;
      open = { ratings: open.ratings.filter((r) => !fold.ratings.includes(r)), comparisons: open.comparisons.filter((c) => !fold.comparisons.includes(c)) };
      expect(open.ratings.length + open.comparisons.length).toBeLessThanOrEqual(WINDOW);
    }
    // Every answer is either folded once or still open.
    expect(folded + open.ratings.length + open.comparisons.length).toBe(ANSWERS);
    expect([...history.raters.values()].reduce((sum, r) => sum + r.answers, 0)).toBe(folded);
    judged = judge(open.ratings, open.comparisons, history);
    const full = judge(ratings, comparisons);
    const ids = truth.map((_, i) => i);
    const tau = (j: typeof full) => kendallTauB(truth, ids.map((i) => j.items.get(i)?.score ?? 3));
    expect(tau(judged)).toBeGreaterThan(0.8);
    expect(tau(judged)).toBeGreaterThanOrEqual(tau(full) - 0.03);
    expect(kendallTauB(ids.map((i) => full.items.get(i)?.score ?? 3), ids.map((i) => judged.items.get(i)?.score ?? 3))).toBeGreaterThan(0.9);
    // Every item keeps all its answers in its count, and the spammers' weight stays below the honest raters'.
    expect([...judged.items.values()].reduce((sum, it) => sum + it.count, 0)).toBe([...full.items.values()].reduce((sum, it) => sum + it.count, 0));
    const weight = (kind: string) => raters.filter((r) => r.kind === kind).map((r) => judged.raters.get(r.id)!.weight).sort((a, b) => a - b);
    const honestMedian = weight('consistent')[Math.floor(weight('consistent').length / 2)]!;
    expect(Math.max(...weight('constant'), ...weight('uniform'))).toBeLessThan(honestMedian);
  }, 60_000);

  it('folds the oldest beyond the window, only once they are old enough, as a prefix by id', () => {
    const a = (id: number, at: number) => ({ id, at });
    const ratings = [a(1, 0), a(2, 1_000), a(5, 4_000), a(7, 100_000)];
    const comparisons = [a(3, 2_000), a(4, 3_000), a(6, 90_000)];
    // Window 3: the newest three (7, 6, 5) stay; of the rest, all are old enough at 100 s + a minute.
    expect(toFold(ratings, comparisons, 100_000 + FOLD_AFTER_MS, 3)).toEqual({ ratings: [a(1, 0), a(2, 1_000)], comparisons: [a(3, 2_000), a(4, 3_000)] });
    // At 62 s, only what is a minute old (ids 1 and 2, and 3 at 2 s) may go.
    expect(toFold(ratings, comparisons, 62_000, 3)).toEqual({ ratings: [a(1, 0), a(2, 1_000)], comparisons: [a(3, 2_000)] });
    // An older id still inside the window stops its kind's prefix (folded up to id N stays true).
    expect(toFold([a(1, 50_000), a(2, 0)], [], 200_000, 1)).toEqual({ ratings: [], comparisons: [] });
    expect(toFold(ratings, comparisons, 1e9, 10)).toEqual({ ratings: [], comparisons: [] });
  });
});
