/** Schedule windows and what a screen shows, over fixed instants (src/shared/schedules). */
import { describe, expect, it } from 'vitest';
import { localInstant } from '../../src/shared/schedules/local-time.ts';
import { isValidTimezone } from '../../src/shared/streams/location.ts';
import { decide, takeoverApplies, type Programme, type ScreenFacts } from '../../src/shared/schedules/precedence.ts';
import { equalPriorityOverlaps, nextBoundary, nextChange, playsAt, winner, windowsBetween, type ScheduleRule, type ScheduleWhen } from '../../src/shared/schedules/windows.ts';

const at = (iso: string) => Date.parse(iso);
const weekly = (days: number[], start: string, end: string, time_zone = 'Europe/Berlin', overnight = false): ScheduleWhen => ({ kind: 'weekly', days, start, end, overnight, time_zone });
const once = (starts_at: string, ends_at: string): ScheduleWhen => ({ kind: 'once', starts_at, ends_at });
const rule = (id: number, scene_id: number, when: ScheduleWhen, extra: Partial<ScheduleRule> = {}): ScheduleRule => ({ id, scene_id, priority: 0, target: { kind: 'all' }, when, ...extra });

// 2026-11-23 is a Monday (ISO weekday 1). Berlin is UTC+1 in winter.
describe('weekly windows', () => {
  const mornings = weekly([1, 2, 3, 4, 5], '09:00', '12:00');
  it.each([
    ['Monday 09:00 Berlin: starts', '2026-11-23T08:00:00Z', true],
    ['Monday 11:59 Berlin', '2026-11-23T10:59:00Z', true],
    ['Monday 12:00 Berlin: ended (half-open)', '2026-11-23T11:00:00Z', false],
    ['Monday 08:59 Berlin', '2026-11-23T07:59:00Z', false],
    ['Saturday 10:00 Berlin: not one of its days', '2026-11-28T09:00:00Z', false],
  ])('%s', (_name, instant, plays) => {
    expect(playsAt(mornings, at(instant))).toBe(plays);
  });

  it('reads its hours in its own time zone', () => {
    const ny = weekly([1], '09:00', '10:00', 'America/New_York');
    expect(playsAt(ny, at('2026-11-23T14:30:00Z'))).toBe(true); // 09:30 EST
    expect(playsAt(ny, at('2026-11-23T09:30:00Z'))).toBe(false);
  });
});

describe('a window crossing midnight', () => {
  const nights = weekly([5], '22:00', '02:00', 'Europe/Berlin', true); // Friday night
  it.each([
    ['Friday 23:00', '2026-11-27T22:00:00Z', true],
    ['Saturday 01:59 (the window started on Friday)', '2026-11-28T00:59:00Z', true],
    ['Saturday 02:00', '2026-11-28T01:00:00Z', false],
    ['Friday 21:59', '2026-11-27T20:59:00Z', false],
    ['Thursday 23:00: not its day', '2026-11-26T22:00:00Z', false],
  ])('%s', (_name, instant, plays) => {
    expect(playsAt(nights, at(instant))).toBe(plays);
  });

  it('without the overnight mark, an end before the start never plays', () => {
    expect(windowsBetween(weekly([5], '22:00', '02:00'), at('2026-11-23T00:00:00Z'), at('2026-11-30T00:00:00Z'))).toEqual([]);
  });

  it('knows its next change', () => {
    expect(nextChange(nights, at('2026-11-27T12:00:00Z'))).toBe(at('2026-11-27T21:00:00Z'));
    expect(nextChange(nights, at('2026-11-27T21:00:00Z'))).toBe(at('2026-11-28T01:00:00Z'));
  });
});

