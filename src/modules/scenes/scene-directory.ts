/**
 * The scenes as the rest of the app asks for them: what a reference (a slug or id, or the
 * default scene) shows now, cached on this node until a change touches scenes, and which scenes
 * a batch of changes touches (the screen feature and the consoles' pushes ask; once per batch).
 */
import type { Orm } from '../../db.ts';
import type { DomainChange } from '../../domain/changes.ts';
import type { SceneDto, SceneStreamDto } from '../../shared/api/index.ts';
import type { SceneSnapshots } from './scene-snapshots.ts';
import { affectedScenes } from './scenes.service.ts';

export interface ResolvedScene {
  scene: SceneDto;
  streams: SceneStreamDto[];
}

/**
 * What one change needs on a node, resolved afresh in one go: the scenes it touches (for the
 * admins' pushes) and the references the screens here follow (for theirs). `''` is the default
 * scene's reference.
 */
export interface SceneResolution {
  byId: ReadonlyMap<number, ResolvedScene | null>;
  byRef: ReadonlyMap<string, ResolvedScene | null>;
}

/** The key of a followed reference in a resolution: the slug or id, or '' for the default scene. */
export const refKey = (ref: string | null) => ref ?? '';

/** Which screens a batch of changes concerns. */
export interface Affected {
  /** Scenes whose resolved streams or fields may have changed. */
  sceneIds: number[];
  /** The scene the default was set to (the last one, when several); null when the default did not change. */
  defaultSceneId: number | null;
}

export interface SceneDirectory {
  /** Drop cached scene state on this node. */
  invalidate(): void;
  /**
   * The scene a reference shows: a slug or id, or null for the default scene. `fresh` reads
   * the database instead of the cache. `null` when there is no such active scene.
   */
  resolve(ref: string | null, options?: { fresh?: boolean }): Promise<ResolvedScene | null>;
  /** The active scene with this id, or null. */
  resolveId(id: number, options?: { fresh?: boolean }): Promise<ResolvedScene | null>;
  /** Computed after commit, on the node that made the changes. */
  affected(changes: readonly DomainChange[]): Promise<Affected>;
  /**
   * Resolves, afresh and once each, the scenes and references a change needs on this node.
   * `defaultSceneId`: the scene the change made the default, when it did (the default is still
   * read as it is now; this only picks the statement to try first: scene-queries.ts).
   */
  resolveChange(request: { sceneIds: readonly number[]; refs: readonly (string | null)[]; defaultSceneId?: number | null }): Promise<SceneResolution>;
}

export function createSceneDirectory(orm: Orm, snapshots: SceneSnapshots): SceneDirectory {
  // One batch of changes is asked about by the screens and by the consoles' pushes: read once.
  const affected = new WeakMap<readonly DomainChange[], Promise<Affected>>();
  return {
    async resolveChange({ sceneIds, refs, defaultSceneId }) {
      const byRef = new Map(
        await Promise.all(
          refs.map(async (ref) => [refKey(ref), ref === null ? await snapshots.defaultSnapshot({ fresh: true, likely: defaultSceneId ?? undefined }) : await snapshots.byRef(ref, { fresh: true })] as const),
        ),
      );
      // A scene a reference already resolved is not read twice.
      const known = new Map([...byRef.values()].flatMap((r) => (r ? [[r.scene.id, r] as const] : [])));
      const byId = new Map(await Promise.all(sceneIds.map(async (id) => [id, known.get(id) ?? (await snapshots.byId(id, { fresh: true }))] as const)));
      return { byId, byRef };
    },
    invalidate: () => snapshots.invalidate(),
    resolve: (ref, options = {}) => (ref === null ? snapshots.defaultSnapshot(options) : snapshots.byRef(ref, options)),
    resolveId: (id, options = {}) => snapshots.byId(id, options),
    affected(changes: readonly DomainChange[]) {
      let answer = affected.get(changes);
      if (!answer) {
        answer = affectedScenes(orm.em.fork(), changes);
        affected.set(changes, answer);
      }
      return answer;
    },
  };
}
