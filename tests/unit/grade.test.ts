import { describe, expect, it } from 'vitest';
import { adminScoreColor, gradeColor, qualityBucket, qualityGrade } from '../../src/shared/quality/grade.ts';

describe('qualityGrade (spec §9)', () => {
  it.each([
    [100, 'A+'], [95, 'A+'], [94.9, 'A'], [90, 'A'], [85, 'A-'], [80, 'B+'], [75, 'B'], [70, 'B-'],
    [65, 'C+'], [60, 'C'], [55, 'C-'], [50, 'D+'], [45, 'D'], [40, 'D-'], [39.9, 'F'], [0, 'F'],
  ])('score %s is %s', (score, grade) => {
    expect(qualityGrade(score)).toBe(grade);
  });

  it.each([[null], [undefined], [NaN]])('no score (%s) shows ?', (score) => {
    expect(qualityGrade(score)).toBe('?');
  });
});

describe('gradeColor (spec §9: 90+ green, 70-89 blue, 50-69 yellow, 40-49 orange, lower red)', () => {
  it.each([
    [95, 'green'], [90, 'green'], [89, 'blue'], [70, 'blue'], [69, 'yellow'], [50, 'yellow'],
    [49, 'orange'], [40, 'orange'], [39, 'red'], [0, 'red'], [null, 'gray'],
  ] as const)('score %s is %s', (score, color) => {
    expect(gradeColor(score)).toBe(color);
  });
});

describe('adminScoreColor (spec §9: 80+ green, 60+ yellow, 40+ orange, below red)', () => {
  it.each([
    [80, 'green'], [79, 'yellow'], [60, 'yellow'], [59, 'orange'], [40, 'orange'], [39, 'red'], [null, 'gray'],
  ] as const)('score %s is %s', (score, color) => {
    expect(adminScoreColor(score)).toBe(color);
  });
});

describe('qualityBucket (spec §5 admin filters)', () => {
  it.each([
    ['A is 80 and above', 80, 'A'],
    ['B is 60-79', 79, 'B'],
    ['B starts at 60', 60, 'B'],
    ['C is 40-59', 59, 'C'],
    ['C starts at 40', 40, 'C'],
    ['Failed is below 40', 39, 'failed'],
    ['Failed is above 0', 0.5, 'failed'],
    ['zero (the stream could not be reached) is Unreachable', 0, 'unreachable'],
    ['no score is Not analyzed', null, 'not-analyzed'],
  ] as const)('%s', (_rule, score, bucket) => {
    expect(qualityBucket(score)).toBe(bucket);
  });
});
