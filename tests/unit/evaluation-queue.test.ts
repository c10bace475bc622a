/** The rater queue's rules (src/shared/evaluation/queue-rules.ts), table-tested: one row per rule. */
import { describe, expect, it } from 'vitest';
import {
  FEWER_ANSWERS_FIRST,
  itemVerdict,
  MIN_JUDGEMENTS,
  NEW_STREAM_DAYS,
  pairsToAsk,
  priorityOf,
  RATINGS_CAP,
  refillVerdict,
  SCORE_GAP,
  shownToRater,
  standingOf,
  TARGET_CONFIDENCE,
  type StreamToRate,
} from '../../src/shared/evaluation/queue-rules.ts';

// The numbers below are written out by hand (not read from PRIORITY): the table is what the rules promise.
describe('itemVerdict', () => {
  it.each([
    ['never answered', undefined, { done: false, reason: 'Not yet evaluated', priority: 100 }],
    ['confident, from enough established raters', { answers: 4, established: MIN_JUDGEMENTS, confidence: TARGET_CONFIDENCE, spread: 0.2 }, { done: true }],
    // 50 − 20·0.9/0.5 = 14, less 4 answers
    ['confident, but its raters are new (spammers are new until judged)', { answers: 4, established: MIN_JUDGEMENTS - 1, confidence: 0.9, spread: 0 }, { done: false, reason: 'Low confidence', priority: 10 }],
    ['raters disagree: 80, less one an answer', { answers: 5, established: 5, confidence: 0.3, spread: 1.6 }, { done: false, reason: 'Raters disagree', priority: 75 }],
    // 50 − 20·0.2/0.5 = 42, less 2 answers
    ['unsure: the less certain and the fewer answers, the sooner', { answers: 2, established: 2, confidence: 0.2, spread: 0.3 }, { done: false, reason: 'Low confidence', priority: 40 }],
    ['at the cap, however contested', { answers: RATINGS_CAP, established: RATINGS_CAP, confidence: 0.1, spread: 3 }, { done: true }],
    ['one answer is low confidence, never a dispute, however far from the prior', { answers: 1, established: 1, confidence: 0.05, spread: 4 }, { done: false, reason: 'Low confidence', priority: 47 }],
  ] as const)('%s', (_name, state, expected) => {
    expect(itemVerdict(state)).toEqual(expected);
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

describe('priorityOf', () => {
  it.each([
    ['never rated first', 'Not yet evaluated', 0, 0, 100],
    ['a new rater\'s check as urgent (it is theirs alone)', 'New rater check', 0, 0, 100],
    ['then newly added streams', 'Newly added', 0, 0, 90],
    ['then disputes, between raters', 'Raters disagree', 0, 0, 80],
    ['or between the automatic and human scores', 'Automatic and human scores disagree', 0, 0, 80],
    ['pairs at 60 (ordered among pairs only)', 'Which looks better?', 0, 0, 60],
    ['low confidence: 50 at none', 'Low confidence', 0, 0, 50],
    ['low confidence: 40 halfway to the target', 'Low confidence', TARGET_CONFIDENCE / 2, 0, 40],
    ['low confidence: 30 just under the target', 'Low confidence', TARGET_CONFIDENCE - 0.001, 0, 30],
    ['the periodic re-check of a settled stream last', 'Periodic re-check', 0.6, 0, 10],
    ['one point less an answer', 'Raters disagree', 0, 6, 74],
    [`at most ${FEWER_ANSWERS_FIRST} points less`, 'Raters disagree', 0, 40, 65],
    ['never below 1', 'Periodic re-check', 0.6, 12, 1],
  ] as const)('%s', (_rule, reason, confidence, answers, expected) => {
    expect(priorityOf(reason, { confidence, answers })).toBe(expected);
  });

  it('puts every low-confidence item before every periodic re-check', () => {
    const lowest = priorityOf('Low confidence', { confidence: TARGET_CONFIDENCE - 0.001, answers: 1_000 });
    const highest = priorityOf('Periodic re-check', { confidence: 1, answers: 1 });
    expect(lowest).toBeGreaterThan(highest);
  });
});

describe('refillVerdict', () => {
  const now = new Date('2025-06-01T12:00:00Z');
  const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
  const settled: StreamToRate = { createdAt: daysAgo(30), humanCount: 6, humanScore: 3.5, humanConfidence: 0.6, autoScore: 70 };
  it.each([
    ['never rated: 100, whatever else', { ...settled, humanCount: 0, humanScore: null, humanConfidence: null, createdAt: daysAgo(0.1) }, { reason: 'Not yet evaluated', priority: 100 }],
    [`added less than ${NEW_STREAM_DAYS} days ago: 90, less its answers`, { ...settled, createdAt: daysAgo(NEW_STREAM_DAYS - 0.1) }, { reason: 'Newly added', priority: 84 }],
    [`automatic and human scores more than ${SCORE_GAP} apart: 80, less its answers`, { ...settled, autoScore: 40, humanScore: 4 }, { reason: 'Automatic and human scores disagree', priority: 74 }],
    [`exactly ${SCORE_GAP} apart is no dispute`, { ...settled, autoScore: 45, humanScore: 3.5 }, { reason: 'Periodic re-check', priority: 4 }],
    // 50 − 20·0.2/0.5 = 42, less 6 answers: what the keeper gives the same stream when it settles it
    ['low confidence: the formula the keeper settles by', { ...settled, humanConfidence: 0.2 }, { reason: 'Low confidence', priority: 36 }],
    ['no confidence recorded counts as none', { ...settled, humanConfidence: null, humanScore: null }, { reason: 'Low confidence', priority: 44 }],
    ['otherwise the periodic re-check: 10, less its answers', settled, { reason: 'Periodic re-check', priority: 4 }],
  ] as const)('%s', (_rule, stream, expected) => {
    expect(refillVerdict(stream, now)).toEqual(expected);
  });

  it('gives "Low confidence" the same priority as the keeper does for the same confidence and answers', () => {
    for (const confidence of [0, 0.1, 0.25, 0.49]) {
      for (const answers of [1, 3, 9, RATINGS_CAP - 1]) {
        const refill = refillVerdict({ ...settled, humanConfidence: confidence, humanCount: answers }, now);
        const kept = itemVerdict({ answers, established: 0, confidence, spread: 0 });
        expect(refill.reason).toBe('Low confidence');
        expect(kept).toEqual({ done: false, ...refill });
      }
    }
  });
});

describe('shownToRater', () => {
  it.each([
    ['an item is shown as it waits', { kind: 'rate', reason: 'Raters disagree', priority: 77 }, 3, { reason: 'Raters disagree', priority: 77 }],
    ['a check is shown as the periodic re-check a stream with its answers gets', { kind: 'check', reason: 'New rater check', priority: 100 }, 4, { reason: 'Periodic re-check', priority: 6 }],
  ] as const)('%s', (_rule, item, answers, expected) => {
    expect(shownToRater(item, answers)).toEqual(expected);
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
