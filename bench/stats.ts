/**
 * The one definition of a percentile the benches print, tested in tests/unit/bench-stats.test.ts.
 *
 * Nearest rank: the p-th percentile of n samples is the smallest sample with at least p% of the
 * samples at or below it — the sample of rank ceil(p·n/100), counted from 1 in ascending order
 * (rank 1 for p0). Every figure is a time some screen or request really took, never a value
 * between two of them. bench:fanout, bench:wall and bench:cluster (through
 * tests/cluster/walls.ts) each had their own copy of this rule, and their figures in
 * docs/benchmarks.md were made with it. bench:pool's copy took the sample one rank above
 * whenever p·n/100 was whole (of its 2,000 samples a read, p50 was the 1,001st and p99 the
 * 1,981st; here the 1,000th and the 1,980th), and the medians of bench:quality and of
 * bench:fanout's memory samples the upper middle one of an even count (their default counts are
 * odd, where the two agree).
 *
 * A list of no samples has no percentile, no median, no smallest and no largest: these throw
 * a NoSamplesError, so a bench that measured nothing stops instead of printing a NaN (which
 * JSON.stringify turns into null) or a 0 as if it were a time.
 */

/** Thrown for a figure asked of an empty list of samples. */
export class NoSamplesError extends RangeError {
  constructor(what: string) {
    super(`${what} of no samples: the bench measured nothing here, so it prints no figure`);
    this.name = 'NoSamplesError';
  }
}

/** The samples in ascending order, in a new array; refuses an empty list and any NaN or infinity. */
export function ascending(samples: readonly number[], what = 'a figure'): number[] {
  if (samples.length === 0) throw new NoSamplesError(what);
  const wrong = samples.find((s) => !Number.isFinite(s));
  if (wrong !== undefined) throw new RangeError(`${what} of samples holding ${wrong}: not a time`);
  return [...samples].sort((a, b) => a - b);
}

/** The p-th percentile (0 ≤ p ≤ 100) of `samples`, in any order, by nearest rank (see above). */
export function percentile(samples: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`a percentile is from 0 to 100, not ${p}`);
  const sorted = ascending(samples, `p${p}`);
  // p·n first: (7 / 100) · 100 is 7.000000000000001 in floating point, whose ceiling is 8.
  const rank = Math.max(1, Math.ceil((p * sorted.length) / 100));
  return sorted[rank - 1]!;
}

/** p50 by nearest rank: of an even count, the lower of the two middle samples. */
export const median = (samples: readonly number[]): number => percentile(samples, 50);
export const lowest = (samples: readonly number[]): number => ascending(samples, 'the smallest')[0]!;
export const highest = (samples: readonly number[]): number => ascending(samples, 'the largest').at(-1)!;
