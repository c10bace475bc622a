/**
 * What plays where and when: screen groups and what each screen is given, schedules, and the
 * takeover. The rules that turn these into what a screen shows are in src/shared/schedules.
 */
import { z } from 'zod';
import { parseClock } from '../schedules/local-time.ts';
import { SHOWN_RULES } from '../schedules/rules.ts';
import { blankAsNull, Id, IdBody, IsoDate, name, SuccessDto, TimeZone } from './common.ts';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';

export { SHOWN_RULES, type ShownRule } from '../schedules/rules.ts';

/** A screen's lasting device id (what it sends when it registers). */
export const DeviceId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'Expected a device id (8–64 letters, digits, - or _)');

// ---- groups -----------------------------------------------------------------------------------

/** Said in the document and by the refusal. */
export const GROUP_NAME_RULE = 'A group name needs a letter or a digit (screens join with ?group=<slug>)';

export const GroupInput = z.object({
  name: name({ max: 60, min: 1, required: 'Name is required', description: `${GROUP_NAME_RULE}.` }),
  scene_id: Id.nullable().optional().describe("The group's own scene (null: none; its screens follow the rules below it)"),
});
export const GroupUpdate = GroupInput.partial().extend({ id: Id });
export type GroupInput = z.output<typeof GroupInput>;
export type GroupUpdate = z.output<typeof GroupUpdate>;

export const ScreenGroupDto = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  slug: z.string().describe('Screens join with ?group=<slug> in their address'),
  scene_id: z.number().int().nullable(),
  devices: z.array(z.string()).describe('The device ids of its screens'),
  created_at: IsoDate,
});
export type ScreenGroupDto = z.output<typeof ScreenGroupDto>;

/** One screen's place: its group and its own scene (each null to clear it). */
export const AssignmentInput = z.object({
  device: DeviceId,
  group_id: Id.nullable().optional(),
  scene_id: Id.nullable().optional(),
});
export type AssignmentInput = z.output<typeof AssignmentInput>;

export const AssignmentDto = z.strictObject({
  device: z.string(),
  group_id: z.number().int().nullable(),
  scene_id: z.number().int().nullable(),
});
export type AssignmentDto = z.output<typeof AssignmentDto>;

// ---- schedules --------------------------------------------------------------------------------

/** Rules of a window's end the document states in words (JSON Schema cannot compare two fields). */
const WEEKLY_END_RULES = {
  sameDay: 'The end must be after the start (or mark the window as overnight)',
  overnight: 'An overnight window ends the next day, before its start time',
};
const END_AFTER_START = 'The end must be after the start';
const END_IN_FUTURE = 'The end must be in the future';

const Clock = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'Expected a time as HH:MM (00:00–23:59)').refine((v) => parseClock(v) !== null, 'Expected a time as HH:MM (00:00–23:59)');

export const ScheduleWhenInput = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('weekly'),
      days: z
        .array(z.number().int().min(1, 'Days are 1 (Monday) to 7 (Sunday)').max(7, 'Days are 1 (Monday) to 7 (Sunday)'))
        .min(1, 'Choose at least one day')
        .transform((days) => [...new Set(days)].sort()),
      start: Clock,
      end: Clock.meta({ description: `${WEEKLY_END_RULES.sameDay}. ${WEEKLY_END_RULES.overnight}.` }),
      overnight: z.boolean().default(false).describe('The window ends the next day (22:00–02:00)'),
      time_zone: TimeZone('Unknown time zone: use an IANA name such as Europe/Berlin'),
    })
    .superRefine((w, ctx) => {
      const start = parseClock(w.start)!;
      const end = parseClock(w.end)!;
      if (!w.overnight && end <= start) ctx.addIssue({ code: 'custom', path: ['end'], message: WEEKLY_END_RULES.sameDay });
      if (w.overnight && end > start) ctx.addIssue({ code: 'custom', path: ['end'], message: WEEKLY_END_RULES.overnight });
    }),
  z
    .object({ kind: z.literal('once'), starts_at: IsoDate, ends_at: IsoDate.describe(`${END_AFTER_START}.`) })
    .refine((w) => Date.parse(w.ends_at) > Date.parse(w.starts_at), { path: ['ends_at'], message: END_AFTER_START }),
]);

