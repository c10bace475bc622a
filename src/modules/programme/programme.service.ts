/**
 * The programme's commands (groups, each screen's place, schedule entries, the takeover) and
 * its reads: the whole programme as the rules want it (src/shared/schedules/precedence.ts),
 * and which of it names a scene (so a scene in use is not deleted under it).
 */
import type { EntityManager } from '../../db.ts';
import { GROUP_NAME_RULE } from '../../shared/api/programme.ts';
import type { Changes } from '../../domain/changes.ts';
import { conflict, invalid, notFound } from '../../domain/errors.ts';
import type { AssignmentInput, GroupInput, GroupUpdate, ScheduleInput, ScheduleUpdate, TakeoverInput } from '../../shared/api/programme.ts';
import type { Programme } from '../../shared/schedules/precedence.ts';
import type { ScheduleRule } from '../../shared/schedules/windows.ts';
import { slugify } from '../../shared/scenes/slug.ts';
import { sceneNames } from '../scenes/scene-reads.ts';
import { activeScene } from '../scenes/scenes.service.ts';
import { ScheduleEntry, ScreenGroup, ScreenPlacement, Takeover } from './programme.entity.ts';

/** Screen groups' names by id (all of them, or these): what alerts name a group by. */
export async function groupNames(em: EntityManager, ids?: readonly number[]): Promise<Map<number, string>> {
  const groups = await em.find(ScreenGroup, ids ? { id: { $in: [...ids] } } : {}, { fields: ['id', 'name'] });
  return new Map(groups.map((g) => [g.id, g.name]));
}

async function groupById(em: EntityManager, id: number, as: 'found' | 'input' = 'found'): Promise<ScreenGroup> {
  const group = await em.findOne(ScreenGroup, { id });
  if (!group) throw notFound(as === 'found' ? `Screen group not found: ${id}` : `Screen group ${id} does not exist`);
  return group;
}

async function groupSlug(em: EntityManager, name: string, except?: number): Promise<string> {
  const slug = slugify(name);
  if (!slug) throw invalid(`name: ${GROUP_NAME_RULE}`);
  const clash = await em.findOne(ScreenGroup, { $or: [{ slug }, { name }] });
  if (clash && clash.id !== except) throw conflict(`A screen group named "${clash.name}" already exists`);
  return slug;
}

export async function createGroup(em: EntityManager, changes: Changes, input: GroupInput): Promise<ScreenGroup> {
  const slug = await groupSlug(em, input.name);
  const scene = input.scene_id ? await activeScene(em, input.scene_id) : null;
  const group = em.create(ScreenGroup, { name: input.name, slug, scene });
  await em.flush();
  changes.push({ type: 'screen-group.created', groupId: group.id, name: group.name });
  return group;
}

export async function updateGroup(em: EntityManager, changes: Changes, input: GroupUpdate): Promise<ScreenGroup> {
  const group = await groupById(em, input.id);
  if (input.name !== undefined && input.name !== group.name) {
    group.slug = await groupSlug(em, input.name, group.id);
    group.name = input.name;
  }
  if (input.scene_id !== undefined) group.scene = input.scene_id === null ? null : await activeScene(em, input.scene_id);
  await em.flush();
  changes.push({ type: 'screen-group.updated', groupId: group.id, name: group.name });
  return group;
}

export async function deleteGroup(em: EntityManager, changes: Changes, id: number): Promise<void> {
  const group = await groupById(em, id);
  const schedules = (await em.find(ScheduleEntry, {})).filter((e) => e.target.kind === 'groups' && e.target.group_ids.includes(id));
  if (schedules.length) throw conflict(`"${group.name}" is the target of ${schedules.length === 1 ? 'a schedule entry' : `${schedules.length} schedule entries`}; change or delete ${schedules.length === 1 ? 'it' : 'them'} first`);
  const takeover = await em.findOne(Takeover, { id: 1 });
  if (takeover?.groupIds?.includes(id)) throw conflict(`"${group.name}" is under a takeover; release it first`);
  em.remove(group);
  await em.flush(); // its screens' placements lose their group (on delete set null)
  changes.push({ type: 'screen-group.deleted', groupId: id, name: group.name });
}

