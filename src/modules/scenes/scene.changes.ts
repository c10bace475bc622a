/**
 * The scenes module's change types and the pushes they make for admin consoles (walls and
 * kiosks get theirs from the programme module's screen feature; both ask the scene directory,
 * which reads a batch's touched scenes once).
 */
import { push, type FeaturePushes } from '../../realtime/pushes.ts';
import { KIND_ROOMS } from '../../realtime/rooms.ts';
import { refKey, type Affected, type SceneDirectory } from './scene-directory.ts';

declare module '../../domain/changes.ts' {
  interface ChangeTypes {
    'scene.created': { type: 'scene.created'; sceneId: number; name: string };
    'scene.updated': { type: 'scene.updated'; sceneId: number; name: string };
    'scene.deleted': { type: 'scene.deleted'; sceneId: number; name: string };
    'default-scene.changed': { type: 'default-scene.changed'; sceneId: number };
    /** A ranked scene's picks changed (the name says why: "Bear Cam in place of Meadow Cam: activity 4× its usual…"). */
    'scene.picks-changed': { type: 'scene.picks-changed'; sceneId: number; name: string };
    /** The sun rose or set somewhere: the daylight scenes are resolved again (pushed, not journaled). */
    'scene.daylight': { type: 'scene.daylight'; sceneIds: number[]; transient: true };
  }
}

/** Every scene the changes touch (edited, or showing an edited stream), as consoles see it now: from the change's one resolution. */
export const scenePushes = (directory: SceneDirectory): FeaturePushes => ({
  name: 'scenes',
  rooms: [KIND_ROOMS.admin],
  // Worked out once, on the committing node (the screen feature asks the same, from the same cache).
  origin: (changes) => directory.affected(changes),
  async pushes(_changes, { version, facts }) {
    const scenes = facts as Affected;
    const defaultChanged = scenes.defaultSceneId !== null;
    const resolution = await directory.resolveChange({ sceneIds: scenes.sceneIds, refs: defaultChanged ? [null] : [], defaultSceneId: scenes.defaultSceneId });
    const admins = [KIND_ROOMS.admin];
    const pushes = scenes.sceneIds.map((id) => {
      const resolved = resolution.byId.get(id) ?? null;
      return resolved ? push(admins, 'scene:updated', { version, ...resolved }) : push(admins, 'scene:deleted', { version, scene_id: id });
    });
    const current = defaultChanged ? resolution.byRef.get(refKey(null)) : null;
    if (current) pushes.push(push(admins, 'scene:default-changed', { version, ...current }));
    return pushes;
  },
});