export const ScheduleTargetInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('groups'), group_ids: z.array(Id).min(1, 'Choose at least one group').max(100) }),
  z.object({ kind: z.literal('screens'), devices: z.array(DeviceId).min(1, 'Choose at least one screen').max(100) }),
]);

export const MAX_PRIORITY = 100;

export const ScheduleInput = z.object({
  name: blankAsNull(name({ max: 80 })),
  scene_id: Id,
  priority: z.number().int('Priority is a whole number').min(0, `Priority is 0–${MAX_PRIORITY}`).max(MAX_PRIORITY, `Priority is 0–${MAX_PRIORITY}`).default(0),
  target: ScheduleTargetInput,
  when: ScheduleWhenInput,
});
export const ScheduleUpdate = ScheduleInput.extend({ id: Id });
export type ScheduleInput = z.output<typeof ScheduleInput>;
export type ScheduleUpdate = z.output<typeof ScheduleUpdate>;

export const ScheduleDto = z.strictObject({
  id: z.number().int(),
  name: z.string().nullable(),
  scene_id: z.number().int(),
  priority: z.number().int(),
  target: z.union([
    z.strictObject({ kind: z.literal('all') }),
    z.strictObject({ kind: z.literal('groups'), group_ids: z.array(z.number().int()) }),
    z.strictObject({ kind: z.literal('screens'), devices: z.array(z.string()) }),
  ]),
  when: z.union([
    z.strictObject({ kind: z.literal('weekly'), days: z.array(z.number().int()), start: z.string(), end: z.string(), overnight: z.boolean(), time_zone: z.string() }),
    z.strictObject({ kind: z.literal('once'), starts_at: IsoDate, ends_at: IsoDate }),
  ]),
  created_at: IsoDate,
});
export type ScheduleDto = z.output<typeof ScheduleDto>;

export const PreviewQuery = z.object({ at: IsoDate.optional().describe('The instant to preview (default: now)') });

/** What plays at one instant: on each group's screens, on screens in no group, and the next change. */
export const ProgrammePreviewDto = z.strictObject({
  at: IsoDate,
  groups: z.array(z.strictObject({ group_id: z.number().int(), scene_id: z.number().int().nullable(), rule: z.enum(SHOWN_RULES), schedule_id: z.number().int().nullable() })),
  ungrouped: z.strictObject({ scene_id: z.number().int().nullable(), rule: z.enum(SHOWN_RULES), schedule_id: z.number().int().nullable() }),
  next_change: IsoDate.nullable().describe('The next instant a schedule starts or stops within a week'),
  overlaps: z.array(z.strictObject({ a: z.number().int(), b: z.number().int(), at: IsoDate })).describe('Entries of equal priority for the same screens at the same time, in the week from `at`'),
});
export type ProgrammePreviewDto = z.output<typeof ProgrammePreviewDto>;

// ---- takeover ---------------------------------------------------------------------------------

export const TakeoverInput = z
  .object({
    scene_id: Id,
    banner: blankAsNull(name({ max: 140, description: 'A short line shown over the scene.' })),
    group_ids: z.array(Id).min(1, 'Choose at least one group, or leave groups out for every screen').max(100).nullable().optional(),
    ends_at: IsoDate.nullable().optional().describe(`When it ends by itself (null: when released). ${END_IN_FUTURE}.`),
  })
  .refine((t) => !t.ends_at || Date.parse(t.ends_at) > Date.now(), { path: ['ends_at'], message: END_IN_FUTURE });
export type TakeoverInput = z.output<typeof TakeoverInput>;

