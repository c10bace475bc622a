/**
 * The week timeline's arithmetic, pure: what plays on a group's screens from one instant to
 * another (the server's own rules, src/shared/schedules/precedence.ts), as runs of one scene
 * between schedule boundaries; table-tested in tests/unit-web/schedule-week.test.ts.
 */
import { decide, type Programme, type ShownRule } from '../../../../src/shared/schedules/precedence.ts';
import { nextBoundary } from '../../../../src/shared/schedules/windows.ts';

export interface Run {
  start: number;
  end: number;
  /** The scene shown (null: the default scene). */
  sceneId: number | null;
  rule: ShownRule;
}

/** Runs of one scene on a group's screens (null: screens in no group) within [from, to). */
export function runsBetween(programme: Programme, groupId: number | null, from: number, to: number): Run[] {
  const runs: Run[] = [];
  let at = from;
  while (at < to) {
    const decision = decide({ device: null, groupId, address: null }, programme, at);
    const sceneId = decision.ref === null ? null : Number(decision.ref);
    const takeoverEnd = programme.takeover?.ends_at ? Date.parse(programme.takeover.ends_at) : null;
    const edges = [nextBoundary(programme.schedules, at), takeoverEnd !== null && takeoverEnd > at ? takeoverEnd : null].filter((e): e is number => e !== null);
    const end = Math.min(to, ...edges);
    const last = runs.at(-1);
    if (last && last.sceneId === sceneId && last.rule === decision.rule) last.end = end;
    else runs.push({ start: at, end, sceneId, rule: decision.rule });
    at = end;
  }
  return runs;
}

/** Runs cut at local midnights, one list per day (for a row per day). */
export function byDay(runs: readonly Run[], days: readonly { start: number; end: number }[]): Run[][] {
  return days.map((day) => runs.filter((r) => r.end > day.start && r.start < day.end).map((r) => ({ ...r, start: Math.max(r.start, day.start), end: Math.min(r.end, day.end) })));
}
