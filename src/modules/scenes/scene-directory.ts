/** The scenes module's answer to what the hub needs (see realtime/scene-directory.ts). */
import type { Orm } from '../../db.ts';
import type { DomainChange } from '../../domain/changes.ts';
import type { SceneDirectory } from '../../realtime/scene-directory.ts';
import type { SceneSnapshots } from './scene-snapshots.ts';
import { affectedScenes } from './scenes.service.ts';

export function createSceneDirectory(orm: Orm, snapshots: SceneSnapshots): SceneDirectory {
  return {
    invalidate: () => snapshots.invalidate(),
    resolve: (ref, options = {}) => (ref === null ? snapshots.defaultSnapshot(options) : snapshots.byRef(ref, options)),
    resolveId: (id, options = {}) => snapshots.byId(id, options),
    affected: (changes: readonly DomainChange[]) => affectedScenes(orm.em.fork(), changes),
  };
}
