import type { SceneDto } from '../../shared/api/index.ts';
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

export function presentScene(scene: SceneFields, slots: readonly (number | null)[], defaultSceneId: number | null): SceneDto {
  return {
    id: scene.id,
    slug: scene.slug ?? null,
    name: scene.name,
    description: scene.description ?? null,
    prompt: scene.prompt ?? null,
    selection_algorithm: scene.selectionAlgorithm,
    max_streams: scene.maxStreams,
    layout_type: scene.layoutType,
    active: scene.active,
    created_at: iso(scene.createdAt),
    updated_at: iso(scene.updatedAt),
    stream_ids: [...slots],
    is_default: scene.id === defaultSceneId,
  };
}
