/** The scenes module's answer to what the hub needs (see realtime/scene-directory.ts). */
import type { Orm } from '../../db.ts';
import type { DomainChange } from '../../realtime/changes.ts';
import type { SceneDirectory } from '../../realtime/scene-directory.ts';
import { presentStream } from '../streams/stream.presenter.ts';
import { Stream } from '../streams/stream.entity.ts';
import type { SceneSnapshots } from './scene-snapshots.ts';
import { affectedScenes } from './scenes.service.ts';

const VERSION_SEQUENCE = 'screen_push_version';

export function createSceneDirectory(orm: Orm, snapshots: SceneSnapshots): SceneDirectory {
  return {
    async currentVersion() {
      const [row] = await orm.em
        .getConnection()
        .execute<{ v: string }[]>(`select case when is_called then last_value else 0 end as v from ${VERSION_SEQUENCE}`);
      return Number(row?.v ?? 0);
    },
    async nextVersion() {
      const [row] = await orm.em.getConnection().execute<{ v: string }[]>(`select nextval('${VERSION_SEQUENCE}') as v`);
      return Number(row!.v);
    },
    invalidate: () => snapshots.invalidate(),
    resolve: (ref, options = {}) => (ref === null ? snapshots.defaultSnapshot(options) : snapshots.byRef(ref, options)),
    resolveId: (id, options = {}) => snapshots.byId(id, options),
    affected: (changes: readonly DomainChange[]) => affectedScenes(orm.em.fork(), changes),
    async streams(ids) {
      if (ids.length === 0) return [];
      const streams = await orm.em.fork().find(Stream, { id: { $in: [...ids] } });
      return streams.map(presentStream);
    },
  };
}
