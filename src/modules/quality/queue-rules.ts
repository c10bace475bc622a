/**
 * The fair analysis queue's rules, as plain functions:
 * - which lane (priority) an analysis waits in: an admin's request first, then a re-check a
 *   screen's failure report triggered, then streams shown on screens, then the ranking's
 *   candidates (its budgeted re-checks), then newly added streams, then the periodic sweep;
 * - how often an offline stream is re-checked: a stream on a screen at the fast period (a wall
 *   waits for it), any other with backoff — minutes, then hours.
 */
import type { QueueLane } from '../../shared/quality/queue.ts';
import type { AnalysisTrigger } from './quality.entity.ts';

/** pg-boss priorities (higher first). */
export const LANE_PRIORITY: Record<QueueLane, number> = { manual: 50, screens: 40, 'on-screen': 30, ranking: 25, new: 20, sweep: 10 };

/** Jobs at or above this priority also have a worker of their own on every node: they never wait behind a backlog. */
export const URGENT_PRIORITY = LANE_PRIORITY.screens;

export function laneOf(trigger: AnalysisTrigger, onScreen: boolean): QueueLane {
  switch (trigger) {
    case 'manual':
      return 'manual';
    case 'screens':
      return 'screens';
    case 'discovery':
      return onScreen ? 'on-screen' : 'new';
    case 'ranking':
      return onScreen ? 'on-screen' : 'ranking';
    // "Analyze all" is an admin's request, but for everything: it must not push screens' re-checks aside.
    case 'all':
    case 'schedule':
    case 'recheck':
      return onScreen ? 'on-screen' : 'sweep';
  }
}

export function laneOfPriority(priority: number): QueueLane {
  const lanes = Object.entries(LANE_PRIORITY) as [QueueLane, number][];
  return (lanes.find(([, p]) => priority >= p) ?? lanes[lanes.length - 1]!)[0];
}

/** Re-check delays of an offline stream no screen shows, by failed checks in a row (the last one repeats). */
export const OFFLINE_BACKOFF_MINUTES = [2, 5, 15, 60, 180] as const;

/**
 * Whether an offline stream is due for a re-check: on a screen, every period (the caller's
 * timer); otherwise when the backoff of its failed checks has passed since its last check.
 * Offline takes two failed checks, so the backoff starts with the third.
 */
export function offlineRecheckDue(stream: { failedChecks: number; lastCheckedAt: Date | null; onScreen: boolean }, now: Date): boolean {
  if (stream.onScreen || !stream.lastCheckedAt) return true;
  const step = Math.max(0, Math.min(stream.failedChecks - 2, OFFLINE_BACKOFF_MINUTES.length - 1));
  return now.getTime() - stream.lastCheckedAt.getTime() >= OFFLINE_BACKOFF_MINUTES[step]! * 60_000;
}
