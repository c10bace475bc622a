/** The evaluation screen's rules (spec §9): progress, score colours, rater labels, the rating keys. */
export const RATING_LABELS = ['Poor', 'Fair', 'Good', 'Great', 'Excel'] as const;

/** completedToday / (completedToday + pending); 100% when nothing is pending. */
export function progressPercent(status: { pending: number; completedToday: number }): number {
  if (status.pending === 0) return 100;
  return Math.round((status.completedToday / (status.completedToday + status.pending)) * 100);
}

/** 4+ green, 3+ yellow, otherwise red. */
export function evaluationColor(score: number): 'green' | 'yellow' | 'red' {
  if (score >= 4) return 'green';
  if (score >= 3) return 'yellow';
  return 'red';
}

/** `evaluator_…` ids read as 'Anonymous' and their last 4 characters. */
export function evaluatorLabel(id: string): string {
  return id.startsWith('evaluator_') ? `Anonymous ${id.slice(-4)}` : id;
}

export type KeyAction = { kind: 'rate'; value: number } | { kind: 'skip' } | { kind: 'stats' } | null;

/** Keys 1–5 rate, Space or → skips, S toggles the stats panel. */
export function keyAction(key: string): KeyAction {
  if (/^[1-5]$/.test(key)) return { kind: 'rate', value: Number(key) };
  if (key === ' ' || key === 'ArrowRight') return { kind: 'skip' };
  if (key === 's' || key === 'S') return { kind: 'stats' };
  return null;
}

export type CompareKeyAction = { kind: 'choose'; choice: 'left' | 'right' | 'same' } | { kind: 'skip' } | { kind: 'stats' } | null;

/** Comparing two streams: ← the left one looks better, → the right one, = about the same, Space skips, S toggles the stats. */
export function compareKeyAction(key: string): CompareKeyAction {
  if (key === 'ArrowLeft') return { kind: 'choose', choice: 'left' };
  if (key === 'ArrowRight') return { kind: 'choose', choice: 'right' };
  if (key === '=') return { kind: 'choose', choice: 'same' };
  if (key === ' ') return { kind: 'skip' };
  if (key === 's' || key === 'S') return { kind: 'stats' };
  return null;
}