describe('daylight-saving changes do what the schedule says', () => {
  it.each([
    // Europe/Berlin: 2026-03-29 02:00 → 03:00 (skipped), 2026-10-25 03:00 → 02:00 (repeated)
    ['Berlin, a skipped 02:30 starts when the clocks jump (03:00 CEST)', 'Europe/Berlin', { year: 2026, month: 3, day: 29 }, '02:30', '2026-03-29T01:00:00Z'],
    ['Berlin, 09:00 the day after the spring change is 09:00 CEST', 'Europe/Berlin', { year: 2026, month: 3, day: 30 }, '09:00', '2026-03-30T07:00:00Z'],
    ['Berlin, a repeated 02:30 starts the first time (CEST)', 'Europe/Berlin', { year: 2026, month: 10, day: 25 }, '02:30', '2026-10-25T00:30:00Z'],
    ['Berlin, 09:00 on the autumn change day is 09:00 CET', 'Europe/Berlin', { year: 2026, month: 10, day: 25 }, '09:00', '2026-10-25T08:00:00Z'],
    // America/New_York: 2026-03-08 02:00 → 03:00, 2026-11-01 02:00 → 01:00
    ['New York, a skipped 02:30 starts at 03:00 EDT', 'America/New_York', { year: 2026, month: 3, day: 8 }, '02:30', '2026-03-08T07:00:00Z'],
    ['New York, a repeated 01:30 starts the first time (EDT)', 'America/New_York', { year: 2026, month: 11, day: 1 }, '01:30', '2026-11-01T05:30:00Z'],
    ['New York, 01:30 the day before is plain EDT', 'America/New_York', { year: 2026, month: 10, day: 31 }, '01:30', '2026-10-31T05:30:00Z'],
  ])('%s', (_name, zone, day, clock, expected) => {
    const [h, m] = clock.split(':').map(Number);
    expect(new Date(localInstant(day, h! * 60 + m!, zone)).toISOString()).toBe(new Date(expected).toISOString());
  });

  it('a 09:00–17:00 window lasts 8 hours on the change days; a window across the repeated hour lasts one hour more', () => {
    const work = weekly([7], '09:00', '17:00');
    const [spring] = windowsBetween(work, at('2026-03-29T00:00:00Z'), at('2026-03-29T23:00:00Z'));
    expect((spring![1] - spring![0]) / 3_600_000).toBe(8);
    const night = weekly([6], '23:00', '04:00', 'Europe/Berlin', true); // Saturday 24 Oct → Sunday 25 Oct
    const [autumn] = windowsBetween(night, at('2026-10-24T12:00:00Z'), at('2026-10-25T12:00:00Z'));
    expect((autumn![1] - autumn![0]) / 3_600_000).toBe(6);
  });
});

describe('which entry wins', () => {
  const weekday = weekly([1, 2, 3, 4, 5], '08:00', '18:00');
  const event = once('2026-11-23T13:00:00Z', '2026-11-23T14:00:00Z'); // Monday 14:00–15:00 Berlin

  it('a one-off event of higher priority wins inside a weekly window, and the weekly one plays again after it', () => {
    const entries = [rule(1, 10, weekday), rule(2, 20, event, { priority: 5 })];
    const playing = (iso: string) => winner(entries.filter((e) => playsAt(e.when, at(iso))))?.scene_id;
    expect(playing('2026-11-23T12:00:00Z')).toBe(10);
    expect(playing('2026-11-23T13:30:00Z')).toBe(20);
    expect(playing('2026-11-23T14:00:00Z')).toBe(10);
    expect(nextBoundary(entries, at('2026-11-23T12:00:00Z'))).toBe(at('2026-11-23T13:00:00Z'));
    expect(nextBoundary(entries, at('2026-11-23T13:00:00Z'))).toBe(at('2026-11-23T14:00:00Z'));
  });

  it('at equal priority the narrower target wins, then the newer entry', () => {
    const all = rule(1, 10, weekday);
    const group = rule(2, 20, weekday, { target: { kind: 'groups', group_ids: [1] } });
    const screen = rule(3, 30, weekday, { target: { kind: 'screens', devices: ['lobby-left'] } });
    expect(winner([all, group, screen])?.id).toBe(3);
    expect(winner([all, group])?.id).toBe(2);
    expect(winner([rule(4, 10, weekday), rule(5, 11, weekday)])?.id).toBe(5);
    expect(winner([rule(6, 10, weekday, { priority: 9 }), screen])?.id).toBe(6);
  });

  it('warns about equal-priority entries for the same screens at the same time, not about ties a narrower target settles', () => {
    const a = rule(1, 10, weekday, { target: { kind: 'groups', group_ids: [1, 2] } });
    const b = rule(2, 20, event, { target: { kind: 'groups', group_ids: [2] } });
    const c = rule(3, 30, event, { target: { kind: 'groups', group_ids: [3] } });
    const d = rule(4, 40, event, { priority: 1, target: { kind: 'groups', group_ids: [1] } });
    const e = rule(5, 50, event); // everyone: a group's entry wins over it
    expect(equalPriorityOverlaps([a, b, c, d, e], at('2026-11-23T00:00:00Z'), at('2026-11-30T00:00:00Z'))).toEqual([{ a: 1, b: 2, at: at('2026-11-23T13:00:00Z') }]);
  });
});

