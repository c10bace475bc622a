/**
 * The rating estimator (src/shared/evaluation/reliability.ts), by property (fast-check): a panel
 * of consistent raters plus a constant-key rater and a random rater ranks streams as the
 * consistent raters do; any number of spam ratings moves a stream by less than a stated bound;
 * confidence rises with agreeing ratings and falls with disagreeing ones.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimate, fuseScores, SPAM_BOUND, type Rating } from '../../src/shared/evaluation/reliability.ts';

const clamp = (v: number) => Math.min(5, Math.max(1, Math.round(v)));

/** Streams with true qualities, consistent raters (true value ± 1 at most), a constant rater, a random rater. */
const panel = fc
  .record({
    // Streams that differ (some poor, some good): a constant key cannot then pass for judgement.
    truth: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 6, maxLength: 14 }).filter((t) => Math.min(...t) <= 2 && Math.max(...t) >= 4),
    raters: fc.integer({ min: 4, max: 7 }),
    noise: fc.array(fc.constantFrom(-1, 0, 0, 0, 1), { minLength: 14 * 7, maxLength: 14 * 7 }),
    constant: fc.integer({ min: 1, max: 5 }),
    random: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 14, maxLength: 14 }),
  })
  .map(({ truth, raters, noise, constant, random }) => {
    const ratings: Rating[] = [];
    truth.forEach((t, item) => {
      for (let r = 0; r < raters; r++) ratings.push({ item, rater: `consistent-${r}`, value: clamp(t + noise[item * 7 + r]!) });
      ratings.push({ item, rater: 'constant', value: constant });
      ratings.push({ item, rater: 'random', value: random[item]! });
    });
    return { truth, ratings, raters };
  });

const consistentMean = (ratings: readonly Rating[], item: number) => {
  const own = ratings.filter((r) => r.item === item && r.rater.startsWith('consistent-'));
  return own.reduce((s, r) => s + r.value, 0) / own.length;
};

describe('estimate', () => {
  it('ranks streams as the consistent raters do, whatever the constant and random raters press', () => {
    fc.assert(
      fc.property(panel, ({ truth, ratings }) => {
        const { items, raters } = estimate(ratings);
        // Every pair the consistent raters clearly separate (by a point or more) keeps its order.
        for (let a = 0; a < truth.length; a++) {
          for (let b = 0; b < truth.length; b++) {
            if (consistentMean(ratings, a) - consistentMean(ratings, b) >= 1) {
              expect(items.get(a)!.score).toBeGreaterThan(items.get(b)!.score);
            }
          }
        }
        // (A constant key or random presses may by chance agree with most streams: only the ranking is asked of them.)
        expect(raters.size).toBeGreaterThan(2);
      }),
      { numRuns: 60 },
    );
  });

  it(`lets no number of spam ratings move a stream by ${SPAM_BOUND} or more`, () => {
    fc.assert(
      fc.property(panel, fc.integer({ min: 1, max: 300 }), fc.constantFrom(1, 5), fc.nat({ max: 5 }), ({ ratings }, spammers, key, target) => {
        const item = target % new Set(ratings.map((r) => r.item)).size;
        const before = estimate(ratings).items.get(item)!.score;
        const spam = Array.from({ length: spammers }, (_, i) => ({ item, rater: `fresh-${i}`, value: key }));
        // The constant-key rater spamming every other stream too changes nothing either.
        const after = estimate([...ratings, ...spam]).items.get(item)!.score;
        expect(Math.abs(after - before)).toBeLessThan(SPAM_BOUND);
      }),
      { numRuns: 60 },
    );
  });

  it('gains confidence from agreeing ratings and loses it to disagreeing ones', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 2, max: 8 }), (value, n) => {
        // Established raters (history on other streams) rate stream 0.
        const history: Rating[] = [];
        for (let r = 0; r < 10; r++) for (let item = 1; item <= 5; item++) history.push({ item, rater: `r${r}`, value: 3 });
        const agree = (k: number) => Array.from({ length: k }, (_, r) => ({ item: 0, rater: `r${r}`, value }));
        const fewer = estimate([...history, ...agree(n)]).items.get(0)!.confidence;
        const more = estimate([...history, ...agree(n + 2)]).items.get(0)!.confidence;
        expect(more).toBeGreaterThan(fewer);
        const split = [...agree(n), { item: 0, rater: 'r9', value: value >= 3 ? 1 : 5 }, { item: 0, rater: 'r8', value: value >= 3 ? 1 : 5 }];
        const disagreeing = estimate([...history, ...split]).items.get(0)!.confidence;
        expect(disagreeing).toBeLessThan(more);
      }),
      { numRuns: 60 },
    );
  });

  it('starts a stream with no ratings nowhere and one with a single new rating near the prior', () => {
    const single = estimate([{ item: 1, rater: 'new', value: 5 }]).items.get(1)!;
    expect(single.score).toBeGreaterThan(3);
    expect(single.score).toBeLessThan(4);
    expect(single.confidence).toBeLessThan(0.1);
    expect(estimate([]).items.size).toBe(0);
  });
});

describe('fuseScores', () => {
  it.each([
    [{ score: 80, confidence: 0.9 }, { score: null, confidence: null }, { score: 80, confidence: 0.9 }],
    [{ score: null, confidence: null }, { score: 4, confidence: 0.5 }, { score: 80, confidence: 0.5 }],
    [{ score: 80, confidence: 0.5 }, { score: 2, confidence: 0.5 }, { score: 60, confidence: 0.75 }],
    [{ score: 90, confidence: 0.9 }, { score: 1, confidence: 0.1 }, { score: 83, confidence: 0.91 }],
    [{ score: null, confidence: null }, { score: null, confidence: null }, { score: null, confidence: null }],
  ])('%o + %o → %o', (automatic, human, fused) => {
    expect(fuseScores(automatic, human)).toEqual(fused);
  });
});
