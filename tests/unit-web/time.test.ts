import { describe, expect, it } from 'vitest';
import { formatClock, formatLocalTime, formatLongDate, msUntilNextSecond } from '../../web/lib/time.ts';

const instant = new Date('2026-11-22T17:05:09.250Z');

describe('clock and local time texts', () => {
  it.each([
    ['24-hour clock with seconds', () => formatClock(instant, 'UTC'), '17:05:09'],
    ['no AM/PM past noon', () => formatClock(new Date('2026-11-22T23:59:59Z'), 'UTC'), '23:59:59'],
    ['midnight is 00, not 24', () => formatClock(new Date('2026-11-22T00:00:00Z'), 'UTC'), '00:00:00'],
    ['long date', () => formatLongDate(instant, 'UTC'), 'Sunday, 22 November 2026'],
    ['LOCAL time at the stream time zone', () => formatLocalTime(instant, 'Africa/Windhoek'), '19:05'],
    ['a zone west of UTC', () => formatLocalTime(instant, 'America/Anchorage'), '08:05'],
    ['a half-hour zone', () => formatLocalTime(instant, 'Asia/Kolkata'), '22:35'],
    ['no time zone: nothing', () => formatLocalTime(instant, null), null],
    ['an unknown time zone: nothing rather than a wrong time', () => formatLocalTime(instant, 'Mars/Olympus_Mons'), null],
  ])('%s', (_rule, format, expected) => {
    expect(format()).toBe(expected);
  });

  it('ticks on the second', () => {
    expect(msUntilNextSecond(1_000_250)).toBe(750);
    expect(msUntilNextSecond(1_000_000)).toBe(1000);
  });
});
