/** The scenes module's answer to what the hub needs (see realtime/scene-directory.ts). */
import type { Orm } from '../../db.ts';
import type { DomainChange } from '../../domain/changes.ts';
import { refKey, type SceneDirectory } from '../../realtime/scene-directory.ts';
import type { SceneSnapshots } from './scene-snapshots.ts';
import { affectedScenes } from './scenes.service.ts';

export function createSceneDirectory(orm: Orm, snapshots: SceneSnapshots): SceneDirectory {
  return {
    async resolveChange({ sceneIds, refs }) {
      const byRef = new Map(await Promise.all(refs.map(async (ref) => [refKey(ref), ref === null ? await snapshots.defaultSnapshot({ fresh: true }) : await snapshots.byRef(ref, { fresh: true })] as const)));
      // A scene a reference already resolved is not read twice.
      const known = new Map([...byRef.values()].flatMap((r) => (r ? [[r.scene.id, r] as const] : [])));
      const byId = new Map(await Promise.all(sceneIds.map(async (id) => [id, known.get(id) ?? (await snapshots.byId(id, { fresh: true }))] as const)));
      return { byId, byRef };
    },
    invalidate: () => snapshots.invalidate(),
    resolve: (ref, options = {}) => (ref === null ? snapshots.defaultSnapshot(options) : snapshots.byRef(ref, options)),
    resolveId: (id, options = {}) => snapshots.byId(id, options),
    affected: (changes: readonly DomainChange[]) => affectedScenes(orm.em.fork(), changes),
  };
}
