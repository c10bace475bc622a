/** Scenes: what a wall shows (spec §3, §4, §5). */
import { z } from 'zod';
import { DEFAULTS, LAYOUT_TYPES, LIMITS, MAX_SCENE_STREAMS, SELECTION_ALGORITHMS, type LayoutType, type SelectionAlgorithm } from '../constants.ts';
import { booleanQuery, cleanText, Id, optionalText } from './common.ts';
import type { StreamDto } from './streams.ts';

export const SceneListQuery = z.object({ active: booleanQuery.optional() });

/** Up to five slots in order; null marks an empty slot, so slot numbers survive a save. */
const SlotStreamIds = z
  .array(Id.nullable())
  .max(MAX_SCENE_STREAMS, `A scene holds at most ${MAX_SCENE_STREAMS} streams`)
  .refine((ids) => {
    const present = ids.filter((id) => id !== null);
    return new Set(present).size === present.length;
  }, 'A stream can fill only one slot');

const sceneFields = z.object({
  name: cleanText(LIMITS.sceneName).min(1, 'Scene name is required'),
  description: optionalText(LIMITS.description),
  prompt: optionalText(LIMITS.prompt),
  selection_algorithm: z.enum(SELECTION_ALGORITHMS),
  max_streams: z.number().int().min(1).max(MAX_SCENE_STREAMS),
  layout_type: z.enum(LAYOUT_TYPES),
  active: z.boolean(),
  stream_ids: SlotStreamIds,
});

export const SceneCreate = sceneFields.extend({
  name: z.string({ error: 'Scene name is required' }).pipe(sceneFields.shape.name),
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
  idOrSlug: z.string().trim().min(1).max(LIMITS.sceneName * 2),
});


/** A stream as a scene shows it: its place on the wall, 1..n. */
export interface SceneStreamDto extends StreamDto {
  position: number;
}

export interface SceneDto {
  id: number;
  /** Null when the name has no letters or digits; such a scene is addressed by id. */
  slug: string | null;
  name: string;
  description: string | null;
  prompt: string | null;
  selection_algorithm: SelectionAlgorithm;
  max_streams: number;
  layout_type: LayoutType;
  active: boolean;
  created_at: string;
  updated_at: string;
  /** The manual slots 1-5 (null = empty slot), so an editor can restore them. */
  stream_ids: (number | null)[];
  is_default: boolean;
}
