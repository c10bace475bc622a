/**
 * When a schedule entry plays, as instants, and which entry wins: pure rules over fixed
 * instants (table-tested), used by the server to decide what screens show and when to switch
 * them, and by the console for the week timeline and its preview of any instant.
 *
 * A weekly window starts on each of its days at `start` and ends at `end` the same day — or,
 * marked `overnight`, the next day (22:00–02:00). A one-off window runs from `starts_at` to
 * `ends_at`. Windows are half-open: a window ending at 12:00 and one starting at 12:00 never
 * overlap.
 */
import { addDays, dayOf, localInstant, parseClock } from './local-time.ts';

export type ScheduleWhen =
  | { kind: 'weekly'; days: readonly number[]; start: string; end: string; overnight: boolean; time_zone: string }
  | { kind: 'once'; starts_at: string; ends_at: string };

export type ScheduleTarget = { kind: 'all' } | { kind: 'groups'; group_ids: readonly number[] } | { kind: 'screens'; devices: readonly string[] };

export interface ScheduleRule {
  id: number;
  scene_id: number;
  priority: number;
  target: ScheduleTarget;
  when: ScheduleWhen;
}

/** The windows of a weekly entry that start on `day` (0 or 1 of them). */
function weeklyWindowOn(when: Extract<ScheduleWhen, { kind: 'weekly' }>, day: ReturnType<typeof dayOf>): [number, number] | null {
  if (!when.days.includes(day.weekday)) return null;
  const start = parseClock(when.start);
  const end = parseClock(when.end);
  if (start === null || end === null) return null;
  const from = localInstant(day, start, when.time_zone);
  const to = localInstant(when.overnight ? addDays(day, 1) : day, end, when.time_zone);
  return to > from ? [from, to] : null;
}

/** Every window of `when` that overlaps [from, to), in order. */
export function windowsBetween(when: ScheduleWhen, from: number, to: number): [number, number][] {
  if (when.kind === 'once') {
    const start = Date.parse(when.starts_at);
    const end = Date.parse(when.ends_at);
    return start < to && end > from && end > start ? [[start, end]] : [];
  }
  const out: [number, number][] = [];
  const first = dayOf(from, when.time_zone);
  const days = Math.ceil((to - from) / 86_400_000) + 2;
  for (let k = -1; k <= days; k++) {
    const window = weeklyWindowOn(when, addDays(first, k));
    if (window && window[0] < to && window[1] > from) out.push(window);
  }
  return out;
}

/** Whether `when` plays at `instant`. */
export function playsAt(when: ScheduleWhen, instant: number): boolean {
  return windowsBetween(when, instant, instant + 1).length > 0;
}

/** The next instant after `instant` at which `when` starts or stops playing (null: never again within `horizonMs`). */
export function nextChange(when: ScheduleWhen, instant: number, horizonMs = 8 * 86_400_000): number | null {
  let next: number | null = null;
  for (const [start, end] of windowsBetween(when, instant, instant + horizonMs)) {
    for (const edge of [start, end]) if (edge > instant && (next === null || edge < next)) next = edge;
  }
  return next;
}

/** How narrow a target is: a screen's own entry wins over its group's, a group's over everyone's. */
const NARROWNESS: Record<ScheduleTarget['kind'], number> = { screens: 3, groups: 2, all: 1 };

/** Whether an entry is aimed at this screen. */
export function targets(target: ScheduleTarget, screen: { device: string | null; groupId: number | null }): boolean {
  if (target.kind === 'all') return true;
  if (target.kind === 'groups') return screen.groupId !== null && target.group_ids.includes(screen.groupId);
  return screen.device !== null && target.devices.includes(screen.device);
}

/** The entry that wins among those playing: higher priority, then the narrower target, then the newer entry. */
export function winner<T extends ScheduleRule>(playing: readonly T[]): T | null {
  let best: T | null = null;
  for (const entry of playing) {
    if (
      !best ||
      entry.priority > best.priority ||
      (entry.priority === best.priority && (NARROWNESS[entry.target.kind] > NARROWNESS[best.target.kind] || (NARROWNESS[entry.target.kind] === NARROWNESS[best.target.kind] && entry.id > best.id)))
    )
      best = entry;
  }
  return best;
}

/** The next instant after `instant` at which any entry starts or stops (when screens may switch). */
export function nextBoundary(entries: readonly ScheduleRule[], instant: number): number | null {
  let next: number | null = null;
  for (const entry of entries) {
    const edge = nextChange(entry.when, instant);
    if (edge !== null && (next === null || edge < next)) next = edge;
  }
  return next;
}

/** Whether two targets of the same kind share a screen (a tie between them is then ambiguous). */
function shareScreens(a: ScheduleTarget, b: ScheduleTarget): boolean {
  if (a.kind === 'groups' && b.kind === 'groups') return a.group_ids.some((id) => b.group_ids.includes(id));
  if (a.kind === 'screens' && b.kind === 'screens') return a.devices.some((d) => b.devices.includes(d));
  return a.kind === 'all' && b.kind === 'all';
}

/** Pairs of entries of equal priority that play at the same time for the same screens within [from, to). */
export function equalPriorityOverlaps(entries: readonly ScheduleRule[], from: number, to: number): { a: number; b: number; at: number }[] {
  const found: { a: number; b: number; at: number }[] = [];
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) {
      const a = entries[i]!;
      const b = entries[j]!;
      // A narrower target wins a tie of priority: only the same kind of target is ambiguous.
      if (a.priority !== b.priority || !shareScreens(a.target, b.target)) continue;
      const wb = windowsBetween(b.when, from, to);
      const hit = windowsBetween(a.when, from, to).flatMap(([s1, e1]) => wb.filter(([s2, e2]) => s1 < e2 && s2 < e1).map(([s2]) => Math.max(s1, s2)));
      if (hit.length) found.push({ a: a.id, b: b.id, at: Math.min(...hit) });
    }
  }
  return found;
}
