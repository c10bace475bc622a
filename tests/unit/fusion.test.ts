/** The fusion of a stream's automatic and human halves (src/shared/evaluation/fusion.ts), one row per rule. */
import { describe, expect, it } from 'vitest';
import { fuseScores } from '../../src/shared/evaluation/fusion.ts';

describe('fuseScores', () => {
  it.each([
    ['the automatic half alone is kept as it is', { score: 80, confidence: 0.9 }, { score: null, confidence: null }, { score: 80, confidence: 0.9 }],
    ['the human half alone is said on 0–100 (4 of 5 is 80)', { score: null, confidence: null }, { score: 4, confidence: 0.5 }, { score: 80, confidence: 0.5 }],
    // (80·0.5 + 40·0.5) / 1 = 60; 1 − 0.5·0.5 = 0.75
    ['equal confidences: the mean, and more sure than either', { score: 80, confidence: 0.5 }, { score: 2, confidence: 0.5 }, { score: 60, confidence: 0.75 }],
    // (90·0.9 + 20·0.1) / 1 = 83; 1 − 0.1·0.9 = 0.91
    ['the surer half weighs more', { score: 90, confidence: 0.9 }, { score: 1, confidence: 0.1 }, { score: 83, confidence: 0.91 }],
    // (70·0.3 + 60·0.6) / 0.9 = 63.33… → 63.3; 1 − 0.7·0.4 = 0.72
    ['rounded to a tenth of a point and a thousandth of confidence', { score: 70, confidence: 0.3 }, { score: 3, confidence: 0.6 }, { score: 63.3, confidence: 0.72 }],
    ['a half without a confidence does not count', { score: 50, confidence: null }, { score: 5, confidence: 0.4 }, { score: 100, confidence: 0.4 }],
    ['both unsure (confidence 0): the first half\'s score, confidence 0', { score: 30, confidence: 0 }, { score: 5, confidence: 0 }, { score: 30, confidence: 0 }],
    ['neither half: nothing', { score: null, confidence: null }, { score: null, confidence: null }, { score: null, confidence: null }],
  ])('%s', (_rule, automatic, human, fused) => {
    expect(fuseScores(automatic, human)).toEqual(fused);
  });
});