describe('what a screen shows, and why', () => {
  const monday = at('2026-11-23T10:00:00Z'); // 11:00 Berlin
  const base: Programme = {
    takeover: null,
    assigned: new Map([['lobby-left', 5]]),
    groupScenes: new Map([
      [1, 6],
      [2, null],
    ]),
    schedules: [
      rule(1, 7, weekly([1], '10:00', '12:00'), { target: { kind: 'groups', group_ids: [2] } }),
      rule(2, 8, weekly([1], '10:00', '12:00')),
    ],
  };
  const screen = (device: string | null, groupId: number | null, address: string | null = null): ScreenFacts => ({ device, groupId, address });

  it.each([
    ['a takeover for everyone wins over everything, even an address', { ...base, takeover: { scene_id: 9, group_ids: null, ends_at: null } }, screen('lobby-left', 1, 'volcano'), { ref: '9', rule: 'takeover' }],
    ['a takeover for other groups leaves this screen alone', { ...base, takeover: { scene_id: 9, group_ids: [3], ends_at: null } }, screen('gallery-1', 1), { ref: '6', rule: 'group' }],
    ['an ended takeover is no takeover', { ...base, takeover: { scene_id: 9, group_ids: null, ends_at: '2026-11-23T09:00:00Z' } }, screen('gallery-1', 1), { ref: '6', rule: 'group' }],
    ['an address keeps its scene', base, screen('lobby-left', 1, 'volcano'), { ref: 'volcano', rule: 'address' }],
    ["a screen's own scene", base, screen('lobby-left', 1), { ref: '5', rule: 'assigned' }],
    ["the group's scheduled scene", base, screen('tablet-1', 2), { ref: '7', rule: 'group-schedule', schedule_id: 1 }],
    ["the group's own scene beats the building's schedule", base, screen('gallery-1', 1), { ref: '6', rule: 'group' }],
    ["the building's schedule", base, screen('hall', null), { ref: '8', rule: 'schedule', schedule_id: 2 }],
    ['the default scene when nothing else says', { ...base, schedules: [] }, screen('hall', null), { ref: null, rule: 'default' }],
    ['a group without its own scene falls through to the schedule', { ...base, schedules: [base.schedules[1]!] }, screen('tablet-1', 2), { ref: '8', rule: 'schedule', schedule_id: 2 }],
  ])('%s', (_name, programme, facts, expected) => {
    expect(decide(facts, programme as Programme, monday)).toEqual(expected);
  });

  it('a takeover with an end applies until then', () => {
    const takeover = { scene_id: 9, group_ids: null, ends_at: '2026-11-23T11:00:00Z' };
    expect(takeoverApplies(takeover, null, at('2026-11-23T10:59:59Z'))).toBe(true);
    expect(takeoverApplies(takeover, null, at('2026-11-23T11:00:00Z'))).toBe(false);
  });
});

describe('time zones', () => {
  it.each([
    ['Europe/Berlin', true],
    ['America/New_York', true],
    ['Pacific/Chatham', true],
    ['Mars/Olympus', false],
    ['UTC', true],
    ['UTC+2', false],
    ['Europe/Berlin; drop table', false],
    ['', false],
  ])('%s is known: %s', (zone, known) => {
    expect(isValidTimezone(zone)).toBe(known);
  });
});
