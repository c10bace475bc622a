import type { SceneDto, SceneUpdate } from '../../shared/api/index.ts';
import type { LayoutType, SelectionAlgorithm } from '../../shared/constants.ts';
import { iso } from '../streams/stream.presenter.ts';

/** A scene as an entity or a raw row (same property names; raw dates arrive as text). */
export interface SceneFields {
  id: number;
  slug?: string | null;
  name: string;
  description?: string | null;
  prompt?: string | null;
  selectionAlgorithm: SelectionAlgorithm;
  maxStreams: number;
  layoutType: LayoutType;
  active: boolean;
  createdAt: Date | string;
  updatedAt: Date | string;
}

/** The scene's own fields as the API names them and as the entity does: the one mapping, both ways. */
const FIELDS = {
  name: 'name',
  description: 'description',
  prompt: 'prompt',
  selection_algorithm: 'selectionAlgorithm',
  max_streams: 'maxStreams',
  layout_type: 'layoutType',
  active: 'active',
} as const satisfies Partial<Record<keyof SceneDto, keyof SceneFields>>;

type Editable = Omit<SceneUpdate, 'id' | 'stream_ids'>;
type EntityFields = { [K in keyof typeof FIELDS as (typeof FIELDS)[K]]: SceneFields[(typeof FIELDS)[K]] };

/** The entity's fields an API input gives (a field left out stays as it is). */
export function sceneFieldsOf(input: Editable): Partial<EntityFields> {
  const fields: Record<string, unknown> = {};
  for (const [api, entity] of Object.entries(FIELDS)) {
    const value = input[api as keyof Editable];
    if (value !== undefined) fields[entity] = value;
  }
  return fields as Partial<EntityFields>;
}

/** A ranked scene's pick as stored (raw rows carry the time as text). */
export interface PickFields {
  position: number;
  stream_id: number;
  since: Date | string;
  reason: string;
}

export function presentScene(scene: SceneFields, slots: readonly (number | null)[], defaultSceneId: number | null, picks: readonly PickFields[] = []): SceneDto {
  return {
    id: scene.id,
    slug: scene.slug ?? null,
    ...(Object.fromEntries(Object.entries(FIELDS).map(([api, entity]) => [api, scene[entity] ?? null])) as { [K in keyof typeof FIELDS]: SceneDto[K] }),
    created_at: iso(scene.createdAt),
    updated_at: iso(scene.updatedAt),
    stream_ids: [...slots],
    is_default: scene.id === defaultSceneId,
    picks: picks.map((p) => ({ position: p.position, stream_id: p.stream_id, since: iso(p.since), reason: p.reason })),
  };
}
