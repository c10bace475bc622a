/** Uptime over a window and per hour (src/shared/uptime.ts). */
import { describe, expect, it } from 'vitest';
import { formatShare, HOUR_MS, intervalTransitions, uptimeOver, type UptimeTransition } from '../../src/shared/uptime.ts';

const H = HOUR_MS;
const T0 = Date.UTC(2026, 10, 24, 0, 0); // the window's start
const day = (before: boolean | null, transitions: UptimeTransition[]) => uptimeOver({ from: T0, to: T0 + 24 * H, before, transitions });
const up = (hours: number) => ({ at: T0 + hours * H, up: true });
const down = (hours: number) => ({ at: T0 + hours * H, up: false });
const repeat = <T>(n: number, value: T): T[] => Array.from({ length: n }, () => value);

describe('uptime over a window', () => {
  it.each<[string, boolean | null, UptimeTransition[], number | null, (number | null)[]]>([
    ['up all along', true, [], 1, repeat(24, 1)],
    ['down all along', false, [], 0, repeat(24, 0)],
    ['nothing known: no share at all', null, [], null, repeat(24, null)],
    ['the window starts mid-outage: down until it comes back', false, [up(6)], 0.75, [...repeat(6, 0), ...repeat(18, 1)]],
    ['unknown before the first record: the share is of the known time only', null, [up(12)], 1, [...repeat(12, null), ...repeat(12, 1)]],
    ['first record is a failure: known and down from there', null, [down(18)], 0, [...repeat(18, null), ...repeat(6, 0)]],
    ['a change exactly on a bucket edge belongs to the bucket it starts', true, [down(3), up(4)], 23 / 24, [1, 1, 1, 0, ...repeat(20, 1)]],
    ['still down now: the last buckets are down', true, [down(20)], 20 / 24, [...repeat(20, 1), 0, 0, 0, 0]],
    ['half an hour down inside one hour', true, [down(5.25), up(5.75)], 1 - 0.5 / 24, [...repeat(5, 1), 0.5, ...repeat(18, 1)]],
    ['changes before the window only set its first state', null, [{ at: T0 - 5 * H, up: true }, { at: T0 - 2 * H, up: false }], 0, repeat(24, 0)],
    ['a change at the window\'s start sets it from the start', false, [up(0)], 1, repeat(24, 1)],
    ['changes after the window are ignored', true, [down(30)], 1, repeat(24, 1)],
    ['changes in any order', true, [up(4), down(3)], 23 / 24, [1, 1, 1, 0, ...repeat(20, 1)]],
    ['knowledge lost again (null) is left out', true, [{ at: T0 + 12 * H, up: null }], 1, [...repeat(12, 1), ...repeat(12, null)]],
  ])('%s', (_name, before, transitions, share, hours) => {
    const figures = day(before, transitions);
    if (share === null) expect(figures.share).toBeNull();
    else expect(figures.share).toBe(Math.round(share * 10_000) / 10_000);
    expect(figures.hours).toHaveLength(24);
    expect(figures.hours).toEqual(hours.map((h) => (h === null ? null : Math.round(h * 10_000) / 10_000)));
  });

  it('a bucket partly unknown is the share of its known part', () => {
    // Unknown until 10:30, up until 10:45, then down: the 10:00 bucket knows 30 min, half of them up.
    const figures = day(null, [up(10.5), down(10.75)]);
    expect(figures.hours[10]).toBe(0.5);
    expect(figures.hours.slice(0, 10)).toEqual(repeat(10, null));
    expect(figures.share).toBe(Math.round((0.25 / 13.5) * 10_000) / 10_000);
  });

  it('a week has 168 hourly buckets, the last ending now', () => {
    const now = T0 + 7 * 24 * H + 17 * 60_000; // not on an hour: buckets follow the window, not the clock
    const week = uptimeOver({ from: now - 168 * H, to: now, before: null, transitions: [{ at: now - 30 * H, up: true }] });
    expect(week.hours).toHaveLength(168);
    expect(week.hours.slice(0, 138)).toEqual(repeat(138, null));
    expect(week.hours.slice(138)).toEqual(repeat(30, 1));
    expect(week.share).toBe(1);
  });
});

describe('connections as transitions', () => {
  it.each<[string, { start: number; end: number | null }[], UptimeTransition[]]>([
    ['one closed connection: up, then down', [{ start: 1, end: 5 }], [{ at: 1, up: true }, { at: 5, up: false }]],
    ['still connected: up, no down', [{ start: 1, end: null }], [{ at: 1, up: true }]],
    ['a gap between two: down in it', [{ start: 1, end: 3 }, { start: 6, end: null }], [{ at: 1, up: true }, { at: 3, up: false }, { at: 6, up: true }]],
    ['overlapping (a reconnect before the old connection was dropped): one stretch', [{ start: 1, end: 5 }, { start: 4, end: 8 }], [{ at: 1, up: true }, { at: 8, up: false }]],
    ['one inside another that stays open', [{ start: 4, end: 6 }, { start: 1, end: null }], [{ at: 1, up: true }]],
    ['touching ends: no blip', [{ start: 1, end: 3 }, { start: 3, end: 5 }], [{ at: 1, up: true }, { at: 5, up: false }]],
    ['an empty one is ignored', [{ start: 2, end: 2 }], []],
  ])('%s', (_name, intervals, transitions) => {
    expect(intervalTransitions(intervals)).toEqual(transitions);
  });
});

describe('a share as the console writes it', () => {
  it.each<[number | null, string]>([
    [1, '100 %'],
    [0, '0 %'],
    [0.973, '97.3 %'],
    [0.99996, '99.9 %'],
    [null, 'no data'],
  ])('%s → %s', (share, text) => {
    expect(formatShare(share)).toBe(text);
  });
});
