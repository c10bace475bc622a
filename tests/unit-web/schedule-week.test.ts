/** The week timeline: runs of one scene between schedule boundaries (web/features/admin/schedule/week.ts). */
import { describe, expect, it } from 'vitest';
import type { Programme } from '../../src/shared/schedules/precedence.ts';
import { byDay, runsBetween } from '../../web/features/admin/schedule/week.ts';

const at = (iso: string) => Date.parse(iso);
const programme: Programme = {
  takeover: null,
  assigned: new Map(),
  groupScenes: new Map([[1, 6]]),
  schedules: [
    { id: 1, scene_id: 7, priority: 0, target: { kind: 'groups', group_ids: [1] }, when: { kind: 'weekly', days: [1], start: '09:30', end: '12:00', overnight: false, time_zone: 'UTC' } },
    { id: 2, scene_id: 8, priority: 0, target: { kind: 'all' }, when: { kind: 'weekly', days: [1], start: '14:00', end: '15:00', overnight: false, time_zone: 'UTC' } },
  ],
};

describe('what plays on a group, run by run', () => {
  it("the group's scene, its schedule to the minute, and its scene again (the building schedule does not reach a group with a scene)", () => {
    const runs = runsBetween(programme, 1, at('2026-11-23T00:00:00Z'), at('2026-11-24T00:00:00Z'));
    expect(runs.map((r) => [new Date(r.start).toISOString().slice(11, 16), new Date(r.end).toISOString().slice(11, 16), r.sceneId, r.rule])).toEqual([
      ['00:00', '09:30', 6, 'group'],
      ['09:30', '12:00', 7, 'group-schedule'],
      ['12:00', '00:00', 6, 'group'],
    ]);
  });

  it('screens in no group: the default scene and the building schedule', () => {
    const runs = runsBetween(programme, null, at('2026-11-23T00:00:00Z'), at('2026-11-24T00:00:00Z'));
    expect(runs.map((r) => [r.sceneId, r.rule])).toEqual([
      [null, 'default'],
      [8, 'schedule'],
      [null, 'default'],
    ]);
  });

  it('a takeover with an end ends its run there', () => {
    const taken = { ...programme, takeover: { scene_id: 9, group_ids: null, ends_at: '2026-11-23T10:00:00Z' } };
    const runs = runsBetween(taken, 1, at('2026-11-23T08:00:00Z'), at('2026-11-23T11:00:00Z'));
    expect(runs.map((r) => [new Date(r.end).toISOString().slice(11, 16), r.sceneId, r.rule])).toEqual([
      ['10:00', 9, 'takeover'],
      ['11:00', 7, 'group-schedule'],
    ]);
  });

  it('cut into days', () => {
    const runs = runsBetween(programme, 1, at('2026-11-23T00:00:00Z'), at('2026-11-25T00:00:00Z'));
    const days = byDay(runs, [
      { start: at('2026-11-23T00:00:00Z'), end: at('2026-11-24T00:00:00Z') },
      { start: at('2026-11-24T00:00:00Z'), end: at('2026-11-25T00:00:00Z') },
    ]);
    expect(days.map((d) => d.length)).toEqual([3, 1]);
    expect(days[1]![0]).toMatchObject({ start: at('2026-11-24T00:00:00Z'), end: at('2026-11-25T00:00:00Z'), sceneId: 6 });
  });
});
