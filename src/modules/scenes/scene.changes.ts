/**
 * The scenes module's change types and the pushes they make for admin consoles (screens get
 * theirs from the hub's screen state, which asks this module's directory what to show).
 */
import { push, type FeaturePushes } from '../../realtime/pushes.ts';
import { KIND_ROOMS } from '../../realtime/rooms.ts';
import type { SceneDirectory } from '../../realtime/scene-directory.ts';

declare module '../../domain/changes.ts' {
  interface ChangeTypes {
    'scene.created': { type: 'scene.created'; sceneId: number; name: string };
    'scene.updated': { type: 'scene.updated'; sceneId: number; name: string };
    'scene.deleted': { type: 'scene.deleted'; sceneId: number; name: string };
    'default-scene.changed': { type: 'default-scene.changed'; sceneId: number };
  }
}

/** Every scene the changes touch (edited, or showing an edited stream), as consoles see it now. */
export function scenePushes(directory: SceneDirectory): FeaturePushes {
  const admins = [KIND_ROOMS.admin];
  return {
    name: 'scenes',
    rooms: admins,
    async pushes(_changes, { version, scenes }) {
      const pushes = [];
      for (const id of scenes.sceneIds) {
        const resolved = await directory.resolveId(id, { fresh: true });
        pushes.push(resolved ? push(admins, 'scene:updated', { version, ...resolved }) : push(admins, 'scene:deleted', { version, scene_id: id }));
      }
      if (scenes.defaultChanged) {
        const resolved = await directory.resolve(null, { fresh: true });
        if (resolved) pushes.push(push(admins, 'scene:default-changed', { version, ...resolved }));
      }
      return pushes;
    },
  };
}
