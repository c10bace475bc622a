/**
 * What the hub needs to know about scenes to keep screens' state, handed to it in app.ts
 * (the hub imports no module; the scenes module implements this).
 */
import type { DomainChange } from '../domain/changes.ts';
import type { SceneDto, SceneStreamDto } from '../shared/api/index.ts';

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
  defaultChanged: boolean;
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
  /** Resolves, afresh and once each, the scenes and references a change needs on this node. */
  resolveChange(request: { sceneIds: readonly number[]; refs: readonly (string | null)[] }): Promise<SceneResolution>;
}