/** Each device's screen group (the programme's placements). */
export async function groupsOfDevices(em: EntityManager, devices: readonly string[]): Promise<Map<string, number>> {
  if (devices.length === 0) return new Map();
  const rows = await em.execute<{ device: string; group_id: number }[]>(
    'select device, group_id from screen_placements where group_id is not null and device in (select jsonb_array_elements_text(?::jsonb))',
    [JSON.stringify(devices)],
    'all',
  );
  return new Map(rows.map((r) => [r.device, r.group_id]));
}

/** Puts a screen in a group and/or gives it its own scene (each field given: set; null: cleared). */
export async function placeScreen(em: EntityManager, changes: Changes, input: AssignmentInput): Promise<ScreenPlacement> {
  const placement = (await em.findOne(ScreenPlacement, { device: input.device })) ?? em.create(ScreenPlacement, { device: input.device });
  if (input.group_id !== undefined) placement.group = input.group_id === null ? null : await groupById(em, input.group_id, 'input');
  if (input.scene_id !== undefined) placement.scene = input.scene_id === null ? null : await activeScene(em, input.scene_id);
  await em.flush();
  changes.push({ type: 'screen.placed', device: input.device, name: input.device });
  return placement;
}

/**
 * A screen that opens with `?group=<slug>` joins that group (how a screen is set up once, at
 * install time). Null when there is no such group; unchanged placements write nothing.
 */
export async function joinGroup(em: EntityManager, changes: Changes, device: string, slug: string): Promise<ScreenGroup | null> {
  const group = await em.findOne(ScreenGroup, { slug });
  if (!group) return null;
  const placement = await em.findOne(ScreenPlacement, { device });
  if (placement?.group?.id === group.id) return group;
  if (placement) placement.group = group;
  else em.create(ScreenPlacement, { device, group });
  await em.flush();
  changes.push({ type: 'screen.joined', device, groupId: group.id, name: group.name });
  return group;
}

async function checkTarget(em: EntityManager, input: ScheduleInput): Promise<void> {
  if (input.target.kind !== 'groups') return;
  const found = await em.find(ScreenGroup, { id: { $in: input.target.group_ids } });
  const missing = input.target.group_ids.filter((id) => !found.some((g) => g.id === id));
  if (missing.length) throw notFound(`target.group_ids: Screen group ${missing.join(', ')} does not exist`);
}

export async function createSchedule(em: EntityManager, changes: Changes, input: ScheduleInput): Promise<ScheduleEntry> {
  const scene = await activeScene(em, input.scene_id);
  await checkTarget(em, input);
  const entry = em.create(ScheduleEntry, { name: input.name ?? null, scene, priority: input.priority, target: input.target, when: input.when });
  await em.flush();
  changes.push({ type: 'schedule.created', scheduleId: entry.id, name: entry.name ?? scene.name });
  return entry;
}

export async function updateSchedule(em: EntityManager, changes: Changes, input: ScheduleUpdate): Promise<ScheduleEntry> {
  const entry = await em.findOne(ScheduleEntry, { id: input.id });
  if (!entry) throw notFound(`Schedule entry not found: ${input.id}`);
  const scene = await activeScene(em, input.scene_id);
  await checkTarget(em, input);
  em.assign(entry, { name: input.name ?? null, scene, priority: input.priority, target: input.target, when: input.when });
  await em.flush();
  changes.push({ type: 'schedule.updated', scheduleId: entry.id, name: entry.name ?? scene.name });
  return entry;
}

export async function deleteSchedule(em: EntityManager, changes: Changes, id: number): Promise<void> {
  const entry = await em.findOne(ScheduleEntry, { id });
  if (!entry) throw notFound(`Schedule entry not found: ${id}`);
  const name = entry.name ?? (await sceneNames(em, [entry.scene.id])).get(entry.scene.id) ?? `Scene ${entry.scene.id}`;
  em.remove(entry);
  await em.flush();
  changes.push({ type: 'schedule.deleted', scheduleId: id, name });
}

