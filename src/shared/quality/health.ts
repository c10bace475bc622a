/**
 * A stream's health, with hysteresis so a blip does not flap a wall:
 * - offline after 2 failed checks in a row (unreachable), or when screens have reported it failing
 *   for 30 s and the check they triggered failed too;
 * - live again after one good check;
 * - degraded while it answers but is black, frozen, not live or a looped recording (it stays on
 *   manual walls; pool scenes rank it low, and leave a looped one out).
 */
import type { QualityFault } from './score.ts';

export const HEALTH_STATES = ['unknown', 'live', 'degraded', 'offline'] as const;
export type HealthState = (typeof HEALTH_STATES)[number];

/** Failed checks in a row that make a stream offline. */
const OFFLINE_AFTER_FAILURES = 2;
/** Seconds of error reports from screens that make one failed check enough. */
export const SCREEN_ERROR_SECONDS = 30;

const DEGRADING: readonly QualityFault[] = ['black', 'frozen', 'not-live', 'looped', 'no-video'];

export interface HealthInput {
  current: HealthState;
  /** Failed checks in a row before this one. */
  failedChecks: number;
  /** This check's faults. */
  faults: readonly QualityFault[];
  /** Screens have reported this stream failing for at least SCREEN_ERROR_SECONDS. */
  screensFailing?: boolean;
}

export function nextHealth(input: HealthInput): { health: HealthState; failedChecks: number } {
  if (input.faults.includes('unreachable')) {
    const failedChecks = input.failedChecks + 1;
    const offline = failedChecks >= OFFLINE_AFTER_FAILURES || input.screensFailing === true || input.current === 'offline';
    return { health: offline ? 'offline' : input.current === 'unknown' ? 'unknown' : input.current, failedChecks };
  }
  return { health: input.faults.some((f) => DEGRADING.includes(f)) ? 'degraded' : 'live', failedChecks: 0 };
}
