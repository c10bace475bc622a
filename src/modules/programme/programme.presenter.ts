import type { AssignmentDto, ProgrammeDto, ScheduleDto, ScreenGroupDto, TakeoverDto } from '../../shared/api/programme.ts';
import type { EntityManager } from '../../db.ts';
import type { ScheduleEntry, ScreenGroup, ScreenPlacement, Takeover } from './programme.entity.ts';
import { activeTakeover, listGroups, listPlacements, listSchedules } from './programme.service.ts';

export function presentGroup(group: ScreenGroup, placements: readonly ScreenPlacement[]): ScreenGroupDto {
  return {
    id: group.id,
    name: group.name,
    slug: group.slug,
    scene_id: group.scene?.id ?? null,
    devices: placements.filter((p) => p.group?.id === group.id).map((p) => p.device),
    created_at: group.createdAt.toISOString(),
  };
}

export function presentPlacement(p: ScreenPlacement): AssignmentDto {
  return { device: p.device, group_id: p.group?.id ?? null, scene_id: p.scene?.id ?? null };
}

export function presentSchedule(entry: ScheduleEntry): ScheduleDto {
  const when = entry.when.kind === 'weekly' ? { ...entry.when, days: [...entry.when.days] } : { ...entry.when };
  const target = entry.target.kind === 'groups' ? { kind: 'groups' as const, group_ids: [...entry.target.group_ids] } : entry.target.kind === 'screens' ? { kind: 'screens' as const, devices: [...entry.target.devices] } : { kind: 'all' as const };
  return { id: entry.id, name: entry.name ?? null, scene_id: entry.scene.id, priority: entry.priority, target, when, created_at: entry.createdAt.toISOString() };
}

export function presentTakeover(t: Takeover): TakeoverDto {
  return { scene_id: t.scene.id, banner: t.banner ?? null, group_ids: t.groupIds ?? null, ends_at: t.endsAt?.toISOString() ?? null, started_by: t.startedBy, started_at: t.startedAt.toISOString() };
}

/** The whole programme as consoles see it. */
export async function presentProgramme(em: EntityManager, now: number): Promise<ProgrammeDto> {
  const [groups, placements, schedules, takeover] = await Promise.all([listGroups(em), listPlacements(em), listSchedules(em), activeTakeover(em, now)]);
  return {
    groups: groups.map((g) => presentGroup(g, placements)),
    placements: placements.map(presentPlacement),
    schedules: schedules.map(presentSchedule),
    takeover: takeover ? presentTakeover(takeover) : null,
  };
}
