/**
 * Uptime: the share of a window a screen was online or a stream was live, and the same share per
 * hour, from the moments its state changed. What is not known (before its first record) is left
 * out of the share, never counted as down: a screen installed an hour ago that has been online
 * since is 100 % up, not 4 %.
 */

export const HOUR_MS = 3_600_000;

/** The two windows every uptime answer has: the last day and the last week, in one-hour buckets. */
export const UPTIME_WINDOWS = { day: 24, week: 168 } as const;
export type UptimeWindowName = keyof typeof UPTIME_WINDOWS;

/** From `at` (ms since the epoch) on, the thing is up (true), down (false) or unknown again (null). */
export interface UptimeTransition {
  at: number;
  up: boolean | null;
}

/** A share (0..1) of the known time that was up; null where nothing is known. */
export interface UptimeFigures {
  share: number | null;
  /** One per bucket, oldest first. */
  hours: (number | null)[];
}

export interface UptimeInput {
  /** The window, [from, to) in ms since the epoch. */
  from: number;
  to: number;
  /** The state before the first transition given (null: unknown — the thing had no record yet). */
  before: boolean | null;
  /** Its changes in any order; those before `from` only set the state the window starts in, those at or after `to` are ignored. */
  transitions: readonly UptimeTransition[];
  /** Bucket length (an hour by default); the last bucket ends at `to`. */
  bucketMs?: number;
}

/** Shares are rounded to 4 decimals (0.1 s of an hour): enough for "99.97 %", and stable to compare. */
const round = (share: number) => Math.round(share * 10_000) / 10_000;

interface Span {
  start: number;
  end: number;
  up: boolean | null;
}

/** The window cut into spans of one state each, in order. */
function spans(input: UptimeInput): Span[] {
  const sorted = [...input.transitions].sort((a, b) => a.at - b.at);
  let state = input.before;
  let i = 0;
  // A change at or before the window's start only decides the state it starts in.
  for (; i < sorted.length && sorted[i]!.at <= input.from; i++) state = sorted[i]!.up;
  const out: Span[] = [];
  let cursor = input.from;
  for (; i < sorted.length && sorted[i]!.at < input.to; i++) {
    const t = sorted[i]!;
    if (t.at > cursor) out.push({ start: cursor, end: t.at, up: state });
    cursor = t.at;
    state = t.up;
  }
  if (input.to > cursor) out.push({ start: cursor, end: input.to, up: state });
  return out;
}

function shareOf(parts: readonly Span[], from: number, to: number): number | null {
  let up = 0;
  let known = 0;
  for (const s of parts) {
    const length = Math.min(s.end, to) - Math.max(s.start, from);
    if (length <= 0 || s.up === null) continue;
    known += length;
    if (s.up) up += length;
  }
  return known > 0 ? round(up / known) : null;
}

/**
 * The share up over [from, to) and per bucket (the last one ends at `to`; a window of 24 hours
 * has 24 buckets), each over the time known in it: null for a bucket, or a window, with nothing
 * known. A change exactly on a bucket's edge belongs to the bucket it starts.
 */
export function uptimeOver(input: UptimeInput): UptimeFigures {
  const bucketMs = input.bucketMs ?? HOUR_MS;
  const parts = spans(input);
  const count = Math.max(0, Math.ceil((input.to - input.from) / bucketMs));
  const hours: (number | null)[] = [];
  for (let b = 0; b < count; b++) {
    const end = input.to - (count - 1 - b) * bucketMs;
    hours.push(shareOf(parts, Math.max(input.from, end - bucketMs), end));
  }
  return { share: shareOf(parts, input.from, input.to), hours };
}

/** A stretch something was up: a screen's connection, from when it registered to when it left (null: still connected). */
export interface UpInterval {
  start: number;
  end: number | null;
}

/**
 * The transitions of a set of up intervals that may overlap (a screen reconnecting before the
 * server noticed its old connection dropped is connected twice for a moment): up when the first
 * begins, down only when none is left. Give `before` = false with them when the thing was known
 * (down) before the first one, null when the first one is its first record.
 */
export function intervalTransitions(intervals: readonly UpInterval[]): UptimeTransition[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const out: UptimeTransition[] = [];
  let openUntil: number | null | undefined; // undefined: none open; null: open for good
  for (const { start, end } of sorted) {
    if (end !== null && end <= start) continue;
    if (openUntil !== undefined && (openUntil === null || start <= openUntil)) {
      // Overlaps (or touches) the one open: extend it.
      if (openUntil !== null) openUntil = end === null ? null : Math.max(openUntil, end);
      continue;
    }
    if (openUntil !== undefined && openUntil !== null) out.push({ at: openUntil, up: false });
    out.push({ at: start, up: true });
    openUntil = end;
  }
  if (openUntil !== undefined && openUntil !== null) out.push({ at: openUntil, up: false });
  return out;
}

/** "97.3 %" — a share as the console writes it (one decimal, none at 0 and 100). */
export function formatShare(share: number | null): string {
  if (share === null) return 'no data';
  const percent = share * 100;
  if (percent >= 99.95 && share < 1) return '99.9 %';
  return `${percent === 0 || percent === 100 ? percent.toFixed(0) : percent.toFixed(1)} %`;
}
