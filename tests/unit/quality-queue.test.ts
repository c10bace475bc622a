/** The fair queue's rules, one row per rule. */
import { describe, expect, it } from 'vitest';
import { LANE_PRIORITY, laneOf, laneOfPriority, offlineRecheckDue } from '../../src/modules/quality/queue-rules.ts';
import { QUEUE_LANES } from '../../src/shared/quality/queue.ts';

describe('laneOf', () => {
  it.each([
    ['an admin\'s request', 'manual', false, 'manual'],
    ['an admin\'s request for a stream on a screen', 'manual', true, 'manual'],
    ['a screen\'s failure report', 'screens', true, 'screens'],
    ['an import\'s stream', 'discovery', false, 'new'],
    ['an import\'s stream already on a screen (a "recent" wall)', 'discovery', true, 'on-screen'],
    ['the sweep', 'schedule', false, 'sweep'],
    ['the sweep, of a stream on a screen', 'schedule', true, 'on-screen'],
    ['a confirming re-check', 'recheck', false, 'sweep'],
    ['a confirming re-check of a stream on a screen', 'recheck', true, 'on-screen'],
    ['"analyze all" never pushes screens\' checks aside', 'all', false, 'sweep'],
  ] as const)('%s → %s', (_rule, trigger, onScreen, lane) => {
    expect(laneOf(trigger, onScreen)).toBe(lane);
  });

  it('ranks the lanes in the order the console lists them', () => {
    const priorities = QUEUE_LANES.map((lane) => LANE_PRIORITY[lane]);
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
    for (const lane of QUEUE_LANES) expect(laneOfPriority(LANE_PRIORITY[lane])).toBe(lane);
  });
});

describe('offlineRecheckDue', () => {
  const last = new Date('2026-11-23T12:00:00Z');
  const after = (minutes: number) => new Date(last.getTime() + minutes * 60_000);
  it.each([
    ['on a screen: every period', 2, true, 0, true],
    ['never checked', 9, false, null, true],
    ['just offline (2 failures): 2 minutes', 2, false, 1.9, false],
    ['just offline (2 failures): due at 2 minutes', 2, false, 2, true],
    ['3 failures: 5 minutes', 3, false, 4, false],
    ['3 failures: due at 5 minutes', 3, false, 5, true],
    ['4 failures: 15 minutes', 4, false, 14, false],
    ['5 failures: an hour', 5, false, 59, false],
    ['5 failures: due at an hour', 5, false, 60, true],
    ['6 failures: three hours', 6, false, 179, false],
    ['many failures: still three hours', 40, false, 180, true],
  ] as const)('%s', (_rule, failedChecks, onScreen, minutes, due) => {
    expect(offlineRecheckDue({ failedChecks, onScreen, lastCheckedAt: minutes === null ? null : last }, minutes === null ? last : after(minutes))).toBe(due);
  });
});
