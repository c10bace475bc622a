/**
 * Which streams screens show right now, cluster-wide: every online wall's and kiosk's scene,
 * resolved (from the scene cache), plus whatever a screen reported playing. The quality queue
 * ranks these streams' analyses above the rest and re-checks them without backoff.
 */
import type { SceneDirectory } from '../scenes/scene-directory.ts';
import type { ScreenPresence } from '../../shared/events.ts';

export function streamsOnScreens(
  listScreens: () => Promise<{ screens: ScreenPresence[] }>,
  directory: Pick<SceneDirectory, 'resolveId'>,
): () => Promise<ReadonlySet<number>> {
  return async () => {
    const { screens } = await listScreens();
    const ids = new Set<number>();
    const sceneIds = new Set<number>();
    for (const screen of screens) {
      if (!screen.online || (screen.kind !== 'wall' && screen.kind !== 'kiosk')) continue;
      if (screen.scene_id !== null) sceneIds.add(screen.scene_id);
      for (const id of Object.keys(screen.health)) ids.add(Number(id));
    }
    for (const sceneId of sceneIds) {
      for (const stream of (await directory.resolveId(sceneId))?.streams ?? []) ids.add(stream.id);
    }
    return ids;
  };
}