export async function startTakeover(em: EntityManager, changes: Changes, input: TakeoverInput, startedBy: string, now: number): Promise<Takeover> {
  const scene = await activeScene(em, input.scene_id);
  if (input.group_ids) {
    const found = await em.count(ScreenGroup, { id: { $in: input.group_ids } });
    if (found !== new Set(input.group_ids).size) throw notFound('group_ids: a chosen screen group does not exist');
  }
  const fields = {
    scene,
    banner: input.banner ?? null,
    groupIds: input.group_ids ?? null,
    endsAt: input.ends_at ? new Date(input.ends_at) : null,
    startedBy,
    startedAt: new Date(now),
  };
  const takeover = await em.findOne(Takeover, { id: 1 });
  const row = takeover ? em.assign(takeover, fields) : em.create(Takeover, { id: 1, ...fields });
  await em.flush();
  changes.push({ type: 'takeover.started', sceneId: scene.id, name: scene.name });
  return row;
}

/** Ends the takeover; false when there was none. */
export async function releaseTakeover(em: EntityManager, changes: Changes): Promise<boolean> {
  const takeover = await em.findOne(Takeover, { id: 1 });
  if (!takeover) return false;
  const sceneId = takeover.scene.id;
  const name = (await sceneNames(em, [sceneId])).get(sceneId) ?? `Scene ${sceneId}`;
  em.remove(takeover);
  await em.flush();
  changes.push({ type: 'takeover.released', sceneId, name });
  return true;
}

export const listGroups = (em: EntityManager) => em.find(ScreenGroup, {}, { orderBy: { name: 'asc' } });
export const listPlacements = (em: EntityManager) => em.find(ScreenPlacement, {});
export const listSchedules = (em: EntityManager) => em.find(ScheduleEntry, {}, { orderBy: { priority: 'desc', id: 'asc' } });
export const currentTakeover = (em: EntityManager) => em.findOne(Takeover, { id: 1 });

/** The takeover in force now (one past its end is over, though its row stays until the next). */
export async function activeTakeover(em: EntityManager, now: number): Promise<Takeover | null> {
  const takeover = await currentTakeover(em);
  return takeover && (!takeover.endsAt || takeover.endsAt.getTime() > now) ? takeover : null;
}

/** A schedule entry as the rules read it. */
export function ruleOf(entry: ScheduleEntry): ScheduleRule {
  return { id: entry.id, scene_id: entry.scene.id, priority: entry.priority, target: entry.target, when: entry.when };
}

/** Everything the rules need, read in one go; `groups` maps slugs to ids for screens that join by address. */
export async function loadProgramme(em: EntityManager): Promise<{ programme: Programme; groupsBySlug: Map<string, number>; groupOf: Map<string, number> }> {
  const [groups, placements, schedules, takeover] = await Promise.all([listGroups(em), listPlacements(em), listSchedules(em), currentTakeover(em)]);
  const assigned = new Map<string, number>();
  const groupOf = new Map<string, number>();
  for (const p of placements) {
    if (p.scene) assigned.set(p.device, p.scene.id);
    if (p.group) groupOf.set(p.device, p.group.id);
  }
  return {
    programme: {
      takeover: takeover ? { scene_id: takeover.scene.id, group_ids: takeover.groupIds ?? null, ends_at: takeover.endsAt?.toISOString() ?? null, banner: takeover.banner ?? null } : null,
      assigned,
      groupScenes: new Map(groups.map((g) => [g.id, g.scene?.id ?? null])),
      schedules: schedules.map(ruleOf),
    },
    groupsBySlug: new Map(groups.map((g) => [g.slug, g.id])),
    groupOf,
  };
}

/** What in the programme names this scene, as a sentence (null: nothing; the scene may go). */
export async function sceneUse(em: EntityManager, sceneId: number): Promise<string | null> {
  const [schedules, takeover, groups, screens] = await Promise.all([
    em.count(ScheduleEntry, { scene: sceneId }),
    em.count(Takeover, { scene: sceneId }),
    em.find(ScreenGroup, { scene: sceneId }),
    em.count(ScreenPlacement, { scene: sceneId }),
  ]);
  if (takeover) return 'The takeover shows this scene; release it first.';
  if (schedules) return `${schedules === 1 ? 'A schedule entry shows' : `${schedules} schedule entries show`} this scene; change or delete ${schedules === 1 ? 'it' : 'them'} first.`;
  if (groups.length) return `Screen group ${groups.map((g) => `"${g.name}"`).join(', ')} shows this scene; choose another scene for ${groups.length === 1 ? 'it' : 'them'} first.`;
  if (screens) return `${screens === 1 ? 'A screen is' : `${screens} screens are`} given this scene; change ${screens === 1 ? 'it' : 'them'} first.`;
  return null;
}
