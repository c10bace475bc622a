/**
 * The one model of absolute ratings and comparisons (src/shared/evaluation/judgements.ts), on
 * scripted populations and by property (fast-check): what a model of absolute ratings must do
 * (rank as the consistent raters do, bound what newcomers can move, gain confidence from
 * agreement) and what comparisons add.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COLLUSION_BOUND,
  COLLUSION_SHARE,
  EPSILON,
  judge,
  kendallTauB,
  NEWCOMER_SHARE,
  PAIR_SCALE,
  PRIOR_MEAN,
  PRIOR_VARIANCE,
  PRIOR_WEIGHT,
  SHRINK,
  type Comparison,
  type Rating,
} from '../../src/shared/evaluation/judgements.ts';
import { clipRating, seeded } from '../support/seeded.ts';

const clip = clipRating;

describe('with absolute ratings only', () => {
  it('weighs a lone rater by their distance from the prior, and scores by the closed form', () => {
    // Worked by hand from the formulas the module states: with nobody else, the others' consensus
    // is the prior (3), so msd = ((5−3)² + (1−3)² + (3−3)² + α·σ0²) / (3 + α) = (8 + 2) / 4 = 2.5,
    // w = 1 / (2.5 + 0.1)² = 0.147929…, and s_i = (k0·3 + w·x_i) / (k0 + w).
    expect([PRIOR_MEAN, PRIOR_WEIGHT, PRIOR_VARIANCE, SHRINK, EPSILON]).toEqual([3, 0.5, 2, 1, 0.1]);
    const { items, raters } = judge([
      { item: 1, rater: 'lone', value: 5 },
      { item: 2, rater: 'lone', value: 1 },
      { item: 3, rater: 'lone', value: 3 },
    ]);
    expect(raters.get('lone')!.weight).toBeCloseTo(0.147929, 5);
    expect(items.get(1)!.score).toBeCloseTo(3.456621, 5); // (1.5 + 0.739645) / 0.647929
    expect(items.get(2)!.score).toBeCloseTo(2.543379, 5); // (1.5 + 0.147929) / 0.647929
    expect(items.get(3)!.score).toBeCloseTo(3, 9);
  });

  it('scores each stream by the closed form (k0·μ0 + Σ w·x) / (k0 + Σ w) of its raters\' weights', () => {
    const rng = seeded(7);
    const ratings: Rating[] = [];
    for (let item = 1; item <= 8; item++) for (let r = 0; r < 6; r++) ratings.push({ item, rater: `r${r}`, value: clip(1 + (item % 5) + rng.normal() * 0.7) });
    const { items, raters } = judge(ratings);
    const weights = [...raters.values()].map((r) => r.weight);
    expect(Math.max(...weights) / Math.min(...weights)).toBeGreaterThan(1.01); // the raters are weighed, not counted
    for (let item = 1; item <= 8; item++) {
      const own = ratings.filter((r) => r.item === item);
      const w = own.map((r) => raters.get(r.rater)!.weight);
      const closed = (PRIOR_WEIGHT * PRIOR_MEAN + own.reduce((sum, r, i) => sum + w[i]! * r.value, 0)) / (PRIOR_WEIGHT + w.reduce((a, b) => a + b, 0));
      expect(items.get(item)!.score).toBeCloseTo(closed, 6);
    }
  });
});

const round = (v: number) => Math.min(5, Math.max(1, Math.round(v)));

/** Streams with true qualities, consistent raters (true value ± 1 at most), a constant rater, a random rater. */
const panel = fc
  .record({
    // Streams that differ (some poor, some good): a constant key cannot then pass for judgement.
    truth: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 6, maxLength: 12 }).filter((t) => Math.min(...t) <= 2 && Math.max(...t) >= 4),
    raters: fc.integer({ min: 4, max: 6 }),
    noise: fc.array(fc.constantFrom(-1, 0, 0, 0, 1), { minLength: 12 * 6, maxLength: 12 * 6 }),
    constant: fc.integer({ min: 1, max: 5 }),
    random: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 12, maxLength: 12 }),
  })
  .map(({ truth, raters, noise, constant, random }) => {
    const ratings: Rating[] = [];
    truth.forEach((t, item) => {
      for (let r = 0; r < raters; r++) ratings.push({ item, rater: `consistent-${r}`, value: round(t + noise[item * 6 + r]!) });
      ratings.push({ item, rater: 'constant', value: constant });
      ratings.push({ item, rater: 'random', value: random[item]! });
    });
    return { truth, ratings };
  });

