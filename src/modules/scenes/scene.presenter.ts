import type { SceneDto } from '../../shared/api.ts';
import type { Scene } from './scene.entity.ts';

export function presentScene(scene: Scene, slots: readonly (number | null)[], defaultSceneId: number | null): SceneDto {
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
    created_at: scene.createdAt.toISOString(),
    updated_at: scene.updatedAt.toISOString(),
    stream_ids: [...slots],
    is_default: scene.id === defaultSceneId,
  };
}
