/** The rater queue's rules (src/shared/evaluation/queue-rules.ts), table-tested. */
import { describe, expect, it } from 'vitest';
import { itemVerdict, MIN_JUDGEMENTS, pairsToAsk, RATINGS_CAP, standingOf, TARGET_CONFIDENCE } from '../../src/shared/evaluation/queue-rules.ts';

describe('itemVerdict', () => {
  it.each([
    ['never answered', undefined, { done: false, reason: 'Not yet evaluated' }],
    ['confident, from enough established raters', { answers: 4, established: MIN_JUDGEMENTS, confidence: TARGET_CONFIDENCE, spread: 0.2 }, { done: true }],
    ['confident, but its raters are new (spammers are new until judged)', { answers: 4, established: MIN_JUDGEMENTS - 1, confidence: 0.9, spread: 0 }, { done: false, reason: 'Low confidence' }],
    ['raters disagree', { answers: 5, established: 5, confidence: 0.3, spread: 1.6 }, { done: false, reason: 'Raters disagree' }],
    ['unsure', { answers: 2, established: 2, confidence: 0.2, spread: 0.3 }, { done: false, reason: 'Low confidence' }],
    ['at the cap, however contested', { answers: RATINGS_CAP, established: RATINGS_CAP, confidence: 0.1, spread: 3 }, { done: true }],
  ] as const)('%s', (_name, state, expected) => {
    expect(itemVerdict(state)).toMatchObject(expected);
  });

  it('asks sooner the less certain an item is', () => {
    const priority = (confidence: number) => {
      const v = itemVerdict({ answers: 2, established: 2, confidence, spread: 0 });
      return v.done ? -1 : v.priority;
    };
    expect(priority(0)).toBeGreaterThan(priority(0.3));
    expect(priority(0.3)).toBeGreaterThan(priority(TARGET_CONFIDENCE - 0.01));
  });
});

describe('standingOf', () => {
  const weights = [10, 8, 4, 2, 1];
  it.each([
    [2, 10, 'new'],
    [5, undefined, 'new'],
    [5, 10, 'trusted'],
    [5, 4, 'trusted'],
    [5, 2, 'regular'],
  ] as const)('%i answers at weight %s → %s', (answers, weight, expected) => {
    expect(standingOf(answers, weight, weights, 3)).toBe(expected);
  });
});

describe('pairsToAsk', () => {
  it('pairs close scores, the least certain first, each stream once', () => {
    const items = [
      { id: 1, score: 4.0, confidence: 0.6 },
      { id: 2, score: 4.3, confidence: 0.1 },
      { id: 3, score: 4.5, confidence: 0.1 },
      { id: 4, score: 1.5, confidence: 0.2 },
    ];
    expect(pairsToAsk(items, 5)).toEqual([[2, 3]]);
    expect(pairsToAsk(items, 0)).toEqual([]);
    expect(pairsToAsk([{ id: 1, score: 3, confidence: 0 }, { id: 2, score: 5, confidence: 0 }], 3)).toEqual([]);
  });
});

describe('one answer', () => {
  it('is low confidence, never a dispute, however far from the prior', () => {
    expect(itemVerdict({ answers: 1, established: 1, confidence: 0.05, spread: 4 })).toMatchObject({ done: false, reason: 'Low confidence' });
  });
});
