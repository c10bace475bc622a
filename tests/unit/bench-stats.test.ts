/** The benches' one percentile (bench/stats.ts): nearest rank, against values worked out by hand. */
import { describe, expect, it } from 'vitest';
import { highest, lowest, median, NoSamplesError, percentile } from '../../bench/stats.ts';

const oneToTen = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const oneToHundred = Array.from({ length: 100 }, (_, i) => i + 1);

describe('percentile: nearest rank, rank ceil(p·n/100) counted from 1', () => {
  it.each([
    // The textbook example (five samples): ranks 1, 2, 2, 3, 5.
    ['p5 of 15 20 35 40 50 is rank ceil(0.25) = 1', [15, 20, 35, 40, 50], 5, 15],
    ['p30 of 15 20 35 40 50 is rank ceil(1.5) = 2', [15, 20, 35, 40, 50], 30, 20],
    ['p40 of 15 20 35 40 50 is rank 2 exactly: at least 40% at or below it', [15, 20, 35, 40, 50], 40, 20],
    ['p50 of 15 20 35 40 50 is rank ceil(2.5) = 3', [15, 20, 35, 40, 50], 50, 35],
    ['p50 of an even count is the lower middle sample, never their mean', oneToTen, 50, 5],
    ['p90 of ten is the ninth', oneToTen, 90, 9],
    ['p99 of ten is the largest', oneToTen, 99, 10],
    ['p99 of a hundred is the 99th, not the 100th', oneToHundred, 99, 99],
    ['p95 of a hundred is the 95th', oneToHundred, 95, 95],
    ['p7 of a hundred is the 7th (7/100·100 is 7.000000000000001 in floating point)', oneToHundred, 7, 7],
    ['p0 is the smallest', oneToTen, 0, 1],
    ['p100 is the largest', oneToTen, 100, 10],
    ['one sample is every percentile: p0', [42], 0, 42],
    ['one sample is every percentile: p50', [42], 50, 42],
    ['one sample is every percentile: p100', [42], 100, 42],
    ['samples in any order', [40, 15, 50, 35, 20], 50, 35],
    ['fractions are kept as they are', [0.25, 1.5, 2.75], 50, 1.5],
  ])('%s', (_rule, samples, p, expected) => {
    expect(percentile(samples, p)).toBe(expected);
  });

  it('leaves the samples as they were', () => {
    const samples = [3, 1, 2];
    percentile(samples, 50);
    expect(samples).toEqual([3, 1, 2]);
  });

  it('median, lowest and highest are p50, p0 and p100', () => {
    expect([median([4, 1, 3, 2]), lowest([4, 1, 3, 2]), highest([4, 1, 3, 2])]).toEqual([2, 1, 4]);
  });
});

describe('no figure of nothing', () => {
  it.each([
    ['percentile', () => percentile([], 50)],
    ['p0', () => percentile([], 0)],
    ['median', () => median([])],
    ['lowest', () => lowest([])],
    ['highest', () => highest([])],
  ])('%s of an empty list throws NoSamplesError', (_name, figure) => {
    expect(figure).toThrow(NoSamplesError);
  });

  it.each([
    ['p below 0', () => percentile([1], -1)],
    ['p above 100', () => percentile([1], 101)],
    ['p not a number', () => percentile([1], NaN)],
    ['a NaN among the samples (a time that was never taken)', () => percentile([1, NaN, 3], 50)],
    ['an infinity among the samples', () => highest([1, Infinity])],
  ])('%s throws a RangeError', (_rule, figure) => {
    expect(figure).toThrow(RangeError);
  });
});
