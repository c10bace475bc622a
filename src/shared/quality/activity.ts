/**
 * Activity against a camera's normal. An analysis measures activity: how far the most-changed
 * region of its frames rises above the sample's noise (grey levels; src/modules/quality/analyzer/
 * motion.ts). A waterfall always moves and a nest is mostly still, so a figure means something
 * only against what that camera usually shows at that hour: its own analyses within an hour of
 * this one (local time) over the last 14 days, once it has OWN_MIN of them; until then the
 * pool's streams of its category at that hour — and the answer says which it was. Embedded
 * players give no frames to measure: their activity is unknown, never guessed.
 */

/** One analysis's activity, for the console's sparkline. */
export interface ActivityPoint {
  at: string;
  activity: number;
}

/** Why a stream is taken for a recording posing as live. */
export interface LoopEvidence {
  /** `replay`: moving seconds it showed before, at another place in time; `program-time`: its playlist's clock does not advance with ours. */
  kind: 'replay' | 'program-time';
  /** When the analysis that found it ran, and when the earlier one it matched (ISO). */
  found_at: string;
  earlier_at: string;
  /** Where in each sample the matching seconds start (replay only). */
  at_seconds: number | null;
  earlier_at_seconds: number | null;
  /** One sentence for the console. */
  note: string;
}

/** Analyses kept for the sparkline. */
export const ACTIVITY_HISTORY = 12;
/** A camera's own analyses at an hour before its own normal is used. */
export const OWN_MIN = 6;
/** Streams' analyses of a category at an hour before the category's normal is used. */
export const CATEGORY_MIN = 5;
/** Below this (grey levels) a normal is taken as this: a still camera's normal is near 0, and a ratio over nothing means nothing. */
export const ACTIVITY_FLOOR = 0.5;

export type ActivityBasis = 'own' | 'category';

export interface ActivityJudgement {
  /** Activity over the normal (1 = usual); null without a normal. */
  ratio: number | null;
  basis: ActivityBasis | null;
  /** Well above the normal: 3 spreads over the median and at least twice it. */
  eventful: boolean;
}

const median = (sorted: readonly number[]) => (sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2);

/** The normal of some earlier activities: their median and their spread (median absolute deviation). */
export function normalOf(values: readonly number[]): { median: number; spread: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const m = median(sorted);
  const deviations = sorted.map((v) => Math.abs(v - m)).sort((a, b) => a - b);
  return { median: m, spread: median(deviations) };
}

/** This analysis's activity against the camera's own history at the hour, or its category's. */
export function judgeActivity(activity: number | null, own: readonly number[], category: readonly number[]): ActivityJudgement {
  if (activity === null) return { ratio: null, basis: null, eventful: false };
  const [values, basis] = own.length >= OWN_MIN ? [own, 'own' as const] : category.length >= CATEGORY_MIN ? [category, 'category' as const] : [null, null];
  if (!values) return { ratio: null, basis: null, eventful: false };
  const normal = normalOf(values);
  const base = Math.max(ACTIVITY_FLOOR, normal.median);
  const ratio = Math.round((activity / base) * 100) / 100;
  return { ratio, basis, eventful: ratio >= 2 && activity >= normal.median + 3 * Math.max(normal.spread, ACTIVITY_FLOOR / 2) };
}

/** "activity 4× its usual at this hour" — what the console and the activity log say. */
export function describeActivity(ratio: number | null, basis: ActivityBasis | null): string {
  if (ratio === null || basis === null) return 'activity not yet known against a normal';
  const times = ratio >= 10 ? Math.round(ratio) : Math.round(ratio * 10) / 10;
  const whose = basis === 'own' ? 'its usual' : 'its category\'s usual';
  if (ratio >= 1.5) return `activity ${times}× ${whose} at this hour`;
  if (ratio <= 0.67) return `quieter than ${whose} at this hour (${times}×)`;
  return `activity as ${whose} at this hour`;
}

/** The hour of the day at a camera (0–23): its time zone, or its longitude's solar hour, or UTC. */
export function localHour(instant: number, timezone: string | null | undefined, longitude: number | null | undefined): number {
  if (timezone) {
    try {
      const hour = new Intl.DateTimeFormat('en-GB', { hour: 'numeric', hourCycle: 'h23', timeZone: timezone }).format(new Date(instant));
      const value = Number(hour);
      if (Number.isInteger(value) && value >= 0 && value < 24) return value;
    } catch {
      // an unknown zone name: fall back to the longitude
    }
  }
  const offsetHours = typeof longitude === 'number' ? Math.round(longitude / 15) : 0;
  return (((new Date(instant).getUTCHours() + offsetHours) % 24) + 24) % 24;
}