const consistentMean = (ratings: readonly Rating[], item: number) => {
  const own = ratings.filter((r) => r.item === item && r.rater.startsWith('consistent-'));
  return own.reduce((s, r) => s + r.value, 0) / own.length;
};

describe('raters of absolute ratings, by property', () => {
  it('rank streams as the consistent raters do, whatever the constant and random raters press', () => {
    fc.assert(
      fc.property(panel, ({ truth, ratings }) => {
        const { items } = judge(ratings);
        // Every pair the consistent raters clearly separate (by a point or more) keeps its order.
        for (let a = 0; a < truth.length; a++) {
          for (let b = 0; b < truth.length; b++) {
            if (consistentMean(ratings, a) - consistentMean(ratings, b) >= 1) expect(items.get(a)!.score).toBeGreaterThan(items.get(b)!.score);
          }
        }
      }),
      { numRuns: 30 },
    );
  });

  // Newcomers are never judged on and together weigh at most s = NEWCOMER_SHARE of an item's
  // established raters, so on 1–5 they move it by at most 4·s/(1 + s) ≈ 0.36, however many.
  const newcomerBound = (4 * NEWCOMER_SHARE) / (1 + NEWCOMER_SHARE);
  it(`let no number of newcomers move a stream by ${newcomerBound.toFixed(2)} or more`, () => {
    fc.assert(
      fc.property(panel, fc.integer({ min: 1, max: 80 }), fc.constantFrom(1, 5), fc.nat({ max: 5 }), ({ ratings }, newcomers, key, target) => {
        const item = target % new Set(ratings.map((r) => r.item)).size;
        const before = judge(ratings).items.get(item)!.score;
        const spam = Array.from({ length: newcomers }, (_, i) => ({ item, rater: `fresh-${i}`, value: key }));
        const after = judge([...ratings, ...spam]).items.get(item)!.score;
        expect(Math.abs(after - before)).toBeLessThan(newcomerBound);
      }),
      { numRuns: 30 },
    );
  });

  it('gain confidence from agreeing ratings and lose it to disagreeing ones', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 2, max: 8 }), (value, n) => {
        // Established raters (history on other streams) rate stream 0.
        const history: Rating[] = [];
        for (let r = 0; r < 10; r++) for (let item = 1; item <= 5; item++) history.push({ item, rater: `r${r}`, value: 3 });
        const agree = (k: number) => Array.from({ length: k }, (_, r) => ({ item: 0, rater: `r${r}`, value }));
        const fewer = judge([...history, ...agree(n)]).items.get(0)!.confidence;
        const more = judge([...history, ...agree(n + 2)]).items.get(0)!.confidence;
        expect(more).toBeGreaterThan(fewer);
        const split = [...agree(n), { item: 0, rater: 'r9', value: value >= 3 ? 1 : 5 }, { item: 0, rater: 'r8', value: value >= 3 ? 1 : 5 }];
        expect(judge([...history, ...split]).items.get(0)!.confidence).toBeLessThan(more);
      }),
      { numRuns: 30 },
    );
  });

  it('start a stream with a single new rating near the prior, unsure', () => {
    const single = judge([{ item: 1, rater: 'new', value: 5 }]).items.get(1)!;
    expect(single.score).toBeGreaterThan(3);
    expect(single.score).toBeLessThan(4);
    expect(single.confidence).toBeLessThan(0.1);
    expect(judge([]).items.size).toBe(0);
  });
});

