/** The default scene (system_config `default_scene_id`). */
import { z } from 'zod';
import { Id } from './common.ts';

export const DefaultSceneUpdate = z.object({ scene_id: Id });
export type DefaultSceneUpdate = z.infer<typeof DefaultSceneUpdate>;


export interface DefaultSceneDto {
  scene_id: number;
  /** Admins only: who last changed it (username, `token:<name>`, `system`) and when. */
  updated_by?: string | null;
  updated_at?: string | null;
}