export const TakeoverDto = z.strictObject({
  scene_id: z.number().int(),
  banner: z.string().nullable(),
  group_ids: z.array(z.number().int()).nullable().describe('null: every screen'),
  ends_at: IsoDate.nullable(),
  started_by: z.string(),
  started_at: IsoDate,
});
export type TakeoverDto = z.output<typeof TakeoverDto>;

/** The whole programme, as the console shows it (GET answers and the `programme:updated` push). */
export const ProgrammeDto = z.strictObject({
  groups: z.array(ScreenGroupDto),
  placements: z.array(AssignmentDto),
  schedules: z.array(ScheduleDto),
  takeover: TakeoverDto.nullable(),
});
export type ProgrammeDto = z.output<typeof ProgrammeDto>;

export const programmeEndpoints = {
  read: endpoint({ ...ROUTES['programme.read'], summary: 'The whole programme: groups, placements, schedule entries and the takeover', access: 'viewer', responses: { 200: ProgrammeDto } }),
  groups: endpoint({ ...ROUTES['programme.groups'], summary: 'Screen groups, with their screens', access: 'viewer', responses: { 200: z.array(ScreenGroupDto) } }),
  createGroup: endpoint({ ...ROUTES['programme.createGroup'], summary: 'Create a screen group', access: 'operator', body: GroupInput, responses: { 201: ScreenGroupDto }, errors: [404, 409] }),
  updateGroup: endpoint({ ...ROUTES['programme.updateGroup'], summary: "Rename a group or change its own scene", access: 'operator', body: GroupUpdate, responses: { 200: ScreenGroupDto }, errors: [404, 409] }),
  deleteGroup: endpoint({ ...ROUTES['programme.deleteGroup'], summary: 'Delete a group (its screens follow the building-wide rules)', access: 'operator', body: IdBody, responses: { 200: SuccessDto }, errors: [404, 409] }),
  assign: endpoint({ ...ROUTES['programme.assign'], summary: "Put a screen in a group and/or give it its own scene", access: 'operator', body: AssignmentInput, responses: { 200: AssignmentDto }, errors: [404, 409] }),
  schedules: endpoint({ ...ROUTES['programme.schedules'], summary: 'Every schedule entry', access: 'viewer', responses: { 200: z.array(ScheduleDto) } }),
  createSchedule: endpoint({ ...ROUTES['programme.createSchedule'], summary: 'Add a schedule entry', access: 'operator', body: ScheduleInput, responses: { 201: ScheduleDto }, errors: [404, 409] }),
  updateSchedule: endpoint({ ...ROUTES['programme.updateSchedule'], summary: 'Change a schedule entry', access: 'operator', body: ScheduleUpdate, responses: { 200: ScheduleDto }, errors: [404, 409] }),
  deleteSchedule: endpoint({ ...ROUTES['programme.deleteSchedule'], summary: 'Delete a schedule entry', access: 'operator', body: IdBody, responses: { 200: SuccessDto }, errors: [404] }),
  preview: endpoint({ ...ROUTES['programme.preview'], summary: 'What plays at an instant, per group, and equal-priority overlaps', access: 'viewer', query: PreviewQuery, responses: { 200: ProgrammePreviewDto } }),
  takeover: endpoint({ ...ROUTES['programme.takeover'], summary: 'The takeover in force (null: none)', access: 'viewer', responses: { 200: z.strictObject({ takeover: TakeoverDto.nullable() }) } }),
  startTakeover: endpoint({ ...ROUTES['programme.startTakeover'], summary: 'Show one scene on every screen (or chosen groups) now', access: 'operator', body: TakeoverInput, responses: { 200: TakeoverDto }, errors: [404, 409] }),
  releaseTakeover: endpoint({ ...ROUTES['programme.releaseTakeover'], summary: 'End the takeover: every screen returns to its own rule', access: 'operator', responses: { 200: SuccessDto } }),
};
