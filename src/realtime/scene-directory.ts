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
}
