/**
 * What the hub needs to know about scenes, handed to it in app.ts (the hub imports no module).
 */
import type { SceneDto, SceneStreamDto, StreamDto } from '../shared/api.ts';
import type { DomainChange } from './changes.ts';

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
  /** The last push version handed out in the cluster (0 before the first). */
  currentVersion(): Promise<number>;
  /** A new, higher push version. */
  nextVersion(): Promise<number>;
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
  /** Current DTOs of these streams (those that still exist). */
  streams(ids: readonly number[]): Promise<StreamDto[]>;
}