describe('pairwise comparisons alone', () => {
  it('rank 10 streams with τ-b ≥ 0.9 from 200 judgements (σ 0.5)', () => {
    const rng = seeded(42);
    const truth = Array.from({ length: 10 }, (_, i) => 1 + (4 * i) / 9);
    const comparisons: Comparison[] = [];
    for (let n = 0; n < 200; n++) {
      const left = Math.floor(rng.next() * 10);
      let right = Math.floor(rng.next() * 9);
      if (right >= left) right++;
      const seen = truth[left]! - truth[right]! + (rng.normal() - rng.normal()) * 0.5;
      comparisons.push({ left: left + 1, right: right + 1, rater: `r${n % 8}`, outcome: seen > 0 ? 1 : 0 });
    }
    const result = judge([], comparisons);
    const scores = truth.map((_, i) => result.items.get(i + 1)!.score);
    expect(kendallTauB(scores, truth)).toBeGreaterThanOrEqual(0.9);
  });

  it('weigh a coin-flipping rater far below careful ones', () => {
    const rng = seeded(3);
    const truth = [1, 2, 3, 4, 5];
    const comparisons: Comparison[] = [];
    for (let n = 0; n < 300; n++) {
      const left = Math.floor(rng.next() * 5);
      const right = (left + 1 + Math.floor(rng.next() * 4)) % 5;
      const rater = `r${n % 5}`;
      const outcome = rater === 'r4' ? (rng.next() < 0.5 ? 1 : 0) : truth[left]! > truth[right]! ? 1 : 0;
      comparisons.push({ left, right, rater, outcome });
    }
    const { raters } = judge([], comparisons);
    expect(raters.get('r4')!.weight).toBeLessThan(raters.get('r0')!.weight / 3);
    expect(raters.get('r0')!.agreement).toBeGreaterThan(raters.get('r4')!.agreement);
  });
});

describe('both kinds together', () => {
  it('agree with each other in one score', () => {
    const ratings: Rating[] = [
      { item: 1, rater: 'a', value: 4 },
      { item: 1, rater: 'b', value: 4 },
      { item: 2, rater: 'a', value: 2 },
      { item: 2, rater: 'b', value: 2 },
      { item: 3, rater: 'a', value: 3 },
      { item: 3, rater: 'b', value: 3 },
    ];
    const comparisons: Comparison[] = [
      { left: 1, right: 2, rater: 'a', outcome: 1 },
      { left: 3, right: 1, rater: 'b', outcome: 0 },
      { left: 2, right: 3, rater: 'a', outcome: 0 },
    ];
    const { items } = judge(ratings, comparisons);
    expect(items.get(1)!.score).toBeGreaterThan(items.get(3)!.score);
    expect(items.get(3)!.score).toBeGreaterThan(items.get(2)!.score);
  });
});

describe('collusion has a bound', () => {
  it(`raters who build history and then always promote one stream move it by less than ${COLLUSION_BOUND} while they are ${COLLUSION_SHARE * 100} % of its raters`, () => {
    const rng = seeded(11);
    const truth = Array.from({ length: 20 }, () => 1 + rng.next() * 4);
    const target = truth.indexOf(Math.min(...truth));
    const ratings: Rating[] = [];
    for (let r = 0; r < 10; r++) {
      const colluder = r < 2; // 20 %
      for (let item = 0; item < truth.length; item++) {
        const honest = clip(truth[item]! + rng.normal() * 0.7);
        ratings.push({ item, rater: `r${r}`, value: colluder && item === target ? 5 : honest });
      }
    }
    const honestOnly = judge(ratings.filter((r) => !(r.item === target && (r.rater === 'r0' || r.rater === 'r1'))));
    const withColluders = judge(ratings);
    const moved = withColluders.items.get(target)!.score - honestOnly.items.get(target)!.score;
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(COLLUSION_BOUND);
    expect(moved).toBeLessThan(1); // one grade
  });
});

describe('kendallTauB', () => {
  it('is 1 for the same order, −1 for the reverse, and handles ties', () => {
    expect(kendallTauB([1, 2, 3], [10, 20, 30])).toBe(1);
    expect(kendallTauB([1, 2, 3], [3, 2, 1])).toBe(-1);
    expect(kendallTauB([1, 1, 2], [1, 2, 3])).toBeCloseTo(0.8165, 3);
  });

  it('the scale: a point apart, the better wins 88 % of the time', () => {
    expect(1 / (1 + Math.exp(-1 / PAIR_SCALE))).toBeCloseTo(0.88, 2);
  });
});

describe('the scale', () => {
  it('keeps every score within 1–5, even for a stream that wins every pair by far', () => {
    const comparisons = Array.from({ length: 200 }, (_, i) => ({ left: 1, right: 2, rater: `r${i % 6}`, outcome: 1 as const }));
    const { items } = judge([], comparisons);
    expect(items.get(1)!.score).toBe(5);
    expect(items.get(2)!.score).toBe(1);
  });
});
