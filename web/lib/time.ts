/**
 * Clock and date texts of the screens. Formatters are built once per time zone: a wall with
 * five local clocks ticking every second should not build fifteen formatters a second.
 */

const LOCALE = 'en-GB';
const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatter(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat | null {
  if (!formatters.has(key)) {
    try {
      formatters.set(key, new Intl.DateTimeFormat(LOCALE, options));
    } catch {
      formatters.set(key, null); // unknown time zone: the caller shows nothing rather than a wrong time
    }
  }
  return formatters.get(key) ?? null;
}

/** "14:05:09": the header clock, 24-hour. */
export function formatClock(date: Date, timeZone?: string): string {
  const f = formatter(`clock:${timeZone ?? ''}`, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    ...(timeZone ? { timeZone } : {}),
  });
  return f ? f.format(date) : '';
}

/** "Saturday, 22 November 2025": the long date under the clock. */
export function formatLongDate(date: Date, timeZone?: string): string {
  const f = formatter(`date:${timeZone ?? ''}`, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    ...(timeZone ? { timeZone } : {}),
  });
  return f ? f.format(date) : '';
}

/** "14:05" at a stream's time zone, or null when it has none or the zone is unknown. */
export function formatLocalTime(date: Date, timeZone: string | null | undefined): string | null {
  if (!timeZone) return null;
  const f = formatter(`local:${timeZone}`, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone });
  return f ? f.format(date) : null;
}

/** Milliseconds until the next whole second: clocks tick on the second, not drifting off it. */
export function msUntilNextSecond(now: number): number {
  return 1000 - (now % 1000);
}
