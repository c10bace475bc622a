/**
 * What operators say about what plays where and when: screen groups, each screen's place
 * (its group, its own scene), schedule entries and the one takeover. Scenes they name are
 * referenced by key, so a scene in use cannot vanish under them (the scenes module asks
 * sceneUsers() before it deletes one).
 */
import { defineEntity, p } from '@mikro-orm/core';
import type { ScheduleTarget, ScheduleWhen } from '../../shared/schedules/windows.ts';
import { Scene } from '../scenes/scene.entity.ts';

export const ScreenGroupSchema = defineEntity({
  name: 'ScreenGroup',
  tableName: 'screen_groups',
  properties: {
    id: p.integer().primary(),
    name: p.text().unique('screen_groups_name_unique'),
    slug: p.text().unique('screen_groups_slug_unique'),
    scene: () => p.manyToOne(Scene).nullable().deleteRule('restrict'),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
  },
  checks: [{ name: 'screen_groups_name_check', expression: "btrim(name) <> ''" }],
});
export class ScreenGroup extends ScreenGroupSchema.class {}
ScreenGroupSchema.setClass(ScreenGroup);

/** One screen's place, by its lasting device id: at most one group, and optionally its own scene. */
export const ScreenPlacementSchema = defineEntity({
  name: 'ScreenPlacement',
  tableName: 'screen_placements',
  properties: {
    device: p.text().primary(),
    group: () => p.manyToOne(ScreenGroup).nullable().deleteRule('set null').index('screen_placements_group_idx'),
    scene: () => p.manyToOne(Scene).nullable().deleteRule('restrict'),
    updatedAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class ScreenPlacement extends ScreenPlacementSchema.class {}
ScreenPlacementSchema.setClass(ScreenPlacement);

export const ScheduleEntrySchema = defineEntity({
  name: 'ScheduleEntry',
  tableName: 'schedule_entries',
  properties: {
    id: p.integer().primary(),
    name: p.text().nullable(),
    scene: () => p.manyToOne(Scene).deleteRule('restrict'),
    priority: p.integer().default(0),
    target: p.json<ScheduleTarget>(),
    when: p.json<ScheduleWhen>(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
  },
  checks: [{ name: 'schedule_entries_priority_check', expression: 'priority between 0 and 100' }],
});
export class ScheduleEntry extends ScheduleEntrySchema.class {}
ScheduleEntrySchema.setClass(ScheduleEntry);

/** A schedule boundary that was applied: the row that makes it happen once across all nodes. */
export const ProgrammeBoundarySchema = defineEntity({
  name: 'ProgrammeBoundary',
  tableName: 'programme_boundaries',
  properties: {
    at: p.datetime().primary(),
    appliedAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
  },
});
export class ProgrammeBoundary extends ProgrammeBoundarySchema.class {}
ProgrammeBoundarySchema.setClass(ProgrammeBoundary);

/** The takeover in force: one row at most (id 1). */
export const TakeoverSchema = defineEntity({
  name: 'Takeover',
  tableName: 'takeovers',
  properties: {
    id: p.integer().primary().autoincrement(false),
    scene: () => p.manyToOne(Scene).deleteRule('restrict'),
    banner: p.text().nullable(),
    /** Null: every screen. */
    groupIds: p.json<number[]>().nullable(),
    endsAt: p.datetime().nullable(),
    startedBy: p.text(),
    startedAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
  },
  checks: [{ name: 'takeovers_single_check', expression: 'id = 1' }],
});
export class Takeover extends TakeoverSchema.class {}
TakeoverSchema.setClass(Takeover);
