/** Quality grades and colours by score (spec §9). */

const GRADES: [number, string][] = [
  [95, 'A+'], [90, 'A'], [85, 'A-'], [80, 'B+'], [75, 'B'], [70, 'B-'],
  [65, 'C+'], [60, 'C'], [55, 'C-'], [50, 'D+'], [45, 'D'], [40, 'D-'],
];

/** Letter grade of a 0-100 score; '?' when the stream was never analysed. */
export function qualityGrade(score: number | null | undefined): string {
  if (score === null || score === undefined || Number.isNaN(score)) return '?';
  return GRADES.find(([min]) => score >= min)?.[1] ?? 'F';
}

export type GradeColor = 'green' | 'blue' | 'yellow' | 'orange' | 'red' | 'gray';

/** Grade badge colour: 90+ green, 70-89 blue, 50-69 yellow, 40-49 orange, lower red. */
export function gradeColor(score: number | null | undefined): GradeColor {
  if (score === null || score === undefined || Number.isNaN(score)) return 'gray';
  if (score >= 90) return 'green';
  if (score >= 70) return 'blue';
  if (score >= 50) return 'yellow';
  if (score >= 40) return 'orange';
  return 'red';
}

/** Admin-panel score colour: 80+ green, 60+ yellow, 40+ orange, below 40 red. */
export function adminScoreColor(score: number | null | undefined): GradeColor {
  if (score === null || score === undefined || Number.isNaN(score)) return 'gray';
  if (score >= 80) return 'green';
  if (score >= 60) return 'yellow';
  if (score >= 40) return 'orange';
  return 'red';
}

/** The admin filter's grade buckets (spec §5). */
export const GRADE_BUCKETS = ['A', 'B', 'C', 'failed', 'unreachable', 'not-analyzed'] as const;
export type GradeBucket = (typeof GRADE_BUCKETS)[number];
export type QualityFilter = 'all' | GradeBucket;

/**
 * Admin filter buckets (spec §5): A 80+, B 60-79, C 40-59, Failed below 40 (above 0), Not
 * analyzed — and Unreachable for a score of 0 (the analysis could not reach the stream), which
 * the spec's buckets leave out: an operator must see the cameras that are down.
 */
export function qualityBucket(score: number | null | undefined): Exclude<QualityFilter, 'all'> | null {
  if (score === null || score === undefined) return 'not-analyzed';
  if (score >= 80) return 'A';
  if (score >= 60) return 'B';
  if (score >= 40) return 'C';
  if (score > 0) return 'failed';
  return 'unreachable';
}
