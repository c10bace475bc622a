/** Scenes: what a wall shows (spec §3, §4, §5). */
import { z } from 'zod';
import { DEFAULTS, LAYOUT_TYPES, LIMITS, MAX_SCENE_STREAMS, SELECTION_ALGORITHMS } from '../constants.ts';
import { blankAsNull, booleanQuery, Id, IdBody, IsoDate, line, multiline, name, SuccessDto } from './common.ts';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';
import { StreamDto } from './streams.ts';

export const SceneListQuery = z.object({ active: booleanQuery.optional() });

const SLOT_RULE = 'A stream can fill only one slot';

/** Up to five slots in order; null marks an empty slot, so slot numbers survive a save. */
const SlotStreamIds = z
  .array(Id.nullable())
  .max(MAX_SCENE_STREAMS, `A scene holds at most ${MAX_SCENE_STREAMS} streams`)
  .refine((ids) => {
    const present = ids.filter((id) => id !== null);
    return new Set(present).size === present.length;
  }, SLOT_RULE)
  .describe(`The slots in order (null: an empty slot). ${SLOT_RULE}.`);

const sceneFields = z.object({
  name: name({ max: LIMITS.sceneName, min: 1, required: 'Scene name is required' }),
  description: blankAsNull(multiline({ max: LIMITS.description })),
  prompt: blankAsNull(multiline({ max: LIMITS.prompt })),
  selection_algorithm: z.enum(SELECTION_ALGORITHMS),
  max_streams: z.number().int().min(1).max(MAX_SCENE_STREAMS),
  layout_type: z.enum(LAYOUT_TYPES),
  active: z.boolean(),
  stream_ids: SlotStreamIds,
});

export const SceneCreate = sceneFields.extend({
  selection_algorithm: sceneFields.shape.selection_algorithm.default('manual'),
  max_streams: sceneFields.shape.max_streams.default(DEFAULTS.maxStreams),
  layout_type: sceneFields.shape.layout_type.default(DEFAULTS.layoutType),
  active: sceneFields.shape.active.default(true),
  stream_ids: sceneFields.shape.stream_ids.optional(),
});
export type SceneCreate = z.infer<typeof SceneCreate>;

export const SceneUpdate = sceneFields.partial().extend({ id: Id });
export type SceneUpdate = z.infer<typeof SceneUpdate>;

/** `/api/scenes/:idOrSlug`: digits are tried as a slug first, then as an id. */
export const SceneRef = z.object({
  idOrSlug: line({ max: LIMITS.sceneName * 2, min: 1, trim: false, description: 'A scene\'s slug, or its id' }),
});

/** A stream as a scene shows it: its place on the wall, 1..n. */
export const SceneStreamDto = StreamDto.extend({
  position: z.number().int().describe('Its place on the wall, 1..n'),
});
export type SceneStreamDto = z.output<typeof SceneStreamDto>;

export const SceneDto = z.strictObject({
  id: z.number().int(),
  slug: z.string().nullable().describe('Null when the name has no letters or digits; such a scene is addressed by id'),
  name: z.string(),
  description: z.string().nullable(),
  prompt: z.string().nullable(),
  selection_algorithm: z.enum(SELECTION_ALGORITHMS),
  max_streams: z.number().int(),
  layout_type: z.enum(LAYOUT_TYPES),
  active: z.boolean(),
  created_at: IsoDate,
  updated_at: IsoDate,
  stream_ids: z.array(z.number().int().nullable()).describe('The manual slots 1-5 (null = empty slot), so an editor can restore them'),
  is_default: z.boolean(),
  picks: z
    .array(z.strictObject({ position: z.number().int(), stream_id: z.number().int(), since: IsoDate, reason: z.string() }))
    .describe('A ranked scene\'s current picks: which stream holds each tile, since when, and why; empty for other scenes'),
});
export type SceneDto = z.output<typeof SceneDto>;

export const sceneEndpoints = {
  list: endpoint({
    ...ROUTES['scene.list'],
    summary: 'Every scene (anonymous callers see active scenes only)',
    access: 'public',
    query: SceneListQuery,
    responses: { 200: z.array(SceneDto) },
  }),
  get: endpoint({
    ...ROUTES['scene.get'],
    summary: 'One active scene, by slug or id (a slug wins over an id of the same digits)',
    access: 'public',
    params: SceneRef,
    responses: { 200: SceneDto },
    errors: [404],
  }),
  streams: endpoint({
    ...ROUTES['scene.streams'],
    summary: 'The streams an active scene shows, in wall order',
    access: 'public',
    params: SceneRef,
    responses: { 200: z.array(SceneStreamDto) },
    errors: [404],
  }),
  create: endpoint({ ...ROUTES['scene.create'], summary: 'Add a scene', access: 'curator', body: SceneCreate, responses: { 201: SceneDto }, errors: [404, 409] }),
  update: endpoint({
    ...ROUTES['scene.update'],
    summary: 'Change a scene\'s fields and slots (those given); the default scene cannot be deactivated',
    access: 'curator',
    body: SceneUpdate,
    responses: { 200: z.strictObject({ success: z.literal(true), scene: SceneDto }) },
    errors: [404, 409],
  }),
  remove: endpoint({
    ...ROUTES['scene.remove'],
    summary: 'Deactivate a scene (soft delete); the default scene is refused',
    access: 'curator',
    body: IdBody,
    responses: { 200: SuccessDto },
    errors: [404, 409],
  }),
};
