/**
 * What a screen shows, decided by the server in one order (issue: screens an operator can
 * steer), with the rule that decided it — the Screens tab shows both:
 *
 * 1. an active takeover aimed at the screen (every screen, or its group);
 * 2. the screen's own address, when it was opened on `/scenes/<slug>`;
 * 3. a scene assigned to that screen;
 * 4. the winning schedule entry aimed at the screen or its group;
 * 5. the group's own scene;
 * 6. the winning schedule entry for every screen;
 * 7. the default scene.
 */
import type { ShownRule } from './rules.ts';
import { playsAt, targets, winner, type ScheduleRule } from './windows.ts';

export { SHOWN_RULES, type ShownRule } from './rules.ts';

/** What the server knows about one screen. */
export interface ScreenFacts {
  device: string | null;
  groupId: number | null;
  /** The slug or id in the screen's address (`/scenes/<slug>`), or null when it follows its rules. */
  address: string | null;
}

/** Everything operators have said about what plays where. */
export interface Programme {
  takeover: { scene_id: number; group_ids: readonly number[] | null; ends_at: string | null; banner?: string | null } | null;
  /** Scenes assigned to single screens, by device id. */
  assigned: ReadonlyMap<string, number>;
  /** Each group's own scene (null: none). */
  groupScenes: ReadonlyMap<number, number | null>;
  schedules: readonly ScheduleRule[];
}

/** The reference a screen follows (a slug, or a scene id as text; null: the default scene), and why. */
export interface Decision {
  ref: string | null;
  rule: ShownRule;
  /** The schedule entry that decided it, for the rules that come from one. */
  schedule_id?: number;
}

/** Whether a takeover is in force at `instant` for a screen of this group. */
export function takeoverApplies(takeover: Programme['takeover'], groupId: number | null, instant: number): boolean {
  if (!takeover) return false;
  if (takeover.ends_at !== null && Date.parse(takeover.ends_at) <= instant) return false;
  return takeover.group_ids === null || (groupId !== null && takeover.group_ids.includes(groupId));
}

export function decide(screen: ScreenFacts, programme: Programme, instant: number): Decision {
  if (takeoverApplies(programme.takeover, screen.groupId, instant)) return { ref: String(programme.takeover!.scene_id), rule: 'takeover' };
  if (screen.address !== null) return { ref: screen.address, rule: 'address' };
  const own = screen.device !== null ? programme.assigned.get(screen.device) : undefined;
  if (own !== undefined) return { ref: String(own), rule: 'assigned' };
  const playing = programme.schedules.filter((entry) => playsAt(entry.when, instant));
  const mine = winner(playing.filter((entry) => entry.target.kind !== 'all' && targets(entry.target, screen)));
  if (mine) return { ref: String(mine.scene_id), rule: 'group-schedule', schedule_id: mine.id };
  const groupScene = screen.groupId !== null ? programme.groupScenes.get(screen.groupId) : null;
  if (groupScene !== null && groupScene !== undefined) return { ref: String(groupScene), rule: 'group' };
  const everyone = winner(playing.filter((entry) => entry.target.kind === 'all'));
  if (everyone) return { ref: String(everyone.scene_id), rule: 'schedule', schedule_id: everyone.id };
  return { ref: null, rule: 'default' };
}
