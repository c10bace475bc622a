/** The one model of absolute ratings and comparisons (src/shared/evaluation/judgements.ts), on scripted populations. */
import { describe, expect, it } from 'vitest';
import { COLLUSION_BOUND, COLLUSION_SHARE, judge, kendallTauB, PAIR_SCALE, type Comparison } from '../../src/shared/evaluation/judgements.ts';
import { estimate, type Rating } from '../../src/shared/evaluation/reliability.ts';
import { clipRating, seeded } from '../support/seeded.ts';

const clip = clipRating;

describe('with absolute ratings only', () => {
  it('gives the scores of the absolute-only estimator', () => {
    const rng = seeded(7);
    const ratings: Rating[] = [];
    for (let item = 1; item <= 8; item++) for (let r = 0; r < 6; r++) ratings.push({ item, rater: `r${r}`, value: clip(1 + (item % 5) + rng.normal() * 0.7) });
    const old = estimate(ratings);
    const now = judge(ratings);
    for (const [item, estimateOf] of old.items) expect(now.items.get(item)!.score).toBeCloseTo(estimateOf.score, 2);
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
