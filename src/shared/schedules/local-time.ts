/**
 * Wall-clock times in an IANA time zone, as a person reading a schedule means them
 * (Luxon does the zone arithmetic; this file only settles the two hours a year where a wall
 * clock is ambiguous):
 * - a time the clocks skip (02:30 when 02:00 jumps to 03:00) happens when the clocks jump;
 * - a time the clocks show twice (02:30 when 03:00 falls back to 02:00) happens the first time.
 */
import { DateTime } from 'luxon';

/** A calendar day, as numbers (month 1–12). */
export interface LocalDay {
  year: number;
  month: number;
  day: number;
}

/** "HH:MM" → minutes after midnight, or null when malformed. */
export function parseClock(text: string): number | null {
  const found = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return found ? Number(found[1]) * 60 + Number(found[2]) : null;
}

/** The wall-clock reading of an instant, as if it were UTC (comparable across instants). */
const wall = (t: DateTime) => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, t.millisecond);

/** The instant (ms) at which the wall clock of `zone` reads `minutes` after midnight on `day`. */
export function localInstant(day: LocalDay, minutes: number, zone: string): number {
  const wanted = Date.UTC(day.year, day.month - 1, day.day, Math.floor(minutes / 60), minutes % 60);
  const guess = DateTime.fromObject({ ...day, hour: Math.floor(minutes / 60), minute: minutes % 60 }, { zone });
  if (wall(guess) !== wanted) {
    // Skipped: the first instant whose wall clock reads the wanted time or later (the jump).
    let low = guess.toMillis() - 4 * 3_600_000;
    let high = guess.toMillis();
    while (high - low > 1_000) {
      const mid = Math.floor((low + high) / 2);
      if (wall(DateTime.fromMillis(mid, { zone })) >= wanted) high = mid;
      else low = mid;
    }
    return Math.ceil(high / 60_000) * 60_000;
  }
  // Shown twice: Luxon picks one of the two; the earlier is the one a person means.
  const before = DateTime.fromMillis(guess.toMillis() - 4 * 3_600_000, { zone });
  if (before.offset > guess.offset) {
    const earlier = guess.toMillis() - (before.offset - guess.offset) * 60_000;
    if (wall(DateTime.fromMillis(earlier, { zone })) === wanted) return earlier;
  }
  return guess.toMillis();
}

/** The calendar day an instant falls on in `zone`, and its ISO weekday (1 = Monday … 7 = Sunday). */
export function dayOf(instant: number, zone: string): LocalDay & { weekday: number } {
  const t = DateTime.fromMillis(instant, { zone });
  return { year: t.year, month: t.month, day: t.day, weekday: t.weekday };
}

/** `day` moved by `days` (calendar arithmetic, no time zone). */
export function addDays(day: LocalDay, days: number): LocalDay & { weekday: number } {
  const t = DateTime.fromObject(day, { zone: 'UTC' }).plus({ days });
  return { year: t.year, month: t.month, day: t.day, weekday: t.weekday };
}
